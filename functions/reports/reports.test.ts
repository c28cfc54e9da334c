import { describe, expect, it } from 'vitest';
import { createApiKey } from '#shared/auth/api-keys';
import { putItems } from '#shared/store/batch-write';
import { useTestApi, type Client } from '../../test/support/api';
import { measureDynamoCalls, roundTrips } from '../../test/support/dynamo-calls';
import { REPORT_ENTITIES, reportKeys } from './entity';
import { DAY_ATTRIBUTES } from './catalog';
import { rangeBeforeTimezone, resolveRange } from './range';

const api = useTestApi();

/** Day items as the counting consumer leaves them: counters by attribute, its version and time beside them. */
async function putDays(organizationId: string, days: Record<string, Record<string, number>>): Promise<void> {
  await putItems(Object.entries(days).map(([date, counters]) => ({ ...reportKeys.reportDay(organizationId, date), entity: REPORT_ENTITIES.day, v: 1, updatedAt: '2026-03-01T00:00:00.000Z', ...counters })));
}

/** The calendar date `days` after `date`, and today in a time zone: the test's own arithmetic, from Intl. */
const dateAfter = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const todayIn = (timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

const ROUTES = ['/v1/reports/summary', '/v1/reports/funnel', '/v1/reports/timeseries?metric=leads.created'] as const;
const withQuery = (route: string, query: string) => `${route}${route.includes('?') ? '&' : '?'}${query}`;

async function expectRefused(client: Client, path: string, parameter: string) {
  const res = await client.get(path);
  expect([res.status, res.body.error?.details?.[0]?.path], `${path}: ${JSON.stringify(res.body)}`).toEqual([400, parameter]);
  return res.body.error.details[0].message as string;
}

describe('GET /v1/reports: bad input', () => {
  it('refuses a date the calendar has not, a range backwards or over 366 days, and parameters it does not take, naming each', async () => {
    const { client } = await api.organization();
    for (const route of ROUTES) {
      expect(await expectRefused(client, withQuery(route, 'from=2026-02-30&to=2026-03-10'), 'from')).toContain('2026-02-30 is not');
      await expectRefused(client, withQuery(route, 'to=2025-02-29'), 'to');
      await expectRefused(client, withQuery(route, 'from=2026-13-01'), 'from');
      await expectRefused(client, withQuery(route, 'from=1%20March'), 'from');
      // Before any record, and before year 0 (whose default 30 days would end in year −1): refused, never a date of year −1.
      expect(await expectRefused(client, withQuery(route, 'to=0000-01-05'), 'to')).toBe('to must be 1970-01-01 or later: no record is older');
      await expectRefused(client, withQuery(route, 'from=0000-01-01&to=0000-12-31'), 'from');
      await expectRefused(client, withQuery(route, 'from=1969-12-31'), 'from');
      expect(await expectRefused(client, withQuery(route, 'from=2026-03-11&to=2026-03-10'), 'from')).toBe('from must not be after to');
      // 367 days, both included; 366 (a leap year) is the most a range holds.
      expect(await expectRefused(client, withQuery(route, 'from=2025-01-01&to=2026-01-02'), 'to')).toContain('366 days');
      expect((await client.get(withQuery(route, 'from=2024-01-01&to=2024-12-31'))).status).toBe(200);
      // from alone ends today: too far back, or after today, names it.
      await expectRefused(client, withQuery(route, `from=${dateAfter(todayIn('UTC'), -366)}`), 'from');
      await expectRefused(client, withQuery(route, `from=${dateAfter(todayIn('UTC'), 2)}`), 'from');
      await expectRefused(client, withQuery(route, 'limit=10'), 'limit');
      await expectRefused(client, withQuery(route, 'organizationId=org_01JA0000000000000000000000'), 'organizationId');
      await expectRefused(client, withQuery(route, 'from=2026-03-01&from=2026-03-02'), 'from');
    }
  });

  it('refuses an unknown metric or interval, and a time series without a metric', async () => {
    const { client } = await api.organization();
    expect(await expectRefused(client, '/v1/reports/timeseries?metric=leads.deleted', 'metric')).toContain('metric must be');
    await expectRefused(client, '/v1/reports/timeseries?metric=leads.byStatus.ARCHIVED', 'metric');
    await expectRefused(client, '/v1/reports/timeseries', 'metric');
    expect(await expectRefused(client, '/v1/reports/timeseries?metric=calls.missed&interval=year', 'interval')).toBe('interval must be one of day, week, month');
    await expectRefused(client, '/v1/reports/timeseries?metric=calls.missed&interval=Week', 'interval');
  });
});

describe('GET /v1/reports: the range', () => {
  it('reads the last 30 days in the organization’s time zone by default, ending on `to` when given alone', async () => {
    // Kiritimati (UTC+14) is a day ahead of UTC from 10:00 UTC, Pago Pago (UTC−11) a day behind until 11:00 UTC: at
    // any hour one of them has a today that is not UTC's, and the range follows it.
    for (const timezone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
      const { client, organizationId } = await api.organization();
      expect((await client.patch('/v1/organization', { timezone })).status).toBe(200);
      const today = todayIn(timezone);
      await putDays(organizationId, { [dateAfter(today, -30)]: { lc: 1 }, [dateAfter(today, -29)]: { lc: 2 }, [today]: { lc: 4 }, [dateAfter(today, 1)]: { lc: 8 } });

      const { summary } = (await client.get('/v1/reports/summary')).body;
      expect([summary.from, summary.to, summary.timezone, summary.leads.created], timezone).toEqual([dateAfter(today, -29), today, timezone, 6]);
      const { funnel } = (await client.get(`/v1/reports/funnel?to=${dateAfter(today, -1)}`)).body;
      expect([funnel.from, funnel.to], timezone).toEqual([dateAfter(today, -30), dateAfter(today, -1)]);
      const { timeseries } = (await client.get(`/v1/reports/timeseries?metric=leads.created&from=${dateAfter(today, -2)}`)).body;
      expect([timeseries.from, timeseries.to, timeseries.points.map((point: any) => point.value)], timezone).toEqual([dateAfter(today, -2), today, [0, 0, 4]]);
    }
  });

  it('reads a 366-day range with the organization’s item and at most two Queries, sent together', async () => {
    const { client, organizationId } = await api.organization();
    // Every counter on every day: the largest day items there can be.
    const full = Object.fromEntries(DAY_ATTRIBUTES.map((attribute) => [attribute, 1]));
    const dates = Array.from({ length: 366 }, (_, index) => dateAfter('2024-01-01', index));
    await putDays(organizationId, Object.fromEntries(dates.map((date) => [date, full])));
    let summary: any;
    const measured = await measureDynamoCalls(async () => {
      summary = (await client.get('/v1/reports/summary?from=2024-01-01&to=2024-12-31')).body.summary;
    });
    const calls = measured.map((call) => call.command);
    // The organization's item and the first page of days in one round trip.
    expect(roundTrips(measured)[0]).toEqual(['GetItemCommand', 'QueryCommand']);
    expect(calls.filter((call) => call === 'GetItemCommand')).toHaveLength(1);
    expect(calls.filter((call) => call === 'QueryCommand').length).toBeGreaterThanOrEqual(1);
    expect(calls.filter((call) => call === 'QueryCommand').length).toBeLessThanOrEqual(2);
    expect(calls).toHaveLength(calls.filter((call) => call === 'GetItemCommand' || call === 'QueryCommand').length);
    expect([summary.leads.created, summary.calls.missed, summary.sms.optOuts]).toEqual([366, 366, 366]);
  });
});

describe('the default range at fixed instants, from UTC−12 to UTC+14', () => {
  const dateIn = (timeZone: string, ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(ms));
  // Every whole offset's extremes, the half- and quarter-hour ones, and zones whose daylight saving moves that day.
  const ZONES = ['Etc/GMT+12', 'Pacific/Pago_Pago', 'America/Los_Angeles', 'America/St_Johns', 'UTC', 'Europe/London', 'Asia/Kolkata', 'Asia/Kathmandu', 'Australia/Sydney', 'Pacific/Chatham', 'Pacific/Kiritimati'];
  // Through UTC's day, either side of its midnight, and on the mornings Sydney and London change their clocks.
  const INSTANTS = [
    ...['2026-03-13T23:59:59.999Z', '2026-03-14T00:00:00.000Z', '2026-03-14T05:30:00.000Z', '2026-03-14T09:59:59.999Z', '2026-03-14T10:00:00.000Z'],
    ...['2026-03-14T11:45:00.000Z', '2026-03-14T13:15:00.000Z', '2026-03-14T18:00:00.000Z', '2026-04-04T16:30:00.000Z', '2026-10-04T15:30:00.000Z', '2026-10-25T00:30:00.000Z'],
  ];

  it('ends on today in the organization’s time zone, not UTC’s, whatever the hour; the early Query holds it', () => {
    const differs = { ahead: 0, behind: 0 };
    for (const at of INSTANTS) {
      const ms = Date.parse(at);
      const early = rangeBeforeTimezone({}, ms)!;
      for (const timezone of ZONES) {
        const today = dateIn(timezone, ms);
        if (today > at.slice(0, 10)) differs.ahead++;
        if (today < at.slice(0, 10)) differs.behind++;
        const range = resolveRange({}, timezone, ms);
        expect(range, `${timezone} at ${at}`).toEqual({ from: dateAfter(today, -29), to: today });
        expect(resolveRange({ from: dateAfter(today, -3) }, timezone, ms), `${timezone} at ${at}`).toEqual({ from: dateAfter(today, -3), to: today });
        // The days read before the organization's zone is known include every day of its range.
        expect(early.from <= range.from && range.to <= early.to, `${timezone} at ${at}`).toBe(true);
      }
    }
    // The instants put zones on both sides of UTC's date, so a range that ended on UTC's today could not pass.
    expect(differs.ahead).toBeGreaterThan(5);
    expect(differs.behind).toBeGreaterThan(5);
  });
});

describe('GET /v1/reports: the figures', () => {
  it('sums the days of the range and computes each derived figure from the sums', async () => {
    const { client, organizationId } = await api.organization();
    await putDays(organizationId, {
      '2026-03-02': { lc: 100 },
      '2026-03-04': { lc: 2, ls_CALL: 1, st_WON: 1, st_NEW: 1, pv_WON: 125_050, w: 1, wv: 125_050, i_CALL: 2, il_CALL: 2, t_BOOKING: 1, t_GENERAL: 1, ct: 1, cm: 1, cd: 200, rm_NEW: 1, rm_WON: 1, sl5: 1, sl6: 1 },
      '2026-03-09': { lc: 1, ls_WEBFORM: 1, st_LOST: 1, l: 1, lr_PRICE: 1, i_SMS: 3, il_SMS: 1, ib_SMS: 2, ia: 1, t_FOLLOW_UP: 3, ct: 2, cd: 101, ca: 1, rm_QUOTED: 1, sl240: 1, sl2880: 1, ab: 2, abc: 1, ad: 1, ss: 3, sd: 2, oo: 1 },
    });
    const { summary } = (await client.get('/v1/reports/summary?from=2026-03-03&to=2026-03-31')).body;
    expect(summary.leads).toEqual({
      created: 3,
      bySource: { CALL: 1, EMAIL: 0, CHATBOT: 0, SMS: 0, WEBFORM: 1, NONE: 1 },
      byStatus: { NEW: 1, CONTACTED: 0, QUALIFIED: 0, QUOTED: 0, WON: 1, LOST: 1 },
      pipelineValue: { NEW: 0, CONTACTED: 0, QUALIFIED: 0, QUOTED: 0, WON: 1250.5, LOST: 0 },
      won: { count: 1, value: 1250.5 },
      lost: { count: 1, reasons: { PRICE: 1, TIMING: 0, COMPETITOR: 0, NO_RESPONSE: 0, NOT_A_FIT: 0, OTHER: 0 } },
      conversion: 0.3333,
    });
    // Two calls and a text the leads started; two threads the organization opened by texting first, one by an automation.
    expect(summary.inquiries).toEqual({
      total: 5,
      bySource: { CALL: 2, EMAIL: 0, CHATBOT: 0, SMS: 3, WEBFORM: 0 },
      byTag: { GENERAL: 1, QUOTE_REQUEST: 0, BOOKING: 1, EMERGENCY: 0, FOLLOW_UP: 3, FLAGGED: 0 },
      startedByLead: { total: 3, bySource: { CALL: 2, EMAIL: 0, CHATBOT: 0, SMS: 1, WEBFORM: 0 } },
      startedByBusiness: { total: 2, bySource: { CALL: 0, EMAIL: 0, CHATBOT: 0, SMS: 2, WEBFORM: 0 }, byAutomation: 1 },
    });
    // 301 seconds over 3 calls taken.
    expect(summary.calls).toEqual({ taken: 3, missed: 1, afterHours: 1, transferred: 0, averageDurationSeconds: 100 });
    // Four leads, waits to the second: 5, 6, 240 and 2880 s. Half were contacted within 6 s, 90 % (3.6 of 4) within
    // 2880 s, three within 5 minutes.
    expect(summary.speedToLead).toEqual({ leads: 4, medianSeconds: 6, p90Seconds: 2880, within5Minutes: { count: 3, share: 0.75 } });
    expect(summary.appointments).toEqual({ booked: 2, bookedFromCalls: 1, cancelled: 0, completed: 1, noShows: 0 });
    expect(summary.sms).toEqual({ sent: 3, delivered: 2, failed: 0, received: 0, optOuts: 1 });
    expect(summary.automations).toEqual({ started: 0, completed: 0, stoppedByReply: 0 });
    const series = async (metric: string) => (await client.get(`/v1/reports/timeseries?from=2026-03-04&to=2026-03-09&interval=week&metric=${metric}`)).body.timeseries.points.map((point: any) => point.value);
    expect([await series('inquiries.startedByLead.total'), await series('inquiries.startedByBusiness.total'), await series('speedToLead.medianSeconds')]).toEqual([[2, 1], [0, 2], [5, 240]]);

    const { funnel } = (await client.get('/v1/reports/funnel?from=2026-03-03&to=2026-03-31')).body;
    expect(funnel).toEqual({
      from: '2026-03-03',
      to: '2026-03-31',
      stages: [
        { status: 'NEW', reached: 3, conversionToNext: 0.6667 },
        { status: 'CONTACTED', reached: 2, conversionToNext: 1 },
        { status: 'QUALIFIED', reached: 2, conversionToNext: 1 },
        { status: 'QUOTED', reached: 2, conversionToNext: 0.5 },
        { status: 'WON', reached: 1, conversionToNext: null },
      ],
      lost: 1,
    });
  });

  it('answers nothing to measure as null, and a lead contacted days later by its wait to the second', async () => {
    const { client, organizationId } = await api.organization();
    await putDays(organizationId, { '2026-03-04': { sl400001: 3 } });
    const { summary } = (await client.get('/v1/reports/summary?from=2026-03-01&to=2026-03-31')).body;
    expect([summary.leads.conversion, summary.calls.averageDurationSeconds]).toEqual([null, null]);
    expect(summary.speedToLead).toEqual({ leads: 3, medianSeconds: 400_001, p90Seconds: 400_001, within5Minutes: { count: 0, share: 0 } });
    const { funnel } = (await client.get('/v1/reports/funnel?from=2026-03-01&to=2026-03-31')).body;
    expect(funnel.stages.map((stage: any) => stage.conversionToNext)).toEqual([null, null, null, null, null]);
  });

  it('answers a time series per day, per week from Monday, or per month, each point over the days of the range in it', async () => {
    const { client, organizationId } = await api.organization();
    // 2026-03-04 is a Wednesday: the first week starts on Monday 2 March, before the range, whose day is not counted.
    await putDays(organizationId, {
      '2026-03-02': { cm: 5, lc: 9 },
      '2026-03-04': { cm: 1, lc: 2, st_WON: 1 },
      '2026-03-08': { cm: 2 },
      '2026-03-09': { cm: 3 },
      '2026-03-17': { cm: 4, lc: 4, st_WON: 1 },
      '2026-03-18': { cm: 6 },
    });
    const series = async (query: string) => (await client.get(`/v1/reports/timeseries?from=2026-03-04&to=2026-03-17&${query}`)).body.timeseries;
    expect(await series('metric=calls.missed&interval=week')).toEqual({
      metric: 'calls.missed',
      interval: 'week',
      from: '2026-03-04',
      to: '2026-03-17',
      points: [
        { start: '2026-03-02', value: 3 },
        { start: '2026-03-09', value: 3 },
        { start: '2026-03-16', value: 4 },
      ],
    });
    expect((await series('metric=calls.missed&interval=month')).points).toEqual([{ start: '2026-03-01', value: 10 }]);
    const daily = await series('metric=calls.missed');
    expect([daily.interval, daily.points.length, daily.points[0], daily.points[4], daily.points[13]]).toEqual(['day', 14, { start: '2026-03-04', value: 1 }, { start: '2026-03-08', value: 2 }, { start: '2026-03-17', value: 4 }]);
    // A ratio per point from the point's own sums: 1 of 2, no lead created, 1 of 4.
    expect((await series('metric=leads.conversion&interval=week')).points.map((point: any) => point.value)).toEqual([0.5, null, 0.25]);
  });
});

describe('GET /v1/reports: who may read', () => {
  it('answers a key that may only read', async () => {
    const { organizationId } = await api.organization();
    await putDays(organizationId, { '2026-03-04': { lc: 2 } });
    const reader = api.as((await createApiKey(organizationId, null, 'reader', 'read')).token);
    for (const route of ROUTES) expect((await reader.get(withQuery(route, 'from=2026-03-01&to=2026-03-31'))).status, route).toBe(200);
    expect((await reader.get('/v1/reports/summary?from=2026-03-01&to=2026-03-31')).body.summary.leads.created).toBe(2);
  });

  it('answers each organization its own numbers, never another’s', async () => {
    const a = await api.organization();
    const b = await api.organization();
    await putDays(a.organizationId, { '2026-03-04': { lc: 5, cm: 2, rm_NEW: 5 } });
    await putDays(b.organizationId, { '2026-03-05': { lc: 1 } });
    const range = 'from=2026-03-01&to=2026-03-31';
    const read = async (client: Client) => [
      (await client.get(`/v1/reports/summary?${range}`)).body.summary.leads.created,
      (await client.get(`/v1/reports/summary?${range}`)).body.summary.calls.missed,
      (await client.get(`/v1/reports/funnel?${range}`)).body.funnel.stages[0].reached,
      (await client.get(`/v1/reports/timeseries?metric=leads.created&interval=month&${range}`)).body.timeseries.points[0].value,
    ];
    expect(await read(a.client)).toEqual([5, 2, 5, 5]);
    expect(await read(b.client)).toEqual([1, 0, 0, 1]);
    // No parameter names an organization: B cannot ask for A's.
    await expectRefused(b.client, `/v1/reports/summary?${range}&organizationId=${a.organizationId}`, 'organizationId');
  });
});
