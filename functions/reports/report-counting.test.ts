import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { useTestApi, type Client } from '../../test/support/api';
import { created } from '../../test/support/fixtures';
import { sydneyOrganization } from '../../test/support/report-workload';
import { streamRecordsOf as streamRecordsOfApi } from '../../test/support/stream-records';
import { handler as countReports } from './count';
import { reportKeys } from './entity';

// Records are made through the API and counted by the consumer as `npm start` runs it: DynamoDB Local's stream read
// in process, the handler Lambda runs. The read routes are not what is tested here: the day items are read as stored.
const api = useTestApi({ events: true });

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const webform = (submittedAt: string) => ({ formName: 'Contact us', fields: [{ name: 'message', label: 'Message', value: 'Leaking tap' }], submittedAt, pageUrl: 'https://example.com/contact' });

/** An organization's day items as stored, by date: whole (`v`, `updatedAt` too), or only their counters. */
async function dayItems(organizationId: string, { whole = false } = {}): Promise<Record<string, Record<string, unknown>>> {
  const { pk } = reportKeys.reportDay(organizationId, '');
  const { Items = [] } = await dynamo.send(new QueryCommand({ TableName: config.tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, ConsistentRead: true }));
  return Object.fromEntries(
    Items.map(({ pk: _pk, sk, entity: _entity, v, updatedAt, ...counters }) => [
      String(sk).slice('DAY#'.length),
      // An ADD that brought a counter back to 0 leaves the attribute at 0: read as absent, as the routes read it.
      whole ? { v, updatedAt, ...counters } : Object.fromEntries(Object.entries(counters).filter(([, amount]) => amount !== 0)),
    ]),
  );
}

/** Every counter summed over the days: what tests whose records fall on any day (around midnight, say) compare. */
const totals = (days: Record<string, Record<string, unknown>>) => {
  const sums: Record<string, number> = {};
  for (const counters of Object.values(days)) for (const [attribute, amount] of Object.entries(counters)) sums[attribute] = (sums[attribute] ?? 0) + Number(amount);
  return Object.fromEntries(Object.entries(sums).filter(([, amount]) => amount !== 0));
};

const leadFacts = async (organizationId: string, leadId: string) =>
  (await dynamo.send(new GetCommand({ TableName: config.tableName, Key: reportKeys.reportLeadFacts(organizationId, leadId), ConsistentRead: true }))).Item;

const streamRecordsOf = (organizationId: string) => streamRecordsOfApi(api, organizationId);

/** A lead made, asked by web form a few minutes before, then moved on to WON with a value: four counted records. */
async function leadWonAfterInquiry(client: Client) {
  const lead = (await client.post('/v1/leads', { name: 'Ava Chen', email: 'ava@example.com' })).body.lead;
  const inquiry = await client.post('/v1/inquiries', { source: 'WEBFORM', lead: { email: 'ava@example.com' }, createdAt: minutesAgo(4), data: webform(minutesAgo(4)) });
  expect(inquiry.status).toBe(201);
  expect((await client.patch(`/v1/leads/${lead.id}`, { status: 'CONTACTED' })).status).toBe(200);
  expect((await client.patch(`/v1/leads/${lead.id}`, { status: 'WON', value: 1250.5 })).status).toBe(200);
  await api.eventsCaughtUp();
  return lead.id as string;
}

/** A lead's wait from its first inquiry to its move off NEW, in whole seconds rounded up, from its records as the API lists them. */
async function waitedSeconds(client: Client, leadId: string): Promise<number> {
  const [inquiries, activities] = [(await client.get(`/v1/inquiries?leadId=${leadId}`)).body.inquiries, (await client.get(`/v1/leads/${leadId}/activities`)).body.activities];
  const contacted = activities.find((activity: any) => activity.event === 'STATUS_CHANGED' && /^Status changed from NEW /.test(activity.data)).createdAt;
  return Math.ceil((Date.parse(contacted) - Date.parse(inquiries[0].createdAt)) / 1000);
}

describe('the reports’ counting consumer', () => {
  it('counts a lead’s records once, and a replayed batch changes no day item', async () => {
    const { client, organizationId } = await api.organization();
    const leadId = await leadWonAfterInquiry(client);
    const counted = await dayItems(organizationId, { whole: true });
    // Created, now WON with its value, won today; asked by web form (the lead's own inquiry) 4 minutes before its first
    // contact (the move off NEW), a wait kept to the second.
    const waited = await waitedSeconds(client, leadId);
    expect(waited).toBeGreaterThan(240);
    expect(totals(await dayItems(organizationId))).toMatchObject({ lc: 1, st_WON: 1, pv_WON: 125050, w: 1, wv: 125050, ls_WEBFORM: 1, i_WEBFORM: 1, il_WEBFORM: 1, t_GENERAL: 1, rm_WON: 1, [`sl${waited}`]: 1 });
    const facts = await leadFacts(organizationId, leadId);

    const records = await streamRecordsOf(organizationId);
    expect(records.length).toBeGreaterThan(4);
    expect(await countReports({ Records: records })).toEqual({ batchItemFailures: [] });
    // Not a counter moved, not a write made: `v` counts every write of a day item, and `updatedAt` moves with each.
    expect(await dayItems(organizationId, { whole: true })).toEqual(counted);
    expect(await leadFacts(organizationId, leadId)).toEqual(facts);
  });

  it('gives the same day items and facts whatever order a lead’s records arrive in', async () => {
    const source = await api.organization();
    const leadId = await leadWonAfterInquiry(source.client);
    const records = (await streamRecordsOf(source.organizationId)).filter((record) => ['LEAD', 'INQUIRY'].includes(String(record.dynamodb?.NewImage?.entity?.S ?? record.dynamodb?.OldImage?.entity?.S)));
    // Its insert, the inquiry's, and the lead's moves: by the inquiry (its unread count), to CONTACTED, to WON.
    expect(records.map((record) => record.eventName).sort()).toEqual(['INSERT', 'INSERT', 'MODIFY', 'MODIFY', 'MODIFY']);
    const expected = await dayItems(source.organizationId);
    const { v: _v, ...expectedFacts } = (await leadFacts(source.organizationId, leadId))!;
    // The same records as another organization's (each with an eventID of its own), counted one at a time in each order.
    const orders = [[4, 3, 2, 1, 0], [1, 0, 2, 3, 4], [2, 4, 1, 3, 0], [3, 1, 4, 0, 2], [4, 2, 0, 3, 1]];
    for (const order of orders) {
      const { organizationId } = await api.organization();
      const moved = (record: DynamoDBRecord) => JSON.parse(JSON.stringify(record).replaceAll(source.organizationId, organizationId).replace(/"eventID":"([^"]+)"/, `"eventID":"$1-${organizationId}"`)) as DynamoDBRecord;
      for (const index of order) expect(await countReports({ Records: [moved(records[index]!)] })).toEqual({ batchItemFailures: [] });
      expect(await dayItems(organizationId), `order ${order.join(', ')}`).toEqual(expected);
      const { v: _version, ...facts } = (await leadFacts(organizationId, leadId))!;
      expect(JSON.parse(JSON.stringify(facts).replaceAll(organizationId, source.organizationId))).toEqual(expectedFacts);
    }
  });

  it('subtracts a deleted lead: what it and its facts added', async () => {
    const { client, organizationId } = await api.organization();
    const kept = (await client.post('/v1/leads', { name: 'Kept Lead', email: 'kept@example.com' })).body.lead;
    const leadId = await leadWonAfterInquiry(client);
    expect(totals(await dayItems(organizationId))).toMatchObject({ lc: 2, st_NEW: 1, st_WON: 1, w: 1, ls_WEBFORM: 1, rm_NEW: 1, rm_WON: 1, [`sl${await waitedSeconds(client, leadId)}`]: 1 });

    expect((await client.delete(`/v1/leads/${leadId}`)).status).toBe(200);
    await api.eventsCaughtUp();
    // Only the kept lead is left of the leads' figures; the inquiry, a record of its own, still counts on its day.
    expect(totals(await dayItems(organizationId))).toEqual({ lc: 1, st_NEW: 1, rm_NEW: 1, i_WEBFORM: 1, il_WEBFORM: 1, t_GENERAL: 1 });
    expect(await leadFacts(organizationId, leadId)).toBeUndefined();
    // The kept lead's own facts stay: made NEW, never asked or contacted.
    const keptFacts = await leadFacts(organizationId, kept.id);
    expect(keptFacts).toMatchObject({ createdAt: kept.createdAt, maxStage: 0 });
    expect(keptFacts?.firstInquiryAt).toBeUndefined();
  });

  it('takes a lead’s first inquiry to be the first it started: a form after the organization texted it first', async () => {
    const { client, organizationId, memberId } = await sydneyOrganization(api);
    expect((await client.patch('/v1/organization', { smsSenderId: '+61299977990' })).status).toBe(200);
    const lead = await created(client, '/v1/leads', 'lead', { name: 'Ned Ray', phone: '+61412345501', email: 'ned@example.com' });
    await created(client, '/v1/sms', 'sms', { userId: memberId, leadId: lead.id, message: 'Hi Ned, are you still after a quote?' });
    expect((await client.post('/v1/inquiries', { source: 'WEBFORM', lead: { email: 'ned@example.com' }, data: webform(minutesAgo(0)) })).status).toBe(201);
    await api.eventsCaughtUp();
    // The thread the member's text opened is the organization's inquiry (and the lead's first record of one); the form
    // is the lead's own first, which gives its source. The text came before it, so no contact answers it yet.
    const counted = totals(await dayItems(organizationId));
    expect(counted).toMatchObject({ lc: 1, i_SMS: 1, ib_SMS: 1, i_WEBFORM: 1, il_WEBFORM: 1, ls_WEBFORM: 1 });
    expect([counted.ls_SMS, counted.il_SMS, counted.ia, Object.keys(counted).filter((attribute) => attribute.startsWith('sl'))]).toEqual([undefined, undefined, undefined, []]);
    expect(await leadFacts(organizationId, lead.id)).toMatchObject({ firstInquirySource: 'WEBFORM', contactTimes: [expect.any(String)] });
  });

  it('counts a call the agent made to a lead as the organization’s, never as the lead’s first inquiry or source', async () => {
    const { client, organizationId } = await sydneyOrganization(api);
    const call = (phone: string, direction: 'AI_TO_LEAD' | 'LEAD_TO_AI') => client.post('/v1/inquiries', { source: 'CALL', lead: { phone }, data: { summary: 'Followed up the quote.', direction } });
    // Called by the agent and nothing else: a lead with no source. Called, then writing in: the form is its first.
    const calledOnly = await created(client, '/v1/leads', 'lead', { name: 'Ivy Tran', phone: '+61412345601' });
    const calledThenWrote = await created(client, '/v1/leads', 'lead', { name: 'Max Lee', phone: '+61412345602', email: 'max@example.com' });
    expect((await call('+61412345601', 'AI_TO_LEAD')).status).toBe(201);
    expect((await call('+61412345602', 'AI_TO_LEAD')).status).toBe(201);
    expect((await client.post('/v1/inquiries', { source: 'WEBFORM', lead: { email: 'max@example.com' }, data: webform(minutesAgo(0)) })).status).toBe(201);
    await api.eventsCaughtUp();
    const counted = totals(await dayItems(organizationId));
    expect(counted).toMatchObject({ lc: 2, i_CALL: 2, ib_CALL: 2, il_WEBFORM: 1, ls_WEBFORM: 1 });
    expect([counted.il_CALL, counted.ls_CALL]).toEqual([undefined, undefined]);
    expect((await leadFacts(organizationId, calledOnly.id))?.firstInquirySource).toBeUndefined();
    expect(await leadFacts(organizationId, calledThenWrote.id)).toMatchObject({ firstInquirySource: 'WEBFORM' });
    // A call the lead made is its own.
    expect((await call('+61412345601', 'LEAD_TO_AI')).status).toBe(201);
    await api.eventsCaughtUp();
    expect(totals(await dayItems(organizationId))).toMatchObject({ i_CALL: 3, ib_CALL: 2, il_CALL: 1, ls_CALL: 1 });
    expect(await leadFacts(organizationId, calledOnly.id)).toMatchObject({ firstInquirySource: 'CALL' });
  });

  it('never counts one organization’s records in another’s day items', async () => {
    const a = await api.organization();
    const b = await api.organization();
    await a.client.post('/v1/leads', { name: 'Lead One', email: 'one@example.com' });
    await a.client.post('/v1/leads', { name: 'Lead Two', email: 'two@example.com' });
    expect((await b.client.post('/v1/inquiries', { source: 'WEBFORM', lead: { email: 'three@example.com' }, data: webform(minutesAgo(1)) })).status).toBe(201);
    await api.eventsCaughtUp();
    expect(totals(await dayItems(a.organizationId))).toEqual({ lc: 2, st_NEW: 2, rm_NEW: 2 });
    expect(totals(await dayItems(b.organizationId))).toEqual({ lc: 1, st_NEW: 1, rm_NEW: 1, ls_WEBFORM: 1, i_WEBFORM: 1, il_WEBFORM: 1, t_GENERAL: 1 });
  });

  it('puts a record on its local day in the organization’s timezone, across the end of daylight saving', async () => {
    const sydney = await api.organization();
    expect((await sydney.client.patch('/v1/organization', { timezone: 'Australia/Sydney' })).status).toBe(200);
    const utc = await api.organization();
    for (const { client } of [sydney, utc]) {
      // 00:30 on 5 April in Sydney (+11), and 23:30 on 5 April (+10, daylight saving over): an offset read as +11 all day would put the second on the 6th.
      for (const [createdAt, email] of [['2026-04-04T13:30:00.000Z', 'early@example.com'], ['2026-04-05T13:30:00.000Z', 'late@example.com']]) {
        expect((await client.post('/v1/inquiries', { source: 'WEBFORM', lead: { email }, createdAt, data: webform(createdAt!) })).status).toBe(201);
      }
    }
    await api.eventsCaughtUp();
    const inquiriesByDay = (days: Record<string, Record<string, unknown>>) => Object.fromEntries(Object.entries(days).flatMap(([day, counters]) => (counters.i_WEBFORM ? [[day, counters.i_WEBFORM]] : [])));
    expect(inquiriesByDay(await dayItems(sydney.organizationId))).toEqual({ '2026-04-05': 2 });
    expect(inquiriesByDay(await dayItems(utc.organizationId))).toEqual({ '2026-04-04': 1, '2026-04-05': 1 });
  });
});
