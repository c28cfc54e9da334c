import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { admin } from '../../test/support/admin-cli';
import { useTestApi, type Client } from '../../test/support/api';
import { created } from '../../test/support/fixtures';
import { holdWrite } from '../../test/support/interleave';
import { dateAfter, everyRecord, localDate, sydneyOrganization, webForm, workload } from '../../test/support/report-workload';
import { reportKeys } from './entity';
import { rebuildReports } from './rebuild';

/** A UTC organization's local date of an instant. */
const localDayOf = (at: string) => at.slice(0, 10);

// `npm run admin -- reports rebuild` against this file's table, after records made through the API and counted by the
// consumer as `npm start` runs it; the day items and lead facts are read and doctored as stored.
const api = useTestApi({ events: true });

/** An organization's day items as stored, by date: their counters (0 read as absent), or whole with `v`. */
async function dayItems(organizationId: string, { whole = false } = {}): Promise<Record<string, Record<string, unknown>>> {
  const { pk } = reportKeys.reportDay(organizationId, '');
  const { Items = [] } = await dynamo.send(new QueryCommand({ TableName: config.tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, ConsistentRead: true }));
  return Object.fromEntries(
    Items.map(({ pk: _pk, sk, entity: _entity, v, updatedAt, ...counters }) => [String(sk).slice('DAY#'.length), whole ? { v, updatedAt, ...counters } : Object.fromEntries(Object.entries(counters).filter(([, amount]) => amount !== 0))]),
  );
}

/** Each lead's facts item as stored, without its version. */
async function leadFacts(client: Client, organizationId: string): Promise<Record<string, unknown>> {
  const leads = await everyRecord(client, '/v1/leads', 'leads');
  const items = await Promise.all(leads.map(async (lead) => (await dynamo.send(new GetCommand({ TableName: config.tableName, Key: reportKeys.reportLeadFacts(organizationId, lead.id), ConsistentRead: true }))).Item));
  return Object.fromEntries(leads.map((lead, i) => [lead.id, items[i] && (({ v: _v, ...facts }) => facts)(items[i])]));
}

async function rebuild(organizationId: string, ...options: string[]) {
  const { code, stdout, stderr } = await admin('reports', 'rebuild', '--org', organizationId, ...options);
  expect(code, stderr).toBe(0);
  expect(stdout.trim().split('\n')).toHaveLength(1);
  return JSON.parse(stdout);
}

/** The mixed workload, and a lead entered already QUOTED (contacted when it was made), all counted. */
async function counted() {
  const organization = await sydneyOrganization(api);
  const { client, memberId } = organization;
  await workload(api, client, memberId);
  const quoted = await created(client, '/v1/inquiries', 'inquiry', webForm('ivy@example.com', new Date(Date.now() - 600_000).toISOString()));
  await created(client, '/v1/leads', 'lead', { name: 'Jo Kent', email: 'jo@example.com', status: 'QUOTED', value: 990 });
  expect((await client.patch(`/v1/leads/${quoted.leadId}`, { status: 'QUOTED', value: 2500 })).status).toBe(200);
  await api.eventsCaughtUp();
  return organization;
}

describe('npm run admin -- reports rebuild', () => {
  // One counted workload for the first two cases: the first writes nothing, and the second puts back what it doctors
  // (its own rebuild, then a recount that changes nothing, leave it exact).
  let workloadCounted: ReturnType<typeof counted> | undefined;
  const countedOnce = () => (workloadCounted ??= counted());

  it('changes nothing after a mixed workload: counting the records again gives what the stream counted', async () => {
    const { client, organizationId } = await countedOnce();
    const [days, facts, summary] = [await dayItems(organizationId, { whole: true }), await leadFacts(client, organizationId), (await client.get('/v1/reports/summary')).body.summary];
    expect(Object.keys(days).length).toBeGreaterThan(5);

    const report = await rebuild(organizationId);
    expect(report).toMatchObject({ organizationId, timezone: 'Australia/Sydney', dryRun: false, changes: [], daysChanged: 0, factsRewritten: 0, runAgain: [] });
    expect(report.daysUnchanged).toBe(Object.keys(days).length);
    // Not an item written: every day item keeps its version and time.
    expect(await dayItems(organizationId, { whole: true })).toEqual(days);
    expect(await leadFacts(client, organizationId)).toEqual(facts);
    expect((await client.get('/v1/reports/summary')).body.summary).toEqual({ ...summary, asOf: expect.any(String) });
  });

  it('restores deleted and doctored counters and lead facts exactly, and says what it changed; --dry-run only says it', async () => {
    const { client, organizationId } = await countedOnce();
    const [days, facts, summary] = [await dayItems(organizationId), await leadFacts(client, organizationId), (await client.get('/v1/reports/summary')).body.summary];
    const [today, earlier] = [Object.keys(days).sort().at(-1)!, Object.keys(days).sort()[0]!];
    const [deletedFacts, doctoredFacts] = Object.keys(facts);
    const table = config.tableName;
    await dynamo.send(new DeleteCommand({ TableName: table, Key: reportKeys.reportDay(organizationId, today) }));
    await dynamo.send(new UpdateCommand({ TableName: table, Key: reportKeys.reportDay(organizationId, earlier), UpdateExpression: 'SET lc = :wrong, cm = :wrong ADD v :one', ExpressionAttributeValues: { ':wrong': 7, ':one': 1 } }));
    await dynamo.send(new DeleteCommand({ TableName: table, Key: reportKeys.reportLeadFacts(organizationId, deletedFacts!) }));
    await dynamo.send(new UpdateCommand({ TableName: table, Key: reportKeys.reportLeadFacts(organizationId, doctoredFacts!), UpdateExpression: 'SET maxStage = :wrong', ExpressionAttributeValues: { ':wrong': ((facts[doctoredFacts!] as { maxStage: number }).maxStage + 1) % 5 } }));
    const doctored = await dayItems(organizationId, { whole: true });

    // What the counters should be, by day and metric, from what each holds now.
    const expected = [
      ...Object.entries(days[today]!).map(([attribute, amount]) => ({ day: today, attribute, before: 0, after: amount })),
      ...['lc', 'cm'].map((attribute) => ({ day: earlier, attribute, before: 7, after: days[earlier]![attribute] ?? 0 })),
    ].filter(({ before, after }) => before !== after);
    const dryRun = await rebuild(organizationId, '--dry-run');
    expect(dryRun).toMatchObject({ dryRun: true, daysChanged: 2, daysUnchanged: Object.keys(days).length - 2, factsRewritten: 2 });
    expect(dryRun.changes).toHaveLength(expected.length);
    expect(dryRun.changes.find((change: any) => change.day === earlier && change.metric === 'leads.created')).toEqual({ day: earlier, metric: 'leads.created', before: 7, after: days[earlier]!.lc ?? 0 });
    // Today's item deleted: each of its counters is named, from nothing to what it held (money as decimals).
    expect(dryRun.changes.filter((change: any) => change.day === today).map((change: any) => [change.before, change.after > 0])).toEqual(expected.filter(({ day }) => day === today).map(() => [0, true]));
    expect(dryRun.changes).toContainEqual({ day: today, metric: 'sms.optOuts', before: 0, after: 1 });
    expect(dryRun.said).toBe(`2 days changed, ${Object.keys(days).length - 2} unchanged, 2 lead facts rewritten (dry run: nothing written)`);
    expect(await dayItems(organizationId, { whole: true })).toEqual(doctored);

    const report = await rebuild(organizationId);
    expect(report).toEqual({ ...dryRun, dryRun: false, runAgain: [], said: `2 days changed, ${Object.keys(days).length - 2} unchanged, 2 lead facts rewritten` });
    expect(await dayItems(organizationId)).toEqual(days);
    expect(await leadFacts(client, organizationId)).toEqual(facts);
    expect((await client.get('/v1/reports/summary')).body.summary).toEqual({ ...summary, asOf: expect.any(String) });

    // The consumer counts on from what the rebuild wrote: the next lead and its first inquiry count once.
    await created(client, '/v1/inquiries', 'inquiry', webForm('kim@example.com', new Date().toISOString()));
    await api.eventsCaughtUp();
    const after = (await client.get('/v1/reports/summary')).body.summary;
    expect([after.leads.created, after.leads.bySource.WEBFORM, after.inquiries.total]).toEqual([summary.leads.created + 1, summary.leads.bySource.WEBFORM + 1, summary.inquiries.total + 1]);
    expect((await rebuild(organizationId)).changes).toEqual([]);
  });

  it('changes nothing of the demo organization, whose leads were entered with their statuses and earlier dates', async () => {
    const { client, organizationId } = await api.organization({ demo: true });
    await api.eventsCaughtUp();
    const days = await dayItems(organizationId, { whole: true });
    // A lead entered already past NEW was contacted when it was made, by the stream's count and by the records'.
    expect(await rebuild(organizationId)).toMatchObject({ changes: [], daysChanged: 0, factsRewritten: 0 });
    expect(await dayItems(organizationId, { whole: true })).toEqual(days);
    // The summary's default 30 days count exactly the demo's leads made on those local days.
    const today = localDate(new Date().toISOString());
    const recent = (await everyRecord(client, '/v1/leads', 'leads')).filter((lead) => localDate(lead.createdAt) >= dateAfter(today, -29));
    expect(recent.length).toBeGreaterThanOrEqual(8);
    expect((await client.get('/v1/reports/summary')).body.summary.leads.created).toBe(recent.length);
  });

  // The day the rebuild rewrites either was not stored (its write is on condition it still is not) or was, doctored
  // (on condition of the version read): either way the consumer's increment meanwhile must not be written over.
  it.each([
    ['deleted', { wrong: 0 }],
    ['stored, with a wrong count', { wrong: 7 }],
  ] as const)('counts again when the consumer writes a day it is rewriting, the day %s, and ends exact', async (_case, { wrong }) => {
    const { client, organizationId } = await api.organization();
    await created(client, '/v1/inquiries', 'inquiry', webForm('lee@example.com', new Date().toISOString()));
    await api.eventsCaughtUp();
    const today = Object.keys(await dayItems(organizationId))[0]!;
    const Key = reportKeys.reportDay(organizationId, today);
    if (wrong === 0) await dynamo.send(new DeleteCommand({ TableName: config.tableName, Key }));
    else await dynamo.send(new UpdateCommand({ TableName: config.tableName, Key, UpdateExpression: 'SET lc = :wrong ADD v :one', ExpressionAttributeValues: { ':wrong': wrong, ':one': 1 } }));

    // The rebuild has read everything and is about to write the day back when the consumer counts a new lead into it.
    const hold = holdWrite(/"entity":"REPORT_DAY"/);
    const rebuilt = rebuildReports(organizationId);
    await hold.reached;
    await created(client, '/v1/leads', 'lead', { name: 'Max Ford', email: 'max@example.com' });
    await api.eventsCaughtUp();
    hold.release();

    const report = await rebuilt;
    expect(report).toMatchObject({ daysChanged: 1, runAgain: [] });
    expect(report.changes).toContainEqual({ day: today, metric: 'leads.created', before: wrong, after: 1 });
    // Both leads counted, the one the consumer added while the rebuild waited too: a recount finds nothing to change.
    expect((await client.get('/v1/reports/summary')).body.summary.leads.created).toBe(2);
    expect((await rebuild(organizationId)).changes).toEqual([]);
  });

  it('counts money to the cent, through the consumer and through a rebuild: a $19.99 job is $19.99', async () => {
    const { client, organizationId } = await api.organization();
    // 19.99 is no binary fraction: 19.99 × 100 is 1998.9999999999998, which only rounding makes 1999 cents.
    const lead = await created(client, '/v1/leads', 'lead', { name: 'Pia Lowe', email: 'pia@example.com', value: 19.99 });
    expect((await client.patch(`/v1/leads/${lead.id}`, { status: 'WON' })).status).toBe(200);
    await api.eventsCaughtUp();
    const money = async () => {
      const { summary } = (await client.get('/v1/reports/summary')).body;
      return [summary.leads.pipelineValue.WON, summary.leads.won.value];
    };
    expect(await money()).toEqual([19.99, 19.99]);

    const days = Object.keys(await dayItems(organizationId));
    for (const day of days) await dynamo.send(new DeleteCommand({ TableName: config.tableName, Key: reportKeys.reportDay(organizationId, day) }));
    const report = await rebuild(organizationId);
    expect(report.changes).toContainEqual({ day: localDayOf(lead.createdAt), metric: 'leads.pipelineValue.WON', before: 0, after: 19.99 });
    expect(await money()).toEqual([19.99, 19.99]);
  });

  it('names the organization it needs, and refuses --dry-run on other commands', async () => {
    expect((await admin('reports', 'rebuild')).stderr).toMatch(/^--org is required/);
    expect((await admin('reports', 'rebuild', '--org', 'org_01JA0000000000000000000000')).stderr).toMatch(/^No organization org_01JA0000000000000000000000 in this table/);
    expect((await admin('key', 'list', '--org', 'org_01JA0000000000000000000000', '--dry-run')).stderr).toMatch(/^--dry-run is an option of reports rebuild only/);
  });
});
