import { describe, expect, it } from 'vitest';
import { useTestApi } from '../../test/support/api';
import { created } from '../../test/support/fixtures';
import { appointment, callInquiry, countedFromRecords, dateAfter, localDate, mondayOf, SYDNEY, sydneyOrganization, webForm, daysAgo, workload } from '../../test/support/report-workload';
import { streamRecordsOf } from '../../test/support/stream-records';
import { handler as countReports } from './count';

// Records made through the API, counted by the consumer as `npm start` runs it, read through the report routes; the
// expected figures are counted from the records' own API reads (test/support/report-workload.ts).
const api = useTestApi({ events: true });

describe('the reports over a mixed workload', () => {
  it('answers every figure as counted from the records', async () => {
    const { client, memberId, organizationId } = await sydneyOrganization(api);
    await workload(api, client, memberId);
    await api.eventsCaughtUp();
    const to = localDate(new Date().toISOString());
    const from = dateAfter(to, -13);
    const expected = await countedFromRecords(client, from, to);
    // The workload is what the test says it is: the figures compared are not all zero.
    // Within 5 minutes: the lead contacted at once. The three threads a member's SMS opened are inquiries the
    // organization started: not those leads' first inquiries, nor a speed to lead of 0 s.
    expect([expected.leads.created, expected.inquiries.total, expected.leads.won.count, expected.appointments.completed, expected.appointments.bookedFromCalls, expected.speedToLead.within5Minutes]).toEqual([9, 9, 1, 1, 2, 1]);
    expect([expected.inquiries.startedByLead.total, expected.inquiries.startedByBusiness.total, (expected.leads.bySource as Record<string, number>).SMS, expected.leads.bySource.NONE]).toEqual([6, 3, 0, 4]);
    // Two cancellations made today: one of a booking four days ago, one three weeks ahead.
    expect(expected.appointments.cancelled).toBe(2);
    // SMS both ways: one delivered, one failed, one sent and not reported on; a reply and a STOP.
    expect(expected.sms).toEqual({ sent: 2, delivered: 1, failed: 1, received: 2, optOuts: 1 });
    // The funnel's middle: a lead contacted, one qualified then lost, one quoted then won.
    expect(expected.reached).toEqual([9, 3, 2, 1, 1]);

    const { summary } = (await client.get(`/v1/reports/summary?from=${from}&to=${to}`)).body;
    expect(summary.leads).toEqual(expected.leads);
    expect(summary.inquiries).toEqual(expected.inquiries);
    expect(summary.appointments).toEqual(expected.appointments);
    expect(summary.sms).toEqual(expected.sms);
    expect(summary.speedToLead).toMatchObject({ leads: expected.speedToLead.leads, medianSeconds: expected.speedToLead.medianSeconds, p90Seconds: expected.speedToLead.p90Seconds, within5Minutes: { count: expected.speedToLead.within5Minutes } });
    expect([summary.from, summary.to, summary.timezone, summary.currency]).toEqual([from, to, SYDNEY, 'AUD']);

    const { funnel } = (await client.get(`/v1/reports/funnel?from=${from}&to=${to}`)).body;
    // Each stage reached by as many leads as their timelines say, a lost one counted up to where it went.
    expect([funnel.stages.map((stage: any) => stage.reached), funnel.lost]).toEqual([expected.reached, expected.lostNow]);
    expect(funnel.stages.map((stage: any) => stage.conversionToNext)).toEqual(expected.reached.map((reached, i) => (i + 1 < expected.reached.length ? Math.round((expected.reached[i + 1]! / reached) * 10_000) / 10_000 : null)));

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
    const { client, memberId } = await sydneyOrganization(api);
    // 00:30 on 5 April at +11:00, and 23:30 on 5 April at +10:00 (the clocks went back at 03:00 that morning): read
    // at +11:00 all day, the second would fall on 6 April.
    await created(client, '/v1/inquiries', 'inquiry', callInquiry('+61412345201', '2026-04-04T13:30:00.000Z'));
    await created(client, '/v1/inquiries', 'inquiry', callInquiry('+61412345202', '2026-04-05T13:30:00.000Z'));
    const lead = await created(client, '/v1/leads', 'lead', { name: 'Dan Lee', email: 'dan@example.com' });
    // 00:30 on 6 April at +10:00.
    await appointment(client, lead.id, memberId, '2026-04-05T14:30:00.000Z', { status: 'COMPLETED' });
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
    const a = await sydneyOrganization(api);
    const b = await sydneyOrganization(api);
    await workload(api, a.client, a.memberId);
    await created(b.client, '/v1/inquiries', 'inquiry', webForm('zoe@example.com', daysAgo(1)));
    await api.eventsCaughtUp();
    const to = localDate(new Date().toISOString());
    const from = dateAfter(to, -13);
    for (const { client } of [a, b]) {
      const expected = await countedFromRecords(client, from, to);
      const { summary } = (await client.get(`/v1/reports/summary?from=${from}&to=${to}`)).body;
      expect([summary.leads, summary.inquiries, summary.appointments, summary.sms]).toEqual([expected.leads, expected.inquiries, expected.appointments, expected.sms]);
    }
    expect((await b.client.get(`/v1/reports/summary?from=${from}&to=${to}`)).body.summary.inquiries.total).toBe(1);
  });
});
