import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMember } from '../organization/member-rules';
import { SmsDeliveryError } from './sender';
import { setSmsSender, type SmsSender } from './sender';
import { useTestApi, type Client } from '../../test/support/api';
import { countDynamoCalls } from '../../test/support/dynamo-calls';
import { ISO_MS } from '../../test/support/fixtures';
import { senderOrganizations } from '../../test/support/sms';

/** How long to wait for the stream consumer and the local carrier, which poll: long enough for a loaded machine. */
const WAIT = { timeout: 10_000 };

const api = useTestApi({ events: true });
const organizationWithSender = senderOrganizations(api);
const UNKNOWN_SMS = 'message_01HZZZZZZZZZZZZZZZZZZZZZZZ';

/** Waits until the local carrier's receipts have settled every message of the organization (none SENT or QUEUED). */
async function settled(client: Client) {
  await vi.waitFor(async () => {
    const { messages } = (await client.get('/v1/sms?limit=100')).body;
    expect(messages.filter((sms: { status: string }) => sms.status === 'SENT' || sms.status === 'QUEUED')).toEqual([]);
  }, WAIT);
}

let restore: SmsSender | undefined;
afterEach(() => {
  if (restore) setSmsSender(restore);
  restore = undefined;
});

describe('GET /v1/sms/{smsId}', () => {
  it('reads back the message POST /v1/sms answered, with its status as it moves, in one Query', async () => {
    const { client, userId, leadId } = await organizationWithSender();
    const { sms } = (await client.post('/v1/sms', { userId, leadId, message: 'On our way' })).body;
    expect(sms).toEqual({ id: expect.stringMatching(/^message_/), direction: 'OUTBOUND', status: 'SENT', body: 'On our way', leadId, userId, messageThreadId: expect.stringMatching(/^thread_/), inquiryId: expect.stringMatching(/^inquiry_/), createdAt: expect.stringMatching(ISO_MS), updatedAt: expect.stringMatching(ISO_MS) });
    // Each status move moves updatedAt: the message comes again to a poller (updatedSince) in its new status.
    await vi.waitFor(async () => expect((await client.get(`/v1/sms/${sms.id}`)).body).toEqual({ sms: { ...sms, status: 'DELIVERED', updatedAt: expect.stringMatching(ISO_MS) } }), WAIT);
    expect((await client.get(`/v1/sms/${sms.id}`)).body.sms.updatedAt > sms.createdAt).toBe(true);
    let calls: string[] = [];
    calls = await countDynamoCalls(() => client.get(`/v1/sms/${sms.id}`));
    expect(calls).toEqual(['QueryCommand']);
    // The inquiry holding the thread shows the same message.
    const { data } = (await client.get(`/v1/inquiries/${sms.inquiryId}`)).body;
    expect(data.id).toBe(sms.messageThreadId);
    expect(data.messages.map((message: { id: string }) => message.id)).toEqual([sms.id]);
  });

  it('shows a message the provider refused as FAILED', async () => {
    const { client, userId, leadId } = await organizationWithSender();
    restore = setSmsSender({
      name: 'refusing',
      send: async () => {
        throw new SmsDeliveryError('SMS provider rejected the message');
      },
    });
    expect((await client.post('/v1/sms', { userId, leadId, message: 'Refused' })).status).toBe(502);
    const { messages } = (await client.get('/v1/sms')).body;
    expect(messages).toEqual([expect.objectContaining({ status: 'FAILED', body: 'Refused', leadId })]);
    expect((await client.get(`/v1/sms/${messages[0].id}`)).body.sms.status).toBe('FAILED');
  });

  it('shows a message still QUEUED while the provider has not answered', async () => {
    const { client, userId, leadId } = await organizationWithSender();
    let seen: { status: number; body: any } | undefined;
    let seenList: { status: number; body: any } | undefined;
    restore = setSmsSender({
      name: 'reads back before answering',
      async send(sms) {
        seen = await client.get(`/v1/sms/${sms.messageId}`);
        seenList = await client.get('/v1/sms?status=QUEUED');
        return { providerMessageId: `eum-${sms.messageId}` };
      },
    });
    expect((await client.post('/v1/sms', { userId, leadId, message: 'Queued first' })).status).toBe(201);
    expect(seen?.status).toBe(200);
    expect(seen?.body.sms).toMatchObject({ status: 'QUEUED', body: 'Queued first' });
    expect(seenList?.body).toMatchObject({ messages: [{ status: 'QUEUED', body: 'Queued first' }], totalCount: 1 });
    // Once the provider answered, it is SENT, and no longer counted QUEUED.
    expect((await client.get('/v1/sms?status=QUEUED')).body).toMatchObject({ messages: [], totalCount: 0 });
    expect((await client.get('/v1/sms?status=SENT')).body).toMatchObject({ messages: [{ body: 'Queued first' }], totalCount: 1 });
  });

  it("answers 404 for an unknown message, a malformed id and another organization's message", async () => {
    const owner = await organizationWithSender();
    const other = await api.organization();
    const { sms } = (await owner.client.post('/v1/sms', { userId: owner.userId, leadId: owner.leadId, message: 'Mine' })).body;
    for (const [client, id] of [[owner.client, UNKNOWN_SMS], [owner.client, 'not-an-id'], [other.client, sms.id]] as const) {
      const res = await client.get(`/v1/sms/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('SMS not found');
    }
  });
});

describe('GET /v1/sms', () => {
  it('lists every message, sent and received, newest first, under messages, with exact counts per filter', async () => {
    const a = await organizationWithSender('+61412345001');
    const other = await a.client.post('/v1/leads', { name: 'Sam Lee', phone: '+61412345002' });
    const sam = other.body.lead.id;
    const first = (await a.client.post('/v1/sms', { userId: a.userId, leadId: a.leadId, message: 'One' })).body.sms;
    const second = (await a.client.post('/v1/sms', { userId: a.userId, leadId: a.leadId, message: 'Two', messageThreadId: first.messageThreadId })).body.sms;
    const third = (await a.client.post('/v1/sms', { userId: a.userId, leadId: sam, message: 'Three' })).body.sms;
    const fourth = (await a.client.post('/v1/sms', { userId: a.userId, leadId: a.leadId, message: 'Four, a new thread' })).body.sms;
    await settled(a.client);

    const all = (await a.client.get('/v1/sms')).body;
    expect(all).toEqual({ messages: [fourth, third, second, first].map((sms) => ({ ...sms, status: 'DELIVERED', updatedAt: expect.stringMatching(ISO_MS) })), totalPages: 1, currentPage: 1, totalCount: 4, nextCursor: null });
    const ids = async (query: string) => {
      const { messages, totalCount } = (await a.client.get(`/v1/sms?${query}`)).body;
      return { ids: messages.map((sms: { id: string }) => sms.id), totalCount };
    };
    expect(await ids(`leadId=${a.leadId}`)).toEqual({ ids: [fourth.id, second.id, first.id], totalCount: 3 });
    expect(await ids(`leadId=${sam}`)).toEqual({ ids: [third.id], totalCount: 1 });
    expect(await ids(`messageThreadId=${first.messageThreadId}`)).toEqual({ ids: [second.id, first.id], totalCount: 2 });
    expect(await ids('status=DELIVERED')).toEqual({ ids: [fourth.id, third.id, second.id, first.id], totalCount: 4 });
    expect(await ids('status=QUEUED')).toEqual({ ids: [], totalCount: 0 });
    expect(await ids(`leadId=${a.leadId}&status=DELIVERED`)).toEqual({ ids: [fourth.id, second.id, first.id], totalCount: 3 });
    expect(await ids(`leadId=${a.leadId}&status=FAILED`)).toEqual({ ids: [], totalCount: 0 });
    expect(await ids(`messageThreadId=${first.messageThreadId}&status=DELIVERED`)).toEqual({ ids: [second.id, first.id], totalCount: 2 });
    expect(await ids(`messageThreadId=${first.messageThreadId}&leadId=${a.leadId}`)).toEqual({ ids: [second.id, first.id], totalCount: 2 });
    // A thread and another lead: nothing matches both.
    expect(await ids(`messageThreadId=${first.messageThreadId}&leadId=${sam}`)).toEqual({ ids: [], totalCount: 0 });
  });

  it('pages with page, limit and cursors, under every filter', async () => {
    const { client, userId, leadId } = await organizationWithSender();
    const first = (await client.post('/v1/sms', { userId, leadId, message: 'm1' })).body.sms;
    for (const n of [2, 3, 4, 5]) await client.post('/v1/sms', { userId, leadId, message: `m${n}`, messageThreadId: first.messageThreadId });
    await settled(client);
    for (const filter of ['', `&leadId=${leadId}`, `&messageThreadId=${first.messageThreadId}`, '&status=DELIVERED', `&leadId=${leadId}&status=DELIVERED`, `&messageThreadId=${first.messageThreadId}&status=DELIVERED`]) {
      const page2 = (await client.get(`/v1/sms?limit=2&page=2${filter}`)).body;
      expect(page2.messages.map((sms: { body: string }) => sms.body), filter).toEqual(['m3', 'm2']);
      expect(page2).toMatchObject({ totalCount: 5, totalPages: 3, currentPage: 2 });
      const walked: string[] = [];
      let cursor: string | null = null;
      do {
        const res: { status: number; body: any } = await client.get(`/v1/sms?limit=2${filter}${cursor ? `&cursor=${cursor}` : ''}`);
        expect(res.status).toBe(200);
        walked.push(...res.body.messages.map((sms: { body: string }) => sms.body));
        cursor = res.body.nextCursor;
      } while (cursor);
      expect(walked, filter).toEqual(['m5', 'm4', 'm3', 'm2', 'm1']);
    }
    // A cursor belongs to its list and filters.
    const { nextCursor } = (await client.get(`/v1/sms?limit=2&leadId=${leadId}&status=DELIVERED`)).body;
    const misused = await client.get(`/v1/sms?limit=2&leadId=${leadId}&status=FAILED&cursor=${nextCursor}`);
    expect(misused.status).toBe(400);
    expect(misused.body.error.code).toBe('INVALID_CURSOR');
  });

  it('reads a single-filter page 1 with one Query and one counter read', async () => {
    const { client, userId, leadId } = await organizationWithSender();
    const { sms } = (await client.post('/v1/sms', { userId, leadId, message: 'Counted' })).body;
    await settled(client);
    for (const query of ['', `?leadId=${leadId}`, `?messageThreadId=${sms.messageThreadId}`, '?status=DELIVERED']) {
      const calls = await countDynamoCalls(() => client.get(`/v1/sms${query}`));
      expect(calls.sort(), query).toEqual(['GetItemCommand', 'QueryCommand']);
    }
    expect(await countDynamoCalls(() => client.get(`/v1/sms?leadId=${leadId}&status=DELIVERED`))).toEqual(['QueryCommand']);
  });

  it("answers an empty list for an unknown lead or thread and for another organization's", async () => {
    const owner = await organizationWithSender();
    const other = await api.organization();
    const { sms } = (await owner.client.post('/v1/sms', { userId: owner.userId, leadId: owner.leadId, message: 'Private' })).body;
    for (const query of [`leadId=${owner.leadId}`, `messageThreadId=${sms.messageThreadId}`, `messageThreadId=${sms.messageThreadId}&status=SENT`, '']) {
      const res = await other.client.get(`/v1/sms?${query}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ messages: [], totalCount: 0 });
    }
  });

  it.each([
    ['leadId=lead_1', 'leadId'],
    ['messageThreadId=thread_x', 'messageThreadId'],
    ['status=READ', 'status'],
    ['limit=500', 'limit'],
    ['direction=OUTBOUND', 'direction'],
  ])('answers 400 naming the parameter for %s', async (query, name) => {
    const { client } = await api.organization();
    const res = await client.get(`/v1/sms?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(name);
  });
});

describe('SMS with a lead entered with only a phone', () => {
  it('sends to it, and its reply is found by phone and listed as RECEIVED', async () => {
    const { client, organizationId } = await api.organization();
    const member = await createMember(organizationId, { role: 'MEMBER', firstName: 'Priya', lastName: 'Sharma', email: 'priya@example.com.au' });
    const NUMBER = '+61277770001';
    expect((await client.patch('/v1/organization', { smsSenderId: NUMBER })).status).toBe(200);
    const lead = (await client.post('/v1/leads', { firstName: 'Caller', phone: '+61412777001' })).body.lead;
    expect(lead.email).toBeNull();
    const sent = await client.post('/v1/sms', { userId: member.user.id, leadId: lead.id, message: 'Returning your call' });
    expect(sent.status).toBe(201);
    const res = await fetch(`${api.url}/local/sms/inbound`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ from: '+61412777001', to: NUMBER, body: 'Thanks, Tuesday works' }) });
    expect(res.status).toBe(202);
    await api.eventsCaughtUp();
    const { messages, totalCount } = (await client.get(`/v1/sms?leadId=${lead.id}`)).body;
    expect(totalCount).toBe(2);
    expect(messages[0]).toEqual({ id: expect.stringMatching(/^message_/), direction: 'INBOUND', status: 'RECEIVED', body: 'Thanks, Tuesday works', leadId: lead.id, userId: null, messageThreadId: sent.body.sms.messageThreadId, inquiryId: sent.body.sms.inquiryId, createdAt: expect.stringMatching(ISO_MS), updatedAt: expect.stringMatching(ISO_MS) });
    expect((await client.get('/v1/sms?status=RECEIVED')).body.totalCount).toBe(1);
    expect((await client.get(`/v1/sms/${messages[0].id}`)).body.sms).toEqual(messages[0]);
  });
});
