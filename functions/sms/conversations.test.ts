import { describe, expect, it } from 'vitest';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { leadKeys } from '../leads/entity';
import { createMember } from '../organization/member-rules';
import { sentAsAClientRetries, useTestApi, type Client } from '../../test/support/api';
import { countDynamoCalls } from '../../test/support/dynamo-calls';
import { ISO_MS } from '../../test/support/fixtures';
import { senderOrganizations } from '../../test/support/sms';

const api = useTestApi({ events: true });
const organizationWithSender = senderOrganizations(api);

let numbers = 0;

/** An organization with its own SMS number, one member, and a lead with a phone; `reply` texts the business as that lead. */
async function organizationWithNumber() {
  const number = `+612999901${String(++numbers).padStart(2, '0')}`;
  const sender = await organizationWithSender();
  expect((await sender.client.patch('/v1/organization', { smsSenderId: number })).status).toBe(200);
  const reply = async (body: string, from = '+61412345001') => {
    const res = await fetch(`${api.url}/local/sms/inbound`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ from, to: number, body }) });
    expect(res.status).toBe(202);
    await api.eventsCaughtUp();
  };
  return { ...sender, reply };
}

const memberIdOf = async (client: Client, userId: string): Promise<number> => {
  const { members } = (await client.get('/v1/organization/members?limit=100')).body;
  return members.find((member: { user: { id: string } }) => member.user.id === userId).id;
};

const newLead = async (client: Client, phone: string, name = 'Noah Williams') => (await client.post('/v1/leads', { name, phone })).body.lead.id as string;

describe('GET /v1/conversations', () => {
  it('shows a lead’s latest text, sent or received, with the member who sent it, its unread threads, and nothing for a lead never texted', async () => {
    const { client, userId, leadId, reply } = await organizationWithNumber();
    await newLead(client, '+61412345999');
    expect((await client.get('/v1/conversations')).body).toEqual({ conversations: [], totalPages: 0, currentPage: 1, totalCount: 0, nextCursor: null });

    const { sms } = (await client.post('/v1/sms', { userId, leadId, message: 'Can we come at 10?' })).body;
    const memberId = await memberIdOf(client, userId);
    expect((await client.get('/v1/conversations')).body).toEqual({
      conversations: [{ leadId, lastMessage: { id: sms.id, direction: 'OUTBOUND', body: 'Can we come at 10?', at: sms.createdAt, memberId, inquiryId: sms.inquiryId }, unreadCount: 0, assignedMemberId: null, status: 'OPEN' }],
      totalPages: 1,
      currentPage: 1,
      totalCount: 1,
      nextCursor: null,
    });

    await reply('Yes, 10 works');
    const [conversation] = (await client.get('/v1/conversations')).body.conversations;
    expect(conversation).toEqual({ leadId, lastMessage: { id: expect.stringMatching(/^message_/), direction: 'INBOUND', body: 'Yes, 10 works', at: expect.stringMatching(ISO_MS), memberId: null, inquiryId: sms.inquiryId }, unreadCount: 1, assignedMemberId: null, status: 'OPEN' });
    expect(conversation.lastMessage.at >= sms.createdAt).toBe(true);
    // The same message GET /v1/sms/{smsId} reads.
    expect((await client.get(`/v1/sms/${conversation.lastMessage.id}`)).body.sms).toMatchObject({ direction: 'INBOUND', body: 'Yes, 10 works', leadId });

    // Read, the thread no longer counts; the latest text stays.
    const { inquiries } = (await client.get(`/v1/inquiries?leadId=${leadId}`)).body;
    expect((await client.patch(`/v1/inquiries/${inquiries[0].id}`, { isRead: true })).status).toBe(200);
    expect((await client.get('/v1/conversations')).body.conversations).toEqual([{ ...conversation, unreadCount: 0 }]);
  });

  it('lists one row per lead, the latest text first, paged by page and by cursor with an exact totalCount', async () => {
    const { client, userId, leadId } = await organizationWithSender();
    const second = await newLead(client, '+61412345002', 'Ava Brown');
    const third = await newLead(client, '+61412345003', 'Liam Smith');
    for (const [lead, text] of [[leadId, 'One'], [second, 'Two'], [third, 'Three'], [leadId, 'Four']] as const) {
      expect((await client.post('/v1/sms', { userId, leadId: lead, message: text })).status).toBe(201);
    }
    const all = (await client.get('/v1/conversations')).body;
    expect(all.conversations.map((row: { leadId: string; lastMessage: { body: string } }) => [row.leadId, row.lastMessage.body])).toEqual([
      [leadId, 'Four'],
      [third, 'Three'],
      [second, 'Two'],
    ]);
    expect(all.totalCount).toBe(3);

    const first = (await client.get('/v1/conversations?limit=2')).body;
    expect(first.conversations.map((row: { leadId: string }) => row.leadId)).toEqual([leadId, third]);
    expect([first.totalCount, first.totalPages]).toEqual([3, 2]);
    const byPage = (await client.get('/v1/conversations?limit=2&page=2')).body;
    expect(byPage.conversations.map((row: { leadId: string }) => row.leadId)).toEqual([second]);
    expect(byPage.nextCursor).toBeNull();
    const byCursor = (await client.get(`/v1/conversations?limit=2&cursor=${encodeURIComponent(first.nextCursor)}`)).body;
    expect(byCursor.conversations).toEqual(byPage.conversations);
    // A cursor is bound to its filters: the same cursor with another filter is refused.
    const other = await client.get(`/v1/conversations?limit=2&status=OPEN&cursor=${encodeURIComponent(first.nextCursor)}`);
    expect([other.status, other.body.error.code]).toEqual([400, 'INVALID_CURSOR']);
  });

  it('filters by unread, assigned member and status, each alone and together, counted exactly', async () => {
    const { client, organizationId, userId, leadId, reply } = await organizationWithNumber();
    const won = await newLead(client, '+61412345004', 'Mia Jones');
    const assigned = await newLead(client, '+61412345005', 'Jack Taylor');
    const other = await createMember(organizationId, { role: 'MEMBER', firstName: 'Sam', lastName: 'Lee', email: 'sam@example.com.au' });
    for (const lead of [leadId, won, assigned]) expect((await client.post('/v1/sms', { userId, leadId: lead, message: 'Hello' })).status).toBe(201);
    await reply('Yes please');
    expect((await client.patch(`/v1/leads/${won}`, { status: 'WON' })).status).toBe(200);
    expect((await client.patch(`/v1/leads/${assigned}`, { assignedMemberId: other.id })).status).toBe(200);

    const leadsOf = async (query: string) => {
      const { body } = await client.get(`/v1/conversations?${query}`);
      return [body.totalCount, body.conversations.map((row: { leadId: string }) => row.leadId).sort()];
    };
    expect(await leadsOf('unread=true')).toEqual([1, [leadId]]);
    expect(await leadsOf('unread=false')).toEqual([2, [won, assigned].sort()]);
    expect(await leadsOf('status=CLOSED')).toEqual([1, [won]]);
    expect(await leadsOf('status=OPEN')).toEqual([2, [leadId, assigned].sort()]);
    expect(await leadsOf(`assignedMemberId=${other.id}`)).toEqual([1, [assigned]]);
    expect(await leadsOf(`assignedMemberId=${other.id}&status=CLOSED`)).toEqual([0, []]);
    expect(await leadsOf(`assignedMemberId=${other.id}&status=OPEN&unread=false`)).toEqual([1, [assigned]]);
    // A member nobody's leads are assigned to: none, not an error.
    expect(await leadsOf(`assignedMemberId=${other.id + 100}`)).toEqual([0, []]);
    // LOST is CLOSED too; reopened, it is OPEN again; unassigned, it leaves the member's list.
    expect((await client.patch(`/v1/leads/${leadId}`, { status: 'LOST', lostReason: 'PRICE' })).status).toBe(200);
    expect(await leadsOf('status=CLOSED')).toEqual([2, [leadId, won].sort()]);
    expect((await client.patch(`/v1/leads/${leadId}`, { status: 'NEW' })).status).toBe(200);
    expect((await client.patch(`/v1/leads/${won}`, { status: 'QUOTED' })).status).toBe(200);
    expect((await client.patch(`/v1/leads/${assigned}`, { assignedMemberId: null })).status).toBe(200);
    expect(await leadsOf('status=CLOSED')).toEqual([0, []]);
    expect(await leadsOf(`assignedMemberId=${other.id}`)).toEqual([0, []]);
  });

  it.each([
    ['unread=TRUE', 'unread'],
    ['unread=1', 'unread'],
    ['unread=', 'unread'],
    ['status=open', 'status'],
    ['status=OPENED', 'status'],
    ['assignedMemberId=0', 'assignedMemberId'],
    ['assignedMemberId=01', 'assignedMemberId'],
    ['assignedMemberId=1.5', 'assignedMemberId'],
    ['assignedMemberId=abc', 'assignedMemberId'],
    ['limit=101', 'limit'],
    ['expand=leads', 'expand'],
    ['expand=', 'expand'],
    ['updatedSince=2026-11-01T00:00:00.000Z', 'updatedSince'],
    ['leadId=lead_01JCZ3V7Q8K2M4N6P8R0S2T4V6', 'leadId'],
  ])('answers 400 naming the parameter for %s, reading nothing', async (query, field) => {
    const { client } = await api.organization();
    let status = 0;
    let error: { code: string; details: { path: string }[] } | undefined;
    const calls = await countDynamoCalls(async () => {
      const res = await client.get(`/v1/conversations?${query}`);
      ({ status, error } = { status: res.status, error: res.body.error });
    });
    expect(status).toBe(400);
    expect(error?.code).toBe('VALIDATION_ERROR');
    expect(error?.details.map((detail) => detail.path)).toContain(field);
    expect(calls).toEqual([]);
  });

  it('adds each row’s lead summary with expand=lead, in the same reads, and only then', async () => {
    const { client, userId, leadId } = await organizationWithSender();
    expect((await client.post('/v1/sms', { userId, leadId, message: 'Hi Olivia' })).status).toBe(201);
    const [plain] = (await client.get('/v1/conversations')).body.conversations;
    expect(plain).not.toHaveProperty('lead');
    let expanded: { lead: unknown } | undefined;
    const calls = await countDynamoCalls(async () => {
      [expanded] = (await client.get('/v1/conversations?expand=lead')).body.conversations;
    });
    expect(expanded).toEqual({ ...plain, lead: { id: leadId, firstName: 'Olivia', lastName: 'Nguyen', email: 'olivia@example.com.au', phone: '+61412345001', businessName: null } });
    expect(calls).toEqual(['QueryCommand', 'BatchGetItemCommand', 'BatchGetItemCommand']);
  });

  it('leaves out a deleted lead’s conversation, and keeps the others', async () => {
    const { client, userId, leadId } = await organizationWithSender();
    const kept = await newLead(client, '+61412345006', 'Zoe King');
    for (const lead of [leadId, kept]) expect((await client.post('/v1/sms', { userId, leadId: lead, message: 'Hi' })).status).toBe(201);
    expect((await client.delete(`/v1/leads/${leadId}`)).status).toBe(200);
    const { body } = await client.get('/v1/conversations');
    expect([body.totalCount, body.conversations.map((row: { leadId: string }) => row.leadId)]).toEqual([1, [kept]]);
  });

  it('leaves out a conversation whose lead is gone though its item stayed (a write that raced the delete)', async () => {
    const { client, organizationId, userId, leadId } = await organizationWithSender();
    const kept = await newLead(client, '+61412345008', 'Ruby Hall');
    for (const lead of [leadId, kept]) expect((await client.post('/v1/sms', { userId, leadId: lead, message: 'Hi' })).status).toBe(201);
    await dynamo.send(new DeleteCommand({ TableName: config.tableName, Key: leadKeys.lead(organizationId, leadId) }));
    const { body } = await client.get('/v1/conversations');
    expect([body.totalCount, body.conversations.map((row: { leadId: string }) => row.leadId)]).toEqual([1, [kept]]);
  });

  it('shows one of two texts sent to a lead at once, the one recorded last, then the next one sent', async () => {
    const { client, userId, leadId } = await organizationWithSender();
    const sent = await Promise.all(['First at once', 'Second at once'].map((message, i) => sentAsAClientRetries(() => client.post('/v1/sms', { userId, leadId, message }, { headers: { 'Idempotency-Key': `race-${i}` } }))));
    expect(sent.map((res) => res.status)).toEqual([201, 201]);
    const { conversations } = (await client.get('/v1/conversations')).body;
    expect(conversations).toHaveLength(1);
    expect(sent.map((res) => res.body.sms.id)).toContain(conversations[0].lastMessage.id);
    const { sms } = (await client.post('/v1/sms', { userId, leadId, message: 'Then this' })).body;
    expect((await client.get('/v1/conversations')).body.conversations.map((row: { lastMessage: { id: string } }) => row.lastMessage.id)).toEqual([sms.id]);
  });

  it('reads the conversations in one Query and their leads and senders in one BatchGetItem each', async () => {
    const { client, userId, leadId } = await organizationWithSender();
    const second = await newLead(client, '+61412345007', 'Ella White');
    for (const lead of [leadId, second]) expect((await client.post('/v1/sms', { userId, leadId: lead, message: 'Hi' })).status).toBe(201);
    const calls = await countDynamoCalls(() => client.get('/v1/conversations'));
    expect(calls).toEqual(['QueryCommand', 'BatchGetItemCommand', 'BatchGetItemCommand']);
  });

  it('reads no member when every row’s latest text is the customer’s', async () => {
    const { client, reply } = await organizationWithNumber();
    await reply('Are you free Friday?', '+61412345077');
    const calls = await countDynamoCalls(async () => {
      const { conversations } = (await client.get('/v1/conversations')).body;
      expect(conversations.map((row: { lastMessage: { direction: string; memberId: number | null } }) => [row.lastMessage.direction, row.lastMessage.memberId])).toEqual([['INBOUND', null]]);
    });
    expect(calls).toEqual(['QueryCommand', 'BatchGetItemCommand']);
  });
});
