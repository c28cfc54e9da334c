import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../../test/support/api';
import { countedFromRecords, dateAfter, everyRecord, localDate } from '../../test/support/report-workload';

// The demo organization as `npm start` makes it, its records counted by the stream consumer as they are written: one
// for the file, as both tests only read it.
const api = useTestApi({ events: true });

/** The README's answer of the summary for the demo organization: the JSON block after its summary curl. */
function readmeSummary(): Record<string, unknown> {
  const readme = readFileSync('README.md', 'utf8');
  const section = readme.slice(readme.indexOf('## Reports'));
  const block = /curl -s -H "\$AUTH" "\$API\/v1\/reports\/summary"\n```[\s\S]*?```json\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('README has no demo summary under "## Reports"');
  return JSON.parse(block);
}

describe('the demo organization’s reports', () => {
  it('show 60 days of history, every figure as counted from its records', async () => {
    const { client } = await api.demoOrganization();
    await api.eventsCaughtUp();
    const to = localDate(new Date().toISOString());
    const from = dateAfter(to, -59);
    const expected = await countedFromRecords(client, from, to);
    const { summary } = (await client.get(`/v1/reports/summary?from=${from}&to=${to}`)).body;
    expect([summary.leads, summary.inquiries, summary.appointments, summary.sms]).toEqual([expected.leads, expected.inquiries, expected.appointments, expected.sms]);
    expect((await client.get(`/v1/reports/funnel?from=${from}&to=${to}`)).body.funnel.stages.map((stage: { reached: number }) => stage.reached)).toEqual(expected.reached);

    // Spread over the 60 days: the nine leads made on eight or nine local days (two of them hours apart share a day
    // when made near local midnight), each day counted by the daily series, the first near their start; visits
    // booked and ended on the way.
    const created = (await everyRecord(client, '/v1/leads', 'leads')).map((lead) => localDate(lead.createdAt));
    const days = new Set(created).size;
    expect([8, 9]).toContain(days);
    const daily = (await client.get(`/v1/reports/timeseries?metric=leads.created&interval=day&from=${from}&to=${to}`)).body.timeseries.points;
    expect(daily.filter((point: { value: number }) => point.value > 0).length).toBe(days);
    expect(created.sort()[0]! <= dateAfter(to, -55)).toBe(true);
    expect([summary.leads.won.count, summary.leads.lost.count, summary.appointments.completed, summary.appointments.noShows, summary.appointments.cancelled, summary.appointments.bookedFromCalls]).toEqual([1, 1, 2, 1, 1, 3]);
    // By week (Mondays, on the business's clock): a point for each week a lead was made in, whatever the hour: four
    // weeks at least (the nine are 0.2 to 58 days old), five most hours, four when the week has just begun.
    const mondayOf = (date: string) => dateAfter(date, -((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7));
    const weeks = [...new Set(created.map(mondayOf))].sort();
    expect(weeks.length).toBeGreaterThanOrEqual(4);
    const weekly = (await client.get(`/v1/reports/timeseries?metric=leads.created&interval=week&from=${from}&to=${to}`)).body.timeseries.points;
    expect(weekly.filter((point: { value: number }) => point.value > 0).map((point: { start: string }) => point.start)).toEqual(weeks);
  });

  it('answer the summary the README shows for the last 30 days', async () => {
    const { client } = await api.demoOrganization();
    await api.eventsCaughtUp();
    expect((await client.get('/v1/reports/summary')).body).toMatchObject(readmeSummary());
  });
});
