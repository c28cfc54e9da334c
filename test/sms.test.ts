import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { config } from '../shared/config';
import { dynamo } from '../shared/dynamo';
import { keys } from '../shared/entities/keys';
import { SmsDeliveryError } from '../shared/errors';
import { createInquiry } from '../shared/repositories/inquiries';
import { createMember } from '../shared/domain/members';
import { Inquiry } from '../shared/schemas/inquiries';
import { setSmsSender, smsSender, type SmsSender } from '../shared/sms/sender';
import { useTestApi, type Client } from './support/api';
import { countDynamoCalls } from './support/dynamo-calls';
import { ISO_MS } from './support/fixtures';

const api = useTestApi();
const UNKNOWN_LEAD = 'lead_01HZZZZZZZZZZZZZZZZZZZZZZZ';

interface Sender {
  client: Client;
  organizationId: string;
  userId: string;
  leadId: string;
}

/** An organization with one member (and so one user) and one lead with a phone. */
async function organizationWithSender(): Promise<Sender> {
  const { client, organizationId } = await api.organization();
  const member = await createMember(organizationId, { role: 'MEMBER', firstName: 'Priya', lastName: 'Sharma', email: 'priya@example.com.au' });
  const lead = await client.post('/v1/leads', { name: 'Olivia Nguyen', email: 'olivia@example.com.au', phone: '+61412345001' });
  return { client, organizationId, userId: member.user.id, leadId: lead.body.lead.id };
}

async function inquiriesOf(client: Client, leadId: string) {
  return (await client.get(`/v1/inquiries?leadId=${leadId}&limit=100`)).body;
}

async function leadOf(client: Client, leadId: string) {
  return (await client.get('/v1/leads?limit=100')).body.leads.find((lead: { id: string }) => lead.id === leadId);
}

async function threadOf(client: Client, leadId: string): Promise<{ inquiryId: string; threadId: string }> {
  const [inquiry] = (await client.get(`/v1/inquiries?leadId=${leadId}&source=SMS`)).body.inquiries;
  return { inquiryId: inquiry.id, threadId: inquiry.sourceId };
}

const failingSender: SmsSender = {
  name: 'failing',
  send: async () => {
    throw new SmsDeliveryError('SMS provider rejected the message');
  },
};

let restore: SmsSender | undefined;
afterEach(() => {
  if (restore) setSmsSender(restore);
  restore = undefined;
});

describe('POST /v1/sms without messageThreadId', () => {
  it('summarises a long message without splitting an emoji in two', async () => {
    const { client, userId, leadId } = await organizationWithSender();
    expect((await client.post('/v1/sms', { userId, leadId, message: '😀'.repeat(300) })).status).toBe(201);
    const [item] = (await inquiriesOf(client, leadId)).inquiries;
    expect(item.summary.isWellFormed()).toBe(true);
    expect(item.summary).toMatch(/^Outbound SMS: (😀)+…$/u);
  });

  it('answers 201 with a confirmation and starts a thread with a new SMS inquiry for the lead', async () => {
    const { client, userId, leadId } = await organizationWithSender();
    const res = await client.post('/v1/sms', { userId, leadId, message: 'Hi Olivia, we can come tomorrow at 10.' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ message: 'SMS sent' });

    const list = await inquiriesOf(client, leadId);
    expect(list.totalCount).toBe(1);
    const [item] = list.inquiries;
    expect(item).toMatchObject({ source: 'SMS', isFirstInquiry: true, isRead: true, leadId, tag: 'FOLLOW_UP', sourceId: expect.stringMatching(/^thread_[0-9A-Z]{26}$/) });
    expect(item.summary).toContain('we can come tomorrow');
    expect((await client.get('/v1/inquiries?source=SMS')).body.totalCount).toBe(1);

    const single = await client.get(`/v1/inquiries/${item.id}`);
    expect(v.safeParse(Inquiry, single.body).success).toBe(true);
    expect(single.body.data).toEqual({
      id: item.sourceId,
      leadPhone: '+61412345001',
      messages: [
        { id: expect.stringMatching(/^message_/), direction: 'OUTBOUND', status: 'QUEUED', body: 'Hi Olivia, we can come tomorrow at 10.', userId, createdAt: expect.stringMatching(ISO_MS) },
      ],
    });
    expect(await leadOf(client, leadId)).toMatchObject({ lastInquiryId: item.id, lastInquiryDate: item.createdAt, unreadSMS: 0 });
  });

  it('queues the message in the outbox for the provider, addressed to the lead', async () => {
    const { client, organizationId, userId, leadId } = await organizationWithSender();
    await client.post('/v1/sms', { userId, leadId, message: 'Outbox check' });
    const { inquiryId } = await threadOf(client, leadId);
    const [message] = (await client.get(`/v1/inquiries/${inquiryId}`)).body.data.messages;
    const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: keys.smsOutbox(organizationId, message.id) }));
    expect(Item).toMatchObject({ status: 'PENDING', to: '+61412345001', body: 'Outbox check', userId, messageId: message.id });
  });

  it('is not the first inquiry when the lead had one already', async () => {
    const { client, organizationId, userId, leadId } = await organizationWithSender();
    const earlier = await createInquiry(organizationId, {
      source: 'EMAIL',
      leadId,
      tag: 'GENERAL',
      summary: 'Earlier email',
      isRead: true,
      data: { subject: 'Hi', from: 'olivia@example.com.au', to: 'office@example.com', body: 'Hello', receivedAt: new Date().toISOString() },
    });
    expect((await client.post('/v1/sms', { userId, leadId, message: 'Following up' })).status).toBe(201);
    const { inquiries } = await inquiriesOf(client, leadId);
    expect(inquiries.map((inquiry: { source: string; isFirstInquiry: boolean }) => [inquiry.source, inquiry.isFirstInquiry])).toEqual([
      ['SMS', false],
      ['EMAIL', true],
    ]);
    expect((await leadOf(client, leadId)).lastInquiryId).toBe(inquiries[0].id);
    expect(inquiries[1].id).toBe(earlier.id);
  });

  it('makes exactly one inquiry the first when several threads start at once', async () => {
    const { client, userId, leadId } = await organizationWithSender();
    const results = await Promise.all([1, 2, 3, 4].map((n) => client.post('/v1/sms', { userId, leadId, message: `Parallel ${n}` })));
    expect(results.map((res) => res.status)).toEqual([201, 201, 201, 201]);
    const { inquiries, totalCount } = await inquiriesOf(client, leadId);
    expect(totalCount).toBe(4);
    expect(inquiries.filter((inquiry: { isFirstInquiry: boolean }) => inquiry.isFirstInquiry)).toHaveLength(1);
    expect((await leadOf(client, leadId)).lastInquiryId).toBe(inquiries[0].id);
  });

  it('costs one BatchGetItem, the send and one transaction', async () => {
    const { client, userId, leadId } = await organizationWithSender();
    const calls = await countDynamoCalls(() => client.post('/v1/sms', { userId, leadId, message: 'Count me' }));
    expect(calls).toEqual(['BatchGetItemCommand', 'PutItemCommand', 'TransactWriteItemsCommand']);
  });
});

describe('POST /v1/sms with messageThreadId', () => {
  it('appends to the thread without a new inquiry, and the message shows in the inquiry data', async () => {
    const { client, userId, leadId } = await organizationWithSender();
    await client.post('/v1/sms', { userId, leadId, message: 'First' });
    const { inquiryId, threadId } = await threadOf(client, leadId);
    const lead = await leadOf(client, leadId);

    const res = await client.post('/v1/sms', { userId, leadId, message: 'Second', messageThreadId: threadId });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ message: 'SMS sent' });
    expect((await inquiriesOf(client, leadId)).totalCount).toBe(1);
    expect((await client.get('/v1/inquiries')).body.totalCount).toBe(1);
    const { data } = (await client.get(`/v1/inquiries/${inquiryId}`)).body;
    expect(data.messages.map((message: { body: string; direction: string }) => [message.body, message.direction])).toEqual([
      ['First', 'OUTBOUND'],
      ['Second', 'OUTBOUND'],
    ]);
    expect(await leadOf(client, leadId)).toMatchObject({ lastInquiryId: lead.lastInquiryId, lastInquiryDate: lead.lastInquiryDate });
  });

  it('costs one BatchGetItem, the send and one PutItem', async () => {
    const { client, userId, leadId } = await organizationWithSender();
    await client.post('/v1/sms', { userId, leadId, message: 'First' });
    const { threadId } = await threadOf(client, leadId);
    const calls = await countDynamoCalls(() => client.post('/v1/sms', { userId, leadId, message: 'Again', messageThreadId: threadId }));
    expect(calls).toEqual(['BatchGetItemCommand', 'PutItemCommand', 'PutItemCommand']);
  });

  it('replies in a demo thread', async () => {
    const { client, demo } = await api.organization({ demo: true });
    const threadId = demo?.smsThreadId as string;
    const [inquiry] = (await client.get('/v1/inquiries?source=SMS&limit=100')).body.inquiries.filter((item: { sourceId: string }) => item.sourceId === threadId);
    const before = (await client.get(`/v1/inquiries/${inquiry.id}`)).body.data.messages.length;
    expect(before).toBeGreaterThanOrEqual(2);
    const userId = (demo?.userIds as string[])[0];
    const res = await client.post('/v1/sms', { userId, leadId: inquiry.leadId, message: 'See you tomorrow!', messageThreadId: threadId });
    expect(res.status).toBe(201);
    expect((await client.get(`/v1/inquiries/${inquiry.id}`)).body.data.messages).toHaveLength(before + 1);
  });
});

describe('POST /v1/sms errors', () => {
  async function expectNothingRecorded(client: Client, leadId: string, inquiries = 0) {
    expect((await client.get('/v1/inquiries')).body.totalCount).toBe(inquiries);
    if (inquiries === 0) expect((await leadOf(client, leadId)).lastInquiryId).toBeNull();
  }

  it.each([
    ['an unknown lead', (s: Sender) => ({ userId: s.userId, leadId: UNKNOWN_LEAD }), 'Lead not found'],
    ['an unknown user', (s: Sender) => ({ userId: 'user_01HZZZZZZZZZZZZZZZZZZZZZZZ', leadId: s.leadId }), 'User not found'],
    ['an unknown thread', (s: Sender) => ({ userId: s.userId, leadId: s.leadId, messageThreadId: 'thread_01HZZZZZZZZZZZZZZZZZZZZZZZ' }), 'Message thread not found'],
  ])('answers 404 for %s, and records nothing', async (_, body, message) => {
    const sender = await organizationWithSender();
    const res = await sender.client.post('/v1/sms', { ...body(sender), message: 'Hello' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, message, error: { status: 404, message, code: 'NOT_FOUND' } });
    await expectNothingRecorded(sender.client, sender.leadId);
  });

  it("answers 404 for another organization's lead, user or thread", async () => {
    const mine = await organizationWithSender();
    const theirs = await organizationWithSender();
    await theirs.client.post('/v1/sms', { userId: theirs.userId, leadId: theirs.leadId, message: 'Theirs' });
    const { threadId } = await threadOf(theirs.client, theirs.leadId);
    for (const body of [
      { userId: mine.userId, leadId: theirs.leadId },
      { userId: theirs.userId, leadId: mine.leadId },
      { userId: mine.userId, leadId: mine.leadId, messageThreadId: threadId },
    ]) {
      const res = await mine.client.post('/v1/sms', { ...body, message: 'Hello' });
      expect(res.status).toBe(404);
    }
    await expectNothingRecorded(mine.client, mine.leadId);
    expect((await theirs.client.get(`/v1/inquiries/${(await threadOf(theirs.client, theirs.leadId)).inquiryId}`)).body.data.messages).toHaveLength(1);
  });

  it('answers 404 for a thread of another lead of the same organization', async () => {
    const { client, userId, leadId } = await organizationWithSender();
    const other = await client.post('/v1/leads', { name: 'Noah Patel', email: 'noah@example.com.au', phone: '+61412345004' });
    await client.post('/v1/sms', { userId, leadId: other.body.lead.id, message: 'To Noah' });
    const { threadId, inquiryId } = await threadOf(client, other.body.lead.id);
    const res = await client.post('/v1/sms', { userId, leadId, message: 'To Olivia', messageThreadId: threadId });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Message thread not found');
    expect((await client.get(`/v1/inquiries/${inquiryId}`)).body.data.messages).toHaveLength(1);
  });

  it('answers 400 naming leadId for a lead without a phone', async () => {
    const { client, userId } = await organizationWithSender();
    const lead = await client.post('/v1/leads', { name: 'William Chen', email: 'will@example.com.au' });
    const res = await client.post('/v1/sms', { userId, leadId: lead.body.lead.id, message: 'Hello' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { status: 400, code: 'LEAD_HAS_NO_PHONE' } });
    expect(res.body.message).toContain('leadId');
    await expectNothingRecorded(client, lead.body.lead.id);
  });

  it.each([
    ['an empty message', { message: '' }, 'message'],
    ['a blank message', { message: '   ' }, 'message'],
    ['a message over 1600 characters', { message: 'x'.repeat(1601) }, 'message'],
    ['a missing message', { message: undefined }, 'message'],
    ['a message that is not a string', { message: 42 }, 'message'],
    ['a missing userId', { userId: undefined }, 'userId'],
    ['a missing leadId', { leadId: undefined }, 'leadId'],
    ['an empty messageThreadId', { messageThreadId: '' }, 'messageThreadId'],
    ['an unknown field', { priority: 'high' }, 'priority'],
  ])('answers 400 naming the field for %s', async (_, change, field) => {
    const { client, userId, leadId } = await organizationWithSender();
    const res = await client.post('/v1/sms', { userId, leadId, message: 'Hello', ...change });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { status: 400, code: 'VALIDATION_ERROR' } });
    expect(res.body.message).toContain(field);
    await expectNothingRecorded(client, leadId);
  });

  it('accepts a message of exactly 1600 characters', async () => {
    const { client, userId, leadId } = await organizationWithSender();
    expect((await client.post('/v1/sms', { userId, leadId, message: 'x'.repeat(1600) })).status).toBe(201);
  });

  it('answers 400 for malformed JSON', async () => {
    const { client } = await organizationWithSender();
    const res = await client.post('/v1/sms', undefined, { rawBody: '{"userId":', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_JSON');
  });

  it('answers 502 with only {message} when the provider fails, and records no thread, inquiry or lead change', async () => {
    const { client, userId, leadId } = await organizationWithSender();
    restore = setSmsSender(failingSender);
    const res = await client.post('/v1/sms', { userId, leadId, message: 'Will not go' });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ message: 'SMS provider rejected the message' });
    await expectNothingRecorded(client, leadId);
    expect((await client.get('/v1/inquiries?source=SMS')).body.totalCount).toBe(0);
  });

  it('answers 502 for a reply when the provider fails, and appends nothing', async () => {
    const { client, userId, leadId } = await organizationWithSender();
    await client.post('/v1/sms', { userId, leadId, message: 'First' });
    const { threadId, inquiryId } = await threadOf(client, leadId);
    restore = setSmsSender(failingSender);
    const res = await client.post('/v1/sms', { userId, leadId, message: 'Lost', messageThreadId: threadId });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ message: 'SMS provider rejected the message' });
    expect((await client.get(`/v1/inquiries/${inquiryId}`)).body.data.messages).toHaveLength(1);
  });

  it('uses the outbox sender unless another is set', () => {
    expect(smsSender().name).toBe('outbox');
  });
});

describe('POST /v1/sms from many requests at once', () => {
  it('starts a thread for each of 16 concurrent sends to one lead: all 201, exactly one first inquiry, none lost', async () => {
    const { client, userId, leadId } = await organizationWithSender();
    const statuses = await Promise.all(Array.from({ length: 16 }, (_, i) => client.post('/v1/sms', { userId, leadId, message: `Message ${i}` }).then((r) => r.status)));
    expect(statuses).toEqual(Array(16).fill(201));
    const list = await inquiriesOf(client, leadId);
    expect(list.totalCount).toBe(16);
    expect(list.inquiries.filter((inquiry: { isFirstInquiry: boolean }) => inquiry.isFirstInquiry)).toHaveLength(1);
  });
});
