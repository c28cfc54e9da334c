import { describe, expect, it } from 'vitest';
import { useTestApi, type Client } from '../../test/support/api';
import { created } from '../../test/support/fixtures';
import { streamRecordsOf } from '../../test/support/stream-records';
import { handler as countReports } from './count';

// Records made through the API, counted by the consumer as `npm start` runs it, read through the report routes; the
// expected figures are counted here from the records' own API reads, with this file's own local-date function.
const api = useTestApi({ events: true });

const SYDNEY = 'Australia/Sydney';
const localDate = (at: string) => new Intl.DateTimeFormat('en-CA', { timeZone: SYDNEY, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(at));
const dateAfter = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const mondayOf = (date: string) => dateAfter(date, -((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7));
const daysAgo = (days: number, hours = 0) => new Date(Date.now() - days * 86_400_000 - hours * 3_600_000).toISOString();

/** Every record of a list, page after page. */
async function everyRecord(client: Client, path: string, key: string): Promise<any[]> {
  const records: any[] = [];
  for (let page = 1; ; page++) {
    const { body } = await client.get(`${path}${path.includes('?') ? '&' : '?'}limit=100&page=${page}`);
    records.push(...body[key]);
    if (records.length >= body.totalCount) return records;
  }
}

const countBy = <T>(records: T[], keyOf: (record: T) => string, keys: readonly string[]) => Object.fromEntries(keys.map((key) => [key, records.filter((record) => keyOf(record) === key).length]));
const sum = (values: number[]) => Math.round(values.reduce((total, value) => total + value, 0) * 100) / 100;

async function sydneyOrganization() {
  const organization = await api.organization();
  expect((await organization.client.patch('/v1/organization', { timezone: SYDNEY })).status).toBe(200);
  const member = await created(organization.client, '/v1/organization/members', 'member', { email: 'kate@example.com', firstName: 'Kate', lastName: 'Ng' });
  return { ...organization, memberId: member.user.id };
}

const callInquiry = (phone: string, createdAt: string, tag = 'GENERAL') => ({ source: 'CALL', tag, createdAt, lead: { phone }, data: { summary: 'Asked for a plumber.', startedAt: createdAt, duration: 120 } });
const webForm = (email: string, createdAt: string, tag = 'QUOTE_REQUEST') => ({
  source: 'WEBFORM',
  tag,
  createdAt,
  lead: { email },
  data: { formName: 'Contact us', fields: [{ name: 'message', label: 'Message', value: 'Leaking tap' }], submittedAt: createdAt, pageUrl: 'https://example.com/contact' },
});

async function appointment(client: Client, leadId: string, memberId: number, startsAt: string, status?: string) {
  const booked = await created(client, '/v1/appointments', 'appointment', { leadId, title: 'Blocked drain', startsAt, endsAt: new Date(Date.parse(startsAt) + 3_600_000).toISOString(), attendees: [{ userId: memberId }] });
  if (status) expect((await client.patch(`/v1/appointments/${booked.id}`, { status })).status).toBe(200);
}

/** A mixed workload over the last two weeks: leads with values won and lost, calls and web forms, bookings and their endings. */
async function workload(client: Client, memberId: number) {
  const ava = await created(client, '/v1/leads', 'lead', { name: 'Ava Chen', email: 'ava@example.com', value: 1200.5 });
  const ben = await created(client, '/v1/leads', 'lead', { name: 'Ben Ito', email: 'ben@example.com', value: 300 });
  await created(client, '/v1/leads', 'lead', { name: 'Cleo Park', email: 'cleo@example.com', value: 80.25 });
  await created(client, '/v1/inquiries', 'inquiry', webForm('ava@example.com', daysAgo(0, 1)));
  await created(client, '/v1/inquiries', 'inquiry', webForm('ben@example.com', daysAgo(0, 2), 'BOOKING'));
  await created(client, '/v1/inquiries', 'inquiry', callInquiry('+61412345101', daysAgo(3)));
  await created(client, '/v1/inquiries', 'inquiry', callInquiry('+61412345102', daysAgo(9), 'EMERGENCY'));
  await created(client, '/v1/inquiries', 'inquiry', callInquiry('+61412345101', daysAgo(1), 'FOLLOW_UP'));
  // A lead who asked a moment ago and is contacted at once: within 5 minutes.
  const dana = await created(client, '/v1/inquiries', 'inquiry', webForm('dana@example.com', new Date().toISOString(), 'GENERAL'));
  expect((await client.patch(`/v1/leads/${dana.leadId}`, { status: 'CONTACTED', value: 450 })).status).toBe(200);
  for (const status of ['CONTACTED', 'QUOTED', 'WON']) expect((await client.patch(`/v1/leads/${ava.id}`, { status })).status).toBe(200);
  expect((await client.patch(`/v1/leads/${ben.id}`, { status: 'LOST', lostReason: 'PRICE' })).status).toBe(200);
  await appointment(client, ava.id, memberId, daysAgo(2), 'COMPLETED');
  await appointment(client, ava.id, memberId, daysAgo(4), 'CANCELLED');
  await appointment(client, ben.id, memberId, daysAgo(5), 'NO_SHOW');
  await appointment(client, ben.id, memberId, daysAgo(-3));
}

/**
 * Speed to lead from the leads' timelines: from each first inquiry to the lead's first status change at or after it
 * (this workload contacts leads by status moves alone); a lead not contacted yet is not measured.
 */
async function secondsToContact(client: Client, firstInquiries: any[]) {
  const measured: number[] = [];
  for (const inquiry of firstInquiries) {
    const activities = await everyRecord(client, `/v1/leads/${inquiry.leadId}/activities`, 'activities');
    const moves = activities.filter((activity) => activity.event === 'STATUS_CHANGED' && activity.createdAt >= inquiry.createdAt).map((activity) => Date.parse(activity.createdAt));
    if (moves.length) measured.push((Math.min(...moves) - Date.parse(inquiry.createdAt)) / 1000);
  }
  return { leads: measured.length, within5Minutes: measured.filter((seconds) => seconds <= 300).length };
}

/** The figures the reports must answer over [from, to], counted from what the API lists of the records. */
async function countedFromRecords(client: Client, from: string, to: string) {
  const inRange = (at: string | null | undefined) => typeof at === 'string' && localDate(at) >= from && localDate(at) <= to;
  const [leads, inquiries, appointments] = await Promise.all([everyRecord(client, '/v1/leads', 'leads'), everyRecord(client, '/v1/inquiries', 'inquiries'), everyRecord(client, '/v1/appointments', 'appointments')]);
  const cohort = leads.filter((lead) => inRange(lead.createdAt));
  const statuses = ['NEW', 'CONTACTED', 'QUALIFIED', 'QUOTED', 'WON', 'LOST'];
  const firstSource = new Map(inquiries.filter((inquiry) => inquiry.isFirstInquiry).map((inquiry) => [inquiry.leadId, inquiry.source]));
  const sources = ['CALL', 'EMAIL', 'CHATBOT', 'SMS', 'WEBFORM'];
  const won = leads.filter((lead) => inRange(lead.wonAt));
  const lost = leads.filter((lead) => inRange(lead.lostAt));
  const received = inquiries.filter((inquiry) => inRange(inquiry.createdAt));
  const starting = appointments.filter((each) => inRange(each.startsAt));
  return {
    leads: {
      created: cohort.length,
      bySource: { ...countBy(cohort, (lead) => firstSource.get(lead.id) ?? 'NONE', sources), NONE: cohort.filter((lead) => !firstSource.has(lead.id)).length },
      byStatus: countBy(cohort, (lead) => lead.status, statuses),
      pipelineValue: Object.fromEntries(statuses.map((status) => [status, sum(cohort.filter((lead) => lead.status === status).map((lead) => lead.value ?? 0))])),
      won: { count: won.length, value: sum(won.map((lead) => lead.value ?? 0)) },
      lost: { count: lost.length, reasons: { ...countBy(lost, (lead) => lead.lostReason, ['PRICE', 'TIMING', 'COMPETITOR', 'NO_RESPONSE', 'NOT_A_FIT']), OTHER: 0 } },
      conversion: cohort.length === 0 ? null : Math.round((cohort.filter((lead) => lead.status === 'WON').length / cohort.length) * 10_000) / 10_000,
    },
    inquiries: { total: received.length, bySource: countBy(received, (inquiry) => inquiry.source, sources), byTag: countBy(received, (inquiry) => inquiry.tag, ['GENERAL', 'QUOTE_REQUEST', 'BOOKING', 'EMERGENCY', 'FOLLOW_UP', 'FLAGGED']) },
    appointments: {
      booked: appointments.filter((each) => inRange(each.createdAt)).length,
      bookedFromCalls: 0,
      cancelled: starting.filter((each) => each.status === 'CANCELLED').length,
      completed: starting.filter((each) => each.status === 'COMPLETED').length,
      noShows: starting.filter((each) => each.status === 'NO_SHOW').length,
    },
    // Calls received per week, by the Monday of their local date.
    weeklyCalls: countBy(received.filter((inquiry) => inquiry.source === 'CALL'), (inquiry) => mondayOf(localDate(inquiry.createdAt)), [...new Set(received.map((inquiry) => mondayOf(localDate(inquiry.createdAt))))]),
    speedToLead: await secondsToContact(client, inquiries.filter((inquiry) => inquiry.isFirstInquiry && inRange(inquiry.createdAt))),
    lostNow: cohort.filter((lead) => lead.status === 'LOST').length,
    wonNow: cohort.filter((lead) => lead.status === 'WON').length,
  };
}

describe('the reports over a mixed workload', () => {
  it('answers every figure as counted from the records', async () => {
    const { client, memberId, organizationId } = await sydneyOrganization();
    await workload(client, memberId);
    await api.eventsCaughtUp();
    const to = localDate(new Date().toISOString());
    const from = dateAfter(to, -13);
    const expected = await countedFromRecords(client, from, to);
    // The workload is what the test says it is: the figures compared are not all zero.
    expect([expected.leads.created, expected.inquiries.total, expected.leads.won.count, expected.appointments.completed, expected.speedToLead.within5Minutes]).toEqual([6, 6, 1, 1, 1]);

    const { summary } = (await client.get(`/v1/reports/summary?from=${from}&to=${to}`)).body;
    expect(summary.leads).toEqual(expected.leads);
    expect(summary.inquiries).toEqual(expected.inquiries);
    expect(summary.appointments).toEqual(expected.appointments);
    expect([summary.speedToLead.leads, summary.speedToLead.within5Minutes.count]).toEqual([expected.speedToLead.leads, expected.speedToLead.within5Minutes]);
    expect([summary.from, summary.to, summary.timezone, summary.currency]).toEqual([from, to, SYDNEY, 'AUD']);

    const { funnel } = (await client.get(`/v1/reports/funnel?from=${from}&to=${to}`)).body;
    // Every lead created reached NEW; the won ones reached every stage.
    expect([funnel.stages[0].reached, funnel.stages[4].reached, funnel.lost]).toEqual([expected.leads.created, expected.wonNow, expected.lostNow]);

    const { timeseries } = (await client.get(`/v1/reports/timeseries?metric=inquiries.bySource.CALL&interval=week&from=${from}&to=${to}`)).body;
    expect(timeseries.points[0].start).toBe(mondayOf(from));
    const weeks = Object.fromEntries(timeseries.points.map((point: any) => [point.start, point.value]));
    expect(Object.fromEntries(Object.keys(expected.weeklyCalls).map((monday) => [monday, weeks[monday]]))).toEqual(expected.weeklyCalls);
    expect(Object.values(weeks).reduce((total: number, value: any) => total + value, 0)).toBe(expected.inquiries.bySource.CALL);

    // The stream redelivers every record of the organization: the consumer counts none twice.
    const records = await streamRecordsOf(api, organizationId);
    expect(records.length).toBeGreaterThan(20);
    expect(await countReports({ Records: records })).toEqual({ batchItemFailures: [] });
    expect((await client.get(`/v1/reports/summary?from=${from}&to=${to}`)).body.summary).toEqual({ ...summary, asOf: expect.any(String) });
  });

  it('puts records on the local day across the end of daylight saving', async () => {
    const { client, memberId } = await sydneyOrganization();
    // 00:30 on 5 April at +11:00, and 23:30 on 5 April at +10:00 (the clocks went back at 03:00 that morning): read
    // at +11:00 all day, the second would fall on 6 April.
    await created(client, '/v1/inquiries', 'inquiry', callInquiry('+61412345201', '2026-04-04T13:30:00.000Z'));
    await created(client, '/v1/inquiries', 'inquiry', callInquiry('+61412345202', '2026-04-05T13:30:00.000Z'));
    const lead = await created(client, '/v1/leads', 'lead', { name: 'Dan Lee', email: 'dan@example.com' });
    // 00:30 on 6 April at +10:00.
    await appointment(client, lead.id, memberId, '2026-04-05T14:30:00.000Z', 'COMPLETED');
    await api.eventsCaughtUp();

    const series = async (query: string) => (await client.get(`/v1/reports/timeseries?from=2026-04-04&to=2026-04-06&${query}`)).body.timeseries.points;
    expect(await series('metric=inquiries.bySource.CALL')).toEqual([
      { start: '2026-04-04', value: 0 },
      { start: '2026-04-05', value: 2 },
      { start: '2026-04-06', value: 0 },
    ]);
    expect(await series('metric=appointments.completed')).toEqual([
      { start: '2026-04-04', value: 0 },
      { start: '2026-04-05', value: 0 },
      { start: '2026-04-06', value: 1 },
    ]);
    // Sunday 5 April is in the week of Monday 30 March; Monday 6 April starts the next.
    expect(await series('metric=inquiries.bySource.CALL&interval=week')).toEqual([
      { start: '2026-03-30', value: 2 },
      { start: '2026-04-06', value: 0 },
    ]);
    expect(await series('metric=appointments.completed&interval=week')).toEqual([
      { start: '2026-03-30', value: 0 },
      { start: '2026-04-06', value: 1 },
    ]);
  });

  it('never counts another organization', async () => {
    const a = await sydneyOrganization();
    const b = await sydneyOrganization();
    await workload(a.client, a.memberId);
    await created(b.client, '/v1/inquiries', 'inquiry', webForm('zoe@example.com', daysAgo(1)));
    await api.eventsCaughtUp();
    const to = localDate(new Date().toISOString());
    const from = dateAfter(to, -13);
    for (const { client } of [a, b]) {
      const expected = await countedFromRecords(client, from, to);
      const { summary } = (await client.get(`/v1/reports/summary?from=${from}&to=${to}`)).body;
      expect([summary.leads, summary.inquiries, summary.appointments]).toEqual([expected.leads, expected.inquiries, expected.appointments]);
    }
    expect((await b.client.get(`/v1/reports/summary?from=${from}&to=${to}`)).body.summary.inquiries.total).toBe(1);
  });
});
