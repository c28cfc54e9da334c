import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SmsDeliveryError } from './sender';
import { createInquiry } from '../inquiries/store';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { leadKeys } from '../leads/entity';
import { organizationKeys } from '../organization/entity';
import { smsKeys } from './entity';
import { logger } from '#shared/observability';
import { Inquiry } from '../inquiries/schema';
import { LOCAL_UNREACHABLE_NUMBER, sentLocally } from './local-provider';
import { moveSmsStatus } from './store';
import { applyReceipt } from './receipts';
import { setSmsSender, smsSender, type SmsSender } from './sender';
import { sentAsAClientRetries, useTestApi, type Client } from '../../test/support/api';
import { holdWrite } from '../../test/support/interleave';
import { countDynamoCalls } from '../../test/support/dynamo-calls';
import { withSilentProvider } from '../../test/support/silent-sms';
import { ISO_MS } from '../../test/support/fixtures';
import { messageItem, senderOrganizations, type Sender } from '../../test/support/sms';

/** How long to wait for the stream consumer and the local carrier, which poll: long enough for a loaded machine. */
const WAIT = { timeout: 10_000 };

const api = useTestApi({ events: true });
const organizationWithSender = senderOrganizations(api);
/** Accepted by the provider; the local carrier's delivery receipt may already have moved it on. */
const SENT_OR_LATER = expect.stringMatching(/^(SENT|DELIVERED)$/);
const UNKNOWN_LEAD = 'lead_01HZZZZZZZZZZZZZZZZZZZZZZZ';

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

  it('counts a message as carriers do, an emoji two units of the 1 600, and says so when it is over', async () => {
    const { client, userId, leadId } = await organizationWithSender();
    const fits = `${'a'.repeat(1598)}🔧`;
    expect((await client.post('/v1/sms', { userId, leadId, message: fits })).status).toBe(201);
    const over = await client.post('/v1/sms', { userId, leadId, message: `${'a'.repeat(1599)}🔧` });
    expect(over.status).toBe(400);
    expect(over.body.error.details).toEqual([{ path: 'message', message: 'message must be at most 1600 SMS units, where an emoji counts two' }]);
  });

  it('answers 201 with a confirmation and starts a thread with a new SMS inquiry for the lead', async () => {
    const { client, userId, leadId } = await organizationWithSender();
    const res = await client.post('/v1/sms', { userId, leadId, message: 'Hi Olivia, we can come tomorrow at 10.' });
    expect(res.status).toBe(201);
    const list = await inquiriesOf(client, leadId);
    expect(list.totalCount).toBe(1);
    const [item] = list.inquiries;
    expect(res.body).toEqual({
      message: 'SMS sent',
      sms: { id: expect.stringMatching(/^message_[0-9A-Z]{26}$/), direction: 'OUTBOUND', status: 'SENT', body: 'Hi Olivia, we can come tomorrow at 10.', leadId, userId, messageThreadId: item.sourceId, inquiryId: item.id, createdAt: expect.stringMatching(ISO_MS), updatedAt: expect.stringMatching(ISO_MS) },
    });
    expect(item).toMatchObject({ source: 'SMS', isFirstInquiry: true, isRead: true, leadId, tag: 'FOLLOW_UP', sourceId: expect.stringMatching(/^thread_[0-9A-Z]{26}$/) });
    expect(item.summary).toContain('we can come tomorrow');
    expect((await client.get('/v1/inquiries?source=SMS')).body.totalCount).toBe(1);

    const single = await client.get(`/v1/inquiries/${item.id}`);
    expect(v.safeParse(Inquiry, single.body).success).toBe(true);
    expect(single.body.data).toEqual({
      id: item.sourceId,
      leadPhone: '+61412345001',
      messages: [
        { id: expect.stringMatching(/^message_/), direction: 'OUTBOUND', status: SENT_OR_LATER, body: 'Hi Olivia, we can come tomorrow at 10.', userId, createdAt: expect.stringMatching(ISO_MS) },
      ],
    });
    expect(await leadOf(client, leadId)).toMatchObject({ lastInquiryId: item.id, lastInquiryDate: item.createdAt, unreadSMS: 0 });
  });

  it('records the message as QUEUED before the provider is called, then SENT, and the provider gets it addressed to the lead', async () => {
    const { client, userId, leadId } = await organizationWithSender();
    const seenAtSend: unknown[] = [];
    const provider = smsSender();
    restore = setSmsSender({
      name: 'recording',
      async send(sms) {
        seenAtSend.push((await client.get(`/v1/inquiries/${sms.inquiryId}`)).body.data.messages);
        return provider.send(sms);
      },
    });
    await client.post('/v1/sms', { userId, leadId, message: 'Record first' });
    const { inquiryId } = await threadOf(client, leadId);
    const [message] = (await client.get(`/v1/inquiries/${inquiryId}`)).body.data.messages;
    expect(seenAtSend).toEqual([[{ ...message, status: 'QUEUED' }]]);
    expect(message.status).toEqual(SENT_OR_LATER);
    expect(sentLocally.find((sms) => sms.messageId === message.id)).toMatchObject({ to: '+61412345001', body: 'Record first', userId, inquiryId });
  });

  it("sends from the organization's smsSenderId, a number or a sender id, and from the stack's default without one", async () => {
    const { client, userId, leadId } = await organizationWithSender();
    const sentFrom = async (message: string) => {
      expect((await client.post('/v1/sms', { userId, leadId, message })).status).toBe(201);
      return sentLocally.filter((sms) => sms.body === message).map((sms) => sms.from);
    };
    expect(await sentFrom(`Default ${leadId}`)).toEqual([null]);
    await client.patch('/v1/organization', { smsSenderId: '+61299991234' });
    expect(await sentFrom(`Number ${leadId}`)).toEqual(['+61299991234']);
    await client.patch('/v1/organization', { smsSenderId: 'HarbourPlb' });
    expect(await sentFrom(`Sender id ${leadId}`)).toEqual(['HarbourPlb']);
    await client.patch('/v1/organization', { smsSenderId: null });
    expect(await sentFrom(`Default again ${leadId}`)).toEqual([null]);
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

  it('costs one BatchGetItem, one transaction, the send and one transaction for its status (and its counters)', async () => {
    const { client, userId, leadId } = await organizationWithSender();
    // The carrier's receipt is another function's work: one landing before the SENT mark would be counted here.
    const calls = await withSilentProvider(() => countDynamoCalls(() => client.post('/v1/sms', { userId, leadId, message: 'Count me' })));
    expect(calls).toEqual(['BatchGetItemCommand', 'TransactWriteItemsCommand', 'TransactWriteItemsCommand']);
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
    expect(res.body).toEqual({ message: 'SMS sent', sms: expect.objectContaining({ status: 'SENT', body: 'Second', leadId, messageThreadId: threadId, inquiryId }) });
    expect((await inquiriesOf(client, leadId)).totalCount).toBe(1);
    expect((await client.get('/v1/inquiries')).body.totalCount).toBe(1);
    const { data } = (await client.get(`/v1/inquiries/${inquiryId}`)).body;
    expect(data.messages.map((message: { body: string; direction: string }) => [message.body, message.direction])).toEqual([
      ['First', 'OUTBOUND'],
      ['Second', 'OUTBOUND'],
    ]);
    expect(await leadOf(client, leadId)).toMatchObject({ lastInquiryId: lead.lastInquiryId, lastInquiryDate: lead.lastInquiryDate });
  });

  it('costs one BatchGetItem, one transaction (the lead checked, the message put) and one transaction for its status', async () => {
    const { client, userId, leadId } = await organizationWithSender();
    await client.post('/v1/sms', { userId, leadId, message: 'First' });
    const { threadId, inquiryId } = await threadOf(client, leadId);
    // The first message's delivery receipt lands on its own, not inside the request counted below.
    await vi.waitFor(async () => expect((await client.get(`/v1/inquiries/${inquiryId}`)).body.data.messages[0].status).toBe('DELIVERED'), WAIT);
    const calls = await withSilentProvider(() => countDynamoCalls(() => client.post('/v1/sms', { userId, leadId, message: 'Again', messageThreadId: threadId })));
    expect(calls).toEqual(['BatchGetItemCommand', 'TransactWriteItemsCommand', 'TransactWriteItemsCommand']);
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
    ['a NUL character in the message', { message: 'Your quote is ready\u0000' }, 'message'],
    ['a terminal escape in the message', { message: '\u001b[31mYour quote is ready' }, 'message'],
    ['a missing userId', { userId: undefined }, 'userId'],
    ['a missing leadId', { leadId: undefined }, 'leadId'],
    ['an unknown field', { priority: 'high' }, 'priority'],
  ])('answers 400 naming the field for %s', async (_, change, field) => {
    const { client, userId, leadId } = await organizationWithSender();
    const res = await client.post('/v1/sms', { userId, leadId, message: 'Hello', ...change });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { status: 400, code: 'VALIDATION_ERROR' } });
    expect(res.body.message).toContain(field);
    await expectNothingRecorded(client, leadId);
  });

  it('answers an empty messageThreadId as an unknown thread: 404, recording nothing', async () => {
    const { client, userId, leadId } = await organizationWithSender();
    const res = await client.post('/v1/sms', { userId, leadId, message: 'Hello', messageThreadId: '' });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Message thread not found');
    await expectNothingRecorded(client, leadId);
  });

  it('sends a message trimmed of the white space around it, as every free-text field is', async () => {
    const { client, userId, leadId } = await organizationWithSender();
    const res = await client.post('/v1/sms', { userId, leadId, message: '  Running 10 minutes late.\n' });
    expect(res.status).toBe(201);
    expect(res.body.sms.body).toBe('Running 10 minutes late.');
    expect(sentLocally.at(-1)!.body).toBe('Running 10 minutes late.');
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

  it('answers 502 with only {message} when the provider fails, and keeps the thread with the message FAILED', async () => {
    const { client, userId, leadId } = await organizationWithSender();
    restore = setSmsSender(failingSender);
    const res = await client.post('/v1/sms', { userId, leadId, message: 'Will not go' });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ message: 'SMS provider rejected the message' });
    const { inquiryId } = await threadOf(client, leadId);
    expect((await client.get(`/v1/inquiries/${inquiryId}`)).body.data.messages).toMatchObject([{ body: 'Will not go', status: 'FAILED' }]);
  });

  it('answers 502 for a reply when the provider fails, and shows the reply FAILED in the thread', async () => {
    const { client, userId, leadId } = await organizationWithSender();
    await client.post('/v1/sms', { userId, leadId, message: 'First' });
    const { threadId, inquiryId } = await threadOf(client, leadId);
    restore = setSmsSender(failingSender);
    const res = await client.post('/v1/sms', { userId, leadId, message: 'Lost', messageThreadId: threadId });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ message: 'SMS provider rejected the message' });
    const messages = (await client.get(`/v1/inquiries/${inquiryId}`)).body.data.messages;
    expect(messages.map((message: { body: string; status: string }) => [message.body, message.status])).toEqual([
      ['First', SENT_OR_LATER],
      ['Lost', 'FAILED'],
    ]);
  });

  it('uses the local provider unless another is set', () => {
    expect(smsSender().name).toBe('local');
  });
});

/** The organization's sms.* event types, oldest first, once the stream consumer has caught up. */
async function smsEventTypes(client: Client): Promise<string[]> {
  await api.eventsCaughtUp();
  const { events } = (await client.get('/v1/events?limit=100')).body;
  return events.map((event: { type: string }) => event.type).filter((type: string) => type.startsWith('sms.')).reverse();
}

describe('POST /v1/sms when the provider took the SMS but marking it SENT fails', () => {
  const FAIL_SENT_MARK = 'failTheSentMark';
  afterEach(() => {
    dynamo.middlewareStack.remove(FAIL_SENT_MARK);
    vi.restoreAllMocks();
  });

  it('answers 201, sends once, logs the error, and the delivery receipt records the send and the provider’s id', async () => {
    const { client, organizationId, userId, leadId } = await organizationWithSender();
    const provider = smsSender();
    // Armed once the local provider recorded the send, so the write that fails is the send's own SENT mark.
    let failSentMarkOf: string | undefined;
    let failed = 0;
    restore = setSmsSender({
      name: 'local, then the SENT mark fails',
      async send(sms) {
        const sent = await provider.send(sms);
        failSentMarkOf = sms.messageId;
        return sent;
      },
    });
    dynamo.middlewareStack.add(
      (next, context) => async (args) => {
        const input = JSON.stringify(args.input);
        if (failSentMarkOf && context.commandName === 'TransactWriteItemsCommand' && input.includes(failSentMarkOf) && input.includes('"SENT"')) {
          failSentMarkOf = undefined;
          failed++;
          throw Object.assign(new Error('Throughput exceeds the current capacity of your table'), { name: 'ProvisionedThroughputExceededException' });
        }
        return next(args);
      },
      { step: 'initialize', name: FAIL_SENT_MARK },
    );
    const logged = vi.spyOn(logger, 'error');

    const res = await client.post('/v1/sms', { userId, leadId, message: `Left anyway ${leadId}` });
    expect(failed).toBe(1);
    expect(res.status).toBe(201);
    // Its SENT mark failed: the answer shows it as recorded, QUEUED, until the receipt moves it on.
    expect(res.body).toEqual({ message: 'SMS sent', sms: expect.objectContaining({ status: 'QUEUED', body: `Left anyway ${leadId}` }) });
    const sent = sentLocally.filter((sms) => sms.body === `Left anyway ${leadId}`);
    expect(sent).toHaveLength(1);
    const { inquiryId, messageId } = sent[0]!;
    expect(logged).toHaveBeenCalledWith('SMS sent but not marked SENT: its delivery receipt will record the send', expect.objectContaining({ messageId, providerMessageId: `local-${messageId}` }));

    // The local carrier's receipt, a moment later, reconciles the message the failed write left QUEUED.
    await vi.waitFor(async () => expect(await messageItem(organizationId, inquiryId, messageId)).toMatchObject({ status: 'DELIVERED', providerMessageId: `local-${messageId}` }), WAIT);
    expect(await smsEventTypes(client)).toEqual(['sms.sent', 'sms.delivered']);
  });
});

describe('SMS delivery receipts', () => {
  async function statusOf(client: Client, leadId: string, expected: string) {
    await vi.waitFor(async () => {
      const { inquiryId } = await threadOf(client, leadId);
      expect((await client.get(`/v1/inquiries/${inquiryId}`)).body.data.messages[0].status).toBe(expected);
    }, WAIT);
  }

  it('moves a message to DELIVERED when the carrier reports it delivered, and emits sms.delivered', async () => {
    const { client, userId, leadId } = await organizationWithSender();
    await client.post('/v1/sms', { userId, leadId, message: 'Arrives' });
    await statusOf(client, leadId, 'DELIVERED');
    await api.eventsCaughtUp();
    const types = (await client.get('/v1/events')).body.events.map((event: { type: string }) => event.type);
    expect(types).toEqual(expect.arrayContaining(['sms.sent', 'sms.delivered']));
    expect(types).not.toContain('sms.failed');
  });

  it('moves a message to FAILED when the carrier reports it unreachable, and emits sms.failed', async () => {
    const { client, userId } = await organizationWithSender();
    const lead = (await client.post('/v1/leads', { name: 'Out Of Range', email: 'range@example.com', phone: LOCAL_UNREACHABLE_NUMBER })).body.lead;
    await client.post('/v1/sms', { userId, leadId: lead.id, message: 'Never arrives' });
    await statusOf(client, lead.id, 'FAILED');
    await api.eventsCaughtUp();
    const failed = (await client.get('/v1/events?type=sms.failed')).body.events;
    expect(failed).toMatchObject([{ data: { body: 'Never arrives', status: 'FAILED' } }]);
  });

  it.each([
    ['TEXT_DELIVERED', 'DELIVERED', 'sms.delivered'],
    ['TEXT_CARRIER_UNREACHABLE', 'FAILED', 'sms.failed'],
  ])('handles a %s receipt that beats the send’s own SENT mark: %s with the provider’s id, sms.sent once and first', async (eventType, status, event) => {
    const { client, organizationId, userId, leadId } = await organizationWithSender();
    const receipts: boolean[] = [];
    // The carrier reports before the API's SENT mark is written, as a receipt racing it can.
    restore = setSmsSender({
      name: 'reports before answering',
      async send(sms) {
        sentLocally.push(sms);
        const receipt = { eventType, messageId: `eum-${sms.messageId}`, messageStatusDescription: 'Carrier says so', context: { organizationId, inquiryId: sms.inquiryId, messageId: sms.messageId } };
        receipts.push(await applyReceipt(receipt), await applyReceipt(receipt));
        return { providerMessageId: `eum-${sms.messageId}` };
      },
    });
    const message = `Raced ${leadId}`;
    expect((await client.post('/v1/sms', { userId, leadId, message })).status).toBe(201);
    // The first receipt settles it; the same receipt again changes nothing.
    expect(receipts).toEqual([true, false]);
    const { inquiryId, messageId } = sentLocally.find((sms) => sms.body === message)!;
    expect(await messageItem(organizationId, inquiryId, messageId)).toMatchObject({ status, providerMessageId: `eum-${messageId}` });
    expect(await smsEventTypes(client)).toEqual(['sms.sent', event]);
    const [sent] = (await client.get('/v1/events?type=sms.sent')).body.events;
    expect(sent.data).toMatchObject({ id: messageId, status: 'SENT' });
  });

  it('settles a receipt when the send’s SENT mark lands between the receipt finding the message QUEUED and marking it SENT itself', async () => {
    const { client, organizationId, userId, leadId } = await organizationWithSender();
    const INTERLEAVE = 'sentMarkLandsFirst';
    let racing: string | undefined;
    let receipt: boolean | undefined;
    restore = setSmsSender({
      name: 'reports before answering',
      async send(sms) {
        sentLocally.push(sms);
        racing = sms.messageId;
        receipt = await applyReceipt({ eventType: 'TEXT_DELIVERED', messageId: `eum-${sms.messageId}`, context: { organizationId, inquiryId: sms.inquiryId, messageId: sms.messageId } });
        return { providerMessageId: `eum-${sms.messageId}` };
      },
    });
    // The receipt's own QUEUED → SENT waits for a SENT mark written just before it, as the send's would be.
    dynamo.middlewareStack.add(
      (next, context) => async (args) => {
        const input = JSON.stringify(args.input);
        if (racing && context.commandName === 'TransactWriteItemsCommand' && input.includes(racing) && input.includes('"QUEUED"') && input.includes('"SENT"')) {
          const { inquiryId } = sentLocally.find((sms) => sms.messageId === racing)!;
          const messageId = racing;
          racing = undefined;
          expect(await moveSmsStatus(organizationId, inquiryId, messageId, 'QUEUED', 'SENT', { providerMessageId: `eum-${messageId}` })).toEqual(expect.stringMatching(ISO_MS));
        }
        return next(args);
      },
      { step: 'initialize', name: INTERLEAVE },
    );
    try {
      expect((await client.post('/v1/sms', { userId, leadId, message: `Interleaved ${leadId}` })).status).toBe(201);
    } finally {
      dynamo.middlewareStack.remove(INTERLEAVE);
    }
    expect(racing).toBeUndefined();
    expect(receipt).toBe(true);
    const { inquiryId, messageId } = sentLocally.find((sms) => sms.body === `Interleaved ${leadId}`)!;
    expect(await messageItem(organizationId, inquiryId, messageId)).toMatchObject({ status: 'DELIVERED', providerMessageId: `eum-${messageId}` });
    expect(await smsEventTypes(client)).toEqual(['sms.sent', 'sms.delivered']);
  });

  it('never moves a message back: a late or repeated receipt changes nothing', async () => {
    const { client, organizationId, userId, leadId } = await organizationWithSender();
    await client.post('/v1/sms', { userId, leadId, message: 'Once' });
    await statusOf(client, leadId, 'DELIVERED');
    const { inquiryId } = await threadOf(client, leadId);
    const messageId = (await client.get(`/v1/inquiries/${inquiryId}`)).body.data.messages[0].id;
    expect(await applyReceipt({ eventType: 'TEXT_CARRIER_UNREACHABLE', context: { organizationId, inquiryId, messageId } })).toBe(false);
    expect(await applyReceipt({ eventType: 'TEXT_DELIVERED', context: { organizationId, inquiryId, messageId } })).toBe(false);
    expect(await applyReceipt({ eventType: 'TEXT_DELIVERED', context: { organizationId, inquiryId, messageId: 'message_01HZZZZZZZZZZZZZZZZZZZZZZZ' } })).toBe(false);
    await statusOf(client, leadId, 'DELIVERED');
  });
});

describe('POST /v1/sms from many requests at once', () => {
  it('starts a thread for each of 10 concurrent sends to one lead, each waiting its turn: each 201, an SMS inquiry for each, exactly one the first, each sent once', async () => {
    const { client, userId, leadId } = await organizationWithSender();
    const bodies = Array.from({ length: 10 }, (_, i) => `Parallel message ${i}`);
    // As a client does: a 503 or 409 CONFLICT under the burst is sent again with its Idempotency-Key, and whatever the
    // first attempt did, the message ends recorded and sent once. Ten writers of one lead take their turns: enough to
    // race for the first inquiry and the thread, few enough that the turns don't dominate the suite.
    const send = (message: string, i: number) => sentAsAClientRetries(() => client.post('/v1/sms', { userId, leadId, message }, { headers: { 'Idempotency-Key': `parallel-${i}` } }));
    const answers = await Promise.all(bodies.map(send));
    expect(answers.map((res) => res.status)).toEqual(bodies.map(() => 201));
    const list = await inquiriesOf(client, leadId);
    expect(list.totalCount).toBe(10);
    expect(list.inquiries.filter((inquiry: { source: string }) => inquiry.source === 'SMS')).toHaveLength(10);
    expect(list.inquiries.filter((inquiry: { isFirstInquiry: boolean }) => inquiry.isFirstInquiry)).toHaveLength(1);
    expect(sentLocally.filter((sms) => sms.to === '+61412345001' && bodies.includes(sms.body)).map((sms) => sms.body).sort()).toEqual([...bodies].sort());
  }, 300_000);

  it('an SMS racing the deletion of its lead is either recorded and sent, or answered 404 and not sent', async () => {
    for (let round = 0; round < 6; round++) {
      const { client, userId, leadId } = await organizationWithSender();
      const message = `Race ${leadId}`;
      const [sms, deleted] = await Promise.all([client.post('/v1/sms', { userId, leadId, message }), client.delete(`/v1/leads/${leadId}`)]);
      expect(deleted.status).toBe(200);
      const sent = sentLocally.filter((item) => item.body === message);
      if (sms.status === 201) {
        expect(sent).toHaveLength(1);
        const inquiry = (await client.get(`/v1/inquiries/${sent[0]!.inquiryId}`)).body;
        expect(inquiry.data.messages).toMatchObject([{ body: message, status: SENT_OR_LATER }]);
      } else {
        expect(sms.status).toBe(404);
        expect(sent).toEqual([]);
      }
    }
  });
});

describe('replies from leads', () => {
  let numbers = 0;
  let NUMBER = '';

  /** A reply as the provider delivers it, through `npm start`'s simulator (the deployed inbound function's code). */
  async function reply(from: string, body: string, to = NUMBER, inboundMessageId?: string) {
    const res = await fetch(`${api.url}/local/sms/inbound`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ from, to, body, inboundMessageId }) });
    expect(res.status).toBe(202);
    await api.eventsCaughtUp();
  }

  /** Each test's organization has a number of its own. */
  async function organizationWithNumber() {
    NUMBER = `+612999900${String(++numbers).padStart(2, '0')}`;
    const sender = await organizationWithSender();
    expect((await sender.client.patch('/v1/organization', { smsSenderId: NUMBER })).status).toBe(200);
    return sender;
  }

  it('appends a reply to the lead’s thread as INBOUND, bumps unreadSMS and emits sms.received', async () => {
    const { client, userId, leadId } = await organizationWithNumber();
    await client.post('/v1/sms', { userId, leadId, message: 'Can we come at 10?' });
    const { inquiryId } = await threadOf(client, leadId);
    await reply('+61412345001', 'Yes, 10 works');

    const messages = (await client.get(`/v1/inquiries/${inquiryId}`)).body.data.messages;
    expect(messages.map((message: { direction: string; status: string; body: string; userId: string | null }) => [message.direction, message.status, message.body, message.userId])).toEqual([
      ['OUTBOUND', SENT_OR_LATER, 'Can we come at 10?', userId],
      ['INBOUND', 'RECEIVED', 'Yes, 10 works', null],
    ]);
    expect((await leadOf(client, leadId)).unreadSMS).toBe(1);
    expect((await inquiriesOf(client, leadId)).totalCount).toBe(1);
    const [received] = (await client.get('/v1/events?type=sms.received')).body.events;
    expect(received.data).toMatchObject({ direction: 'INBOUND', body: 'Yes, 10 works', inquiryId });
  });

  it('opens a new SMS inquiry, unread, when the lead has no thread', async () => {
    const { client, leadId } = await organizationWithNumber();
    await reply('+61412345001', 'Hi, do you fix hot water systems?');
    const { inquiries } = await inquiriesOf(client, leadId);
    expect(inquiries).toMatchObject([{ source: 'SMS', isRead: false, isFirstInquiry: true, summary: 'Inbound SMS: Hi, do you fix hot water systems?' }]);
    expect((await client.get(`/v1/inquiries/${inquiries[0].id}`)).body.data.messages).toMatchObject([{ direction: 'INBOUND', status: 'RECEIVED' }]);
    expect((await leadOf(client, leadId)).unreadSMS).toBe(1);
  });

  it('records a reply SNS delivers three times at once, to a lead without a thread, once: one SMS inquiry, one INBOUND message, one sms.received', async () => {
    const { client, organizationId, leadId } = await organizationWithNumber();
    const inboundMessageId = randomUUID();
    await Promise.all([1, 2, 3].map(() => reply('+61412345001', 'Are you free Friday?', NUMBER, inboundMessageId)));
    const { inquiries, totalCount } = await inquiriesOf(client, leadId);
    expect(totalCount).toBe(1);
    expect((await client.get(`/v1/inquiries/${inquiries[0].id}`)).body.data.messages).toMatchObject([{ direction: 'INBOUND', body: 'Are you free Friday?' }]);
    expect((await leadOf(client, leadId)).unreadSMS).toBe(1);
    expect((await client.get('/v1/events?type=sms.received')).body.totalCount).toBe(1);
    const { Item: marker } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: smsKeys.inboundSms(organizationId, inboundMessageId), ConsistentRead: true }));
    expect(marker).toMatchObject({ entity: 'INBOUND_SMS', messageId: expect.stringMatching(/^message_/) });
  });

  it('records a redelivered reply once even when a new thread started in between, and a different reply with the same text again', async () => {
    const { client, userId, leadId } = await organizationWithNumber();
    const inboundMessageId = randomUUID();
    await reply('+61412345001', 'Yes please', NUMBER, inboundMessageId);
    // The redelivery's latest thread is another inquiry than the one the first delivery opened.
    expect((await client.post('/v1/sms', { userId, leadId, message: 'New topic' })).status).toBe(201);
    await reply('+61412345001', 'Yes please', NUMBER, inboundMessageId);
    await reply('+61412345001', 'Yes please');
    const { inquiries } = await inquiriesOf(client, leadId);
    expect(inquiries).toHaveLength(2);
    const messages = await Promise.all(inquiries.map(async (inquiry: { id: string }) => (await client.get(`/v1/inquiries/${inquiry.id}`)).body.data.messages));
    expect(messages.flat().filter((message: { direction: string }) => message.direction === 'INBOUND')).toHaveLength(2);
    expect((await leadOf(client, leadId)).unreadSMS).toBe(2);
  });

  it('ignores a reply to a number no organization has', async () => {
    const { client, leadId } = await organizationWithNumber();
    await reply('+61412345001', 'Wrong number', '+61288880000');
    expect((await inquiriesOf(client, leadId)).totalCount).toBe(0);
    expect((await client.get('/v1/events?type=sms.received')).body.totalCount).toBe(0);
  });

  it('honours STOP: the lead is opted out and SMS to them answer 400 OPTED_OUT, until START', async () => {
    const { client, userId, leadId } = await organizationWithNumber();
    await client.post('/v1/sms', { userId, leadId, message: 'Special offer' });
    const sentBefore = sentLocally.length;
    await reply('+61412345001', ' stop ');
    expect((await leadOf(client, leadId)).smsOptedOut).toBe(true);

    const refused = await client.post('/v1/sms', { userId, leadId, message: 'Another offer' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('OPTED_OUT');
    expect(refused.body.message).toContain('leadId');
    expect(sentLocally.length).toBe(sentBefore);

    await reply('+61412345001', 'START');
    expect((await leadOf(client, leadId)).smsOptedOut).toBe(false);
    expect((await client.post('/v1/sms', { userId, leadId, message: 'Welcome back' })).status).toBe(201);
  });

  it.each([
    ['UNSUBSCRIBE', 'UNSTOP'],
    ['stopall', 'Subscribe'],
    ['Quit', 'start'],
  ])('takes %s as STOP and %s as START, whatever their case', async (optOut, optIn) => {
    const { client, userId, leadId } = await organizationWithNumber();
    await reply('+61412345001', optOut);
    expect((await leadOf(client, leadId)).smsOptedOut).toBe(true);
    expect((await client.post('/v1/sms', { userId, leadId, message: 'Still there?' })).body.error.code).toBe('OPTED_OUT');
    await reply('+61412345001', optIn);
    expect((await leadOf(client, leadId)).smsOptedOut).toBe(false);
    expect((await client.post('/v1/sms', { userId, leadId, message: 'Welcome back' })).status).toBe(201);
  });

  it('finds the lead by its new phone after the phone changes', async () => {
    const { client, leadId } = await organizationWithNumber();
    await client.patch(`/v1/leads/${leadId}`, { phone: '+61412999888' });
    await reply('+61412345001', 'Old phone');
    await reply('+61412999888', 'New phone');
    const { inquiries } = await inquiriesOf(client, leadId);
    expect(inquiries.map((inquiry: { summary: string }) => inquiry.summary)).toEqual(['Inbound SMS: New phone']);
  });

  it('threads a reply to the lead that has the phone when it is written, not to the lead that gave it up meanwhile', async () => {
    const { client, userId, leadId } = await organizationWithNumber();
    await client.post('/v1/sms', { userId, leadId, message: 'Can we come at 10?' });
    // The reply has found the lead and its thread by the phone; its write is held while the phone moves to a new lead.
    const hold = holdWrite(/Who is this/);
    const replied = reply('+61412345001', 'Who is this?');
    await hold.reached;
    expect((await client.patch(`/v1/leads/${leadId}`, { phone: '+61412999888' })).status).toBe(200);
    const newer = (await client.post('/v1/leads', { name: 'Sam Newer', phone: '+61412345001' })).body.lead;
    hold.release();
    await replied;
    expect((await leadOf(client, leadId)).unreadSMS).toBe(0);
    expect((await client.get(`/v1/inquiries/${(await threadOf(client, leadId)).inquiryId}`)).body.data.messages.map((message: { body: string }) => message.body)).toEqual(['Can we come at 10?']);
    const { inquiries } = await inquiriesOf(client, newer.id);
    expect(inquiries.map((inquiry: { summary: string }) => inquiry.summary)).toEqual(['Inbound SMS: Who is this?']);
    expect((await leadOf(client, newer.id)).unreadSMS).toBe(1);
  });

  it('counts a thread on the lead once while it is unread: a reply makes a read thread unread, marking it read brings unreadSMS back to 0', async () => {
    const { client, userId, leadId } = await organizationWithNumber();
    // The member starts the thread: its inquiry is read, as the member wrote it.
    await client.post('/v1/sms', { userId, leadId, message: 'Can we come at 10?' });
    const { inquiryId } = await threadOf(client, leadId);
    expect((await client.get(`/v1/inquiries/${inquiryId}`)).body.isRead).toBe(true);
    await reply('+61412345001', 'Yes, 10 works');
    expect((await client.get(`/v1/inquiries/${inquiryId}`)).body.isRead).toBe(false);
    expect((await leadOf(client, leadId)).unreadSMS).toBe(1);
    // A second reply in the unread thread: still one unread thread.
    await reply('+61412345001', 'Side gate is open');
    expect((await leadOf(client, leadId)).unreadSMS).toBe(1);
    expect((await client.patch(`/v1/inquiries/${inquiryId}`, { isRead: true })).status).toBe(200);
    expect((await leadOf(client, leadId)).unreadSMS).toBe(0);
  });

  it('summarises a long reply without splitting an emoji in two, as an outbound thread’s summary does', async () => {
    const { client, leadId } = await organizationWithNumber();
    // The 140th UTF-16 unit of the text is the first half of the emoji: cut by characters, the emoji is kept whole.
    await reply('+61412345001', `${'a'.repeat(139)}😀 see you then`);
    const [inquiry] = (await inquiriesOf(client, leadId)).inquiries;
    expect(inquiry.summary).toBe(`Inbound SMS: ${'a'.repeat(139)}😀`);
  });

  it('emits sms.received with the message as GET /v1/sms/{smsId} answers it: its lead and messageThreadId', async () => {
    const { client, userId, leadId } = await organizationWithNumber();
    await client.post('/v1/sms', { userId, leadId, message: 'Can we come at 10?' });
    await reply('+61412345001', 'Yes, 10 works');
    const [received] = (await client.get('/v1/sms?status=RECEIVED')).body.messages;
    expect(received).toMatchObject({ leadId, direction: 'INBOUND', body: 'Yes, 10 works' });
    const [event] = (await client.get('/v1/events?type=sms.received')).body.events;
    expect(event.data).toEqual((await client.get(`/v1/sms/${received.id}`)).body.sms);
  });

  it('keeps a STOP from a phone whose lead is deleted while the reply is written: no inquiry, and a new lead with the phone is opted out', async () => {
    const { client, leadId } = await organizationWithNumber();
    const hold = holdWrite(/"STOP"/);
    const replied = reply('+61412345001', 'STOP');
    await hold.reached;
    expect((await client.delete(`/v1/leads/${leadId}`)).status).toBe(200);
    hold.release();
    await replied;
    expect((await client.get('/v1/inquiries?source=SMS')).body.totalCount).toBe(0);
    const again = (await client.post('/v1/leads', { name: 'Olivia Nguyen', phone: '+61412345001' })).body.lead;
    expect(again.smsOptedOut).toBe(true);
  });
});

describe('an SMS number belongs to one organization', () => {
  const setSender = (client: Client, smsSenderId: string | null) => client.patch('/v1/organization', { smsSenderId });
  const senderOf = async (client: Client) => (await client.get('/v1/organization')).body.organization.smsSenderId;
  const claimOf = async (number: string) => (await dynamo.send(new GetCommand({ TableName: config.tableName, Key: organizationKeys.smsNumberClaim(number), ConsistentRead: true }))).Item;
  /** A reply as the provider delivers it, through `npm start`'s simulator. */
  async function reply(from: string, to: string, body: string) {
    const res = await fetch(`${api.url}/local/sms/inbound`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ from, to, body }) });
    expect(res.status).toBe(202);
  }

  it("answers 409 SMS_SENDER_TAKEN naming smsSenderId for a number another organization has set, and changes nothing", async () => {
    const a = await organizationWithSender();
    const b = await organizationWithSender();
    expect((await setSender(a.client, '+61298880001')).status).toBe(200);
    expect((await setSender(b.client, 'HarbourPlb')).status).toBe(200);

    const taken = await b.client.patch('/v1/organization', { smsSenderId: '+61298880001', name: 'Renamed' });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('SMS_SENDER_TAKEN');
    expect(taken.body.message).toContain('smsSenderId');
    expect((await b.client.get('/v1/organization')).body.organization).toMatchObject({ smsSenderId: 'HarbourPlb', name: expect.not.stringMatching('Renamed') });
    expect(await senderOf(a.client)).toBe('+61298880001');
    // The claim names its holder and holds nothing else of it.
    expect(await claimOf('+61298880001')).toEqual({ pk: 'SMSNUMBER#+61298880001', sk: 'CLAIM', entity: 'SMS_NUMBER_CLAIM', organizationId: a.organizationId, claimedAt: expect.stringMatching(ISO_MS) });
  });

  it('lets an organization set its own number again, and two organizations share an alphanumeric sender id (it takes no replies)', async () => {
    const a = await organizationWithSender();
    const b = await organizationWithSender();
    expect((await setSender(a.client, '+61298880002')).status).toBe(200);
    expect((await setSender(a.client, ' +61298880002 ')).status).toBe(200);
    expect((await a.client.patch('/v1/organization', { name: 'Same number, new name' })).status).toBe(200);
    expect((await claimOf('+61298880002'))?.organizationId).toBe(a.organizationId);
    expect((await setSender(a.client, 'SameName')).status).toBe(200);
    expect((await setSender(b.client, 'SameName')).status).toBe(200);
    expect(await claimOf('SameName')).toBeUndefined();
  });

  it('frees the number an organization leaves, for another whose replies then reach only it', async () => {
    const a = await organizationWithSender();
    const b = await organizationWithSender();
    expect((await setSender(a.client, '+61298880003')).status).toBe(200);
    await reply('+61412345001', '+61298880003', 'To A');

    // Leaving by another number, then by null: each frees the number left.
    expect((await setSender(a.client, '+61298880004')).status).toBe(200);
    expect(await claimOf('+61298880003')).toBeUndefined();
    expect((await setSender(b.client, '+61298880003')).status).toBe(200);
    expect((await setSender(a.client, null)).status).toBe(200);
    expect(await claimOf('+61298880004')).toBeUndefined();
    expect((await setSender(b.client, '+61298880004')).status).toBe(200);
    expect(await claimOf('+61298880003')).toBeUndefined();
    expect((await setSender(a.client, '+61298880003')).status).toBe(200);
    expect((await setSender(b.client, '+61298880003')).status).toBe(409);

    // Both organizations have a lead with the replying phone; each reply reaches the number's holder alone.
    await reply('+61412345001', '+61298880003', 'To A again');
    await reply('+61412345001', '+61298880004', 'To B');
    await api.eventsCaughtUp();
    const summaries = async (sender: Sender) => (await inquiriesOf(sender.client, sender.leadId)).inquiries.map((inquiry: { summary: string }) => inquiry.summary).sort();
    expect(await summaries(a)).toEqual(['Inbound SMS: To A']);
    expect(await summaries(b)).toEqual(['Inbound SMS: To B']);
    const threadA = (await inquiriesOf(a.client, a.leadId)).inquiries[0].id;
    expect((await a.client.get(`/v1/inquiries/${threadA}`)).body.data.messages.map((message: { body: string }) => message.body)).toEqual(['To A', 'To A again']);
  });

  it('stores a number in its one E.164 form, a trunk 0 after the country code dropped, and claims that number', async () => {
    const a = await organizationWithSender();
    const b = await organizationWithSender();
    const set = await setSender(a.client, '+610298880006');
    expect(set.status).toBe(200);
    expect(set.body.organization.smsSenderId).toBe('+61298880006');
    expect(await senderOf(a.client)).toBe('+61298880006');
    expect((await claimOf('+61298880006'))?.organizationId).toBe(a.organizationId);
    expect(await claimOf('+610298880006')).toBeUndefined();
    // The same number written either way is the one number: another organization cannot take it.
    expect((await setSender(b.client, '+61298880006')).body.error?.code).toBe('SMS_SENDER_TAKEN');
    expect((await setSender(b.client, '+610298880006')).body.error?.code).toBe('SMS_SENDER_TAKEN');
    // Replies, which the provider addresses to the canonical number, reach it.
    await reply('+61412345001', '+61298880006', 'Canonical');
    await api.eventsCaughtUp();
    expect((await inquiriesOf(a.client, a.leadId)).inquiries.map((inquiry: { summary: string }) => inquiry.summary)).toEqual(['Inbound SMS: Canonical']);
  });

  it('takes a number for smsSenderId as people type it, claimed and kept in E.164, and answers 400 naming it for one that is no number', async () => {
    const a = await organizationWithSender();
    for (const smsSenderId of ['+61 2 9888 0007', '0298880007', '+61(0)298880007']) {
      const res = await setSender(a.client, smsSenderId);
      expect([smsSenderId, res.status]).toEqual([smsSenderId, 200]);
      expect(await senderOf(a.client)).toBe('+61298880007');
    }
    expect((await claimOf('+61298880007'))?.organizationId).toBe(a.organizationId);
    const res = await setSender(a.client, '+61 2 98');
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([expect.objectContaining({ path: 'smsSenderId' })]);
    expect(await senderOf(a.client)).toBe('+61298880007');
  });

  it('gives a number two organizations set at the same moment to exactly one of them', async () => {
    const contenders = await Promise.all([1, 2, 3, 4].map(() => organizationWithSender()));
    const answers = await Promise.all(contenders.map((sender) => setSender(sender.client, '+61298880005')));
    expect(answers.map((res) => res.status).sort()).toEqual([200, 409, 409, 409]);
    const winner = contenders[answers.findIndex((res) => res.status === 200)]!;
    expect((await claimOf('+61298880005'))?.organizationId).toBe(winner.organizationId);
    const senders = await Promise.all(contenders.map((sender) => senderOf(sender.client)));
    expect(senders.filter((sender) => sender === '+61298880005')).toHaveLength(1);
  });
});

describe('an opt-out belongs to the phone', () => {
  let numbers = 0;
  const LEAD_PHONE = '+61412345001';

  /** An organization with a number of its own (replies reach it), a member and a lead with LEAD_PHONE. */
  async function organizationWithNumber() {
    const number = `+612977700${String(++numbers).padStart(2, '0')}`;
    const sender = await organizationWithSender();
    expect((await sender.client.patch('/v1/organization', { smsSenderId: number })).status).toBe(200);
    return { ...sender, number };
  }
  async function reply(to: string, body: string, { from = LEAD_PHONE, inboundMessageId = randomUUID() } = {}) {
    return fetch(`${api.url}/local/sms/inbound`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ from, to, body, inboundMessageId }) });
  }
  const send = (sender: Sender, leadId: string, extra: Record<string, unknown> = {}) => sender.client.post('/v1/sms', { userId: sender.userId, leadId, message: `Hello ${randomUUID()}`, ...extra });

  afterEach(() => {
    dynamo.middlewareStack.remove('failTheOptOut');
  });

  it('refuses a send naming the existing thread of a lead who said STOP, and sends nothing', async () => {
    const sender = await organizationWithNumber();
    expect((await send(sender, sender.leadId)).status).toBe(201);
    const { threadId } = await threadOf(sender.client, sender.leadId);
    expect((await reply(sender.number, 'STOP')).status).toBe(202);
    const sentBefore = sentLocally.length;

    const refused = await send(sender, sender.leadId, { messageThreadId: threadId });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('OPTED_OUT');
    expect(sentLocally.length).toBe(sentBefore);
    const { inquiryId } = await threadOf(sender.client, sender.leadId);
    expect((await sender.client.get(`/v1/inquiries/${inquiryId}`)).body.data.messages.map((message: { direction: string }) => message.direction)).toEqual(['OUTBOUND', 'INBOUND']);
  });

  it('keeps a STOP past its lead: a lead deleted and created again with that phone starts opted out, until START', async () => {
    const sender = await organizationWithNumber();
    expect((await reply(sender.number, 'STOP')).status).toBe(202);
    expect((await sender.client.delete(`/v1/leads/${sender.leadId}`)).status).toBe(200);

    const again = await sender.client.post('/v1/leads', { name: 'Olivia Nguyen', email: 'olivia.again@example.com.au', phone: LEAD_PHONE });
    expect(again.body.lead.smsOptedOut).toBe(true);
    expect((await sender.client.get(`/v1/leads/${again.body.lead.id}`)).body.lead.smsOptedOut).toBe(true);
    const sentBefore = sentLocally.length;
    const refused = await send(sender, again.body.lead.id);
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('OPTED_OUT');
    expect(sentLocally.length).toBe(sentBefore);

    expect((await reply(sender.number, 'START')).status).toBe(202);
    expect((await sender.client.get(`/v1/leads/${again.body.lead.id}`)).body.lead.smsOptedOut).toBe(false);
    expect((await send(sender, again.body.lead.id)).status).toBe(201);
  });

  it('refuses an SMS to a lead whose phone said STOP even when the lead itself does not show it', async () => {
    const sender = await organizationWithNumber();
    expect((await reply(sender.number, 'STOP')).status).toBe(202);
    expect((await sender.client.get(`/v1/leads/${sender.leadId}`)).body.lead.smsOptedOut).toBe(true);
    // A lead that shared the phone before a phone belonged to one lead (the reply marked only the newest) does not show it.
    await dynamo.send(
      new UpdateCommand({ TableName: config.tableName, Key: leadKeys.lead(sender.organizationId, sender.leadId), UpdateExpression: 'SET smsOptedOut = :no', ExpressionAttributeValues: { ':no': false } }),
    );
    expect((await sender.client.get(`/v1/leads/${sender.leadId}`)).body.lead.smsOptedOut).toBe(false);
    const refused = await send(sender, sender.leadId);
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('OPTED_OUT');
  });

  it('opts out a phone that said STOP before any lead had it, and a lead given that phone later', async () => {
    const sender = await organizationWithNumber();
    expect((await reply(sender.number, 'STOP', { from: '+61412999001' })).status).toBe(202);
    const created = await sender.client.post('/v1/leads', { name: 'New Caller', email: 'new.caller@example.com.au', phone: '+61412999001' });
    expect(created.body.lead.smsOptedOut).toBe(true);
    expect((await sender.client.get(`/v1/leads/${sender.leadId}`)).body.lead.smsOptedOut).toBe(false);
    // A phone belongs to one lead: the new caller goes before another lead takes the phone.
    expect((await sender.client.delete(`/v1/leads/${created.body.lead.id}`)).status).toBe(200);
    const changed = await sender.client.patch(`/v1/leads/${sender.leadId}`, { phone: '+61412999001' });
    expect(changed.body.lead.smsOptedOut).toBe(true);
    expect((await send(sender, sender.leadId)).body.error.code).toBe('OPTED_OUT');
    // Back to a phone that never said STOP: the lead may be texted again.
    const back = await sender.client.patch(`/v1/leads/${sender.leadId}`, { phone: '+61412999002' });
    expect(back.body.lead.smsOptedOut).toBe(false);
    expect((await send(sender, sender.leadId)).status).toBe(201);
  });

  it("keeps each organization's opt-outs its own", async () => {
    const a = await organizationWithNumber();
    const b = await organizationWithNumber();
    expect((await reply(a.number, 'STOP')).status).toBe(202);
    expect((await send(a, a.leadId)).status).toBe(400);
    expect((await send(b, b.leadId)).status).toBe(201);
    expect((await b.client.get(`/v1/leads/${b.leadId}`)).body.lead).toMatchObject({ phone: LEAD_PHONE, smsOptedOut: false });
  });

  it('writes the opt-out with the reply: when that write fails, the redelivered STOP records the reply and the opt-out', async () => {
    const sender = await organizationWithNumber();
    let failures = 0;
    // Fails the first write of the opt-out, as a throttled table would (the stream's event writes are not it).
    dynamo.middlewareStack.add(
      (next, context) => async (args) => {
        const input = JSON.stringify(args.input);
        const write = context.commandName === 'UpdateItemCommand' || context.commandName === 'TransactWriteItemsCommand' || context.commandName === 'PutItemCommand';
        if (failures === 0 && write && (input.includes('smsOptedOut') || input.includes('SMSOPTOUT#'))) {
          failures++;
          throw Object.assign(new Error('Throughput exceeds the current capacity of your table'), { name: 'ProvisionedThroughputExceededException' });
        }
        return next(args);
      },
      { step: 'initialize', name: 'failTheOptOut' },
    );
    const inboundMessageId = randomUUID();
    vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    await reply(sender.number, 'STOP', { inboundMessageId });
    expect(failures).toBe(1);
    // SNS delivers again after a failure; the redelivery must not be taken for a repeat of a recorded reply.
    expect((await reply(sender.number, 'STOP', { inboundMessageId })).status).toBe(202);
    await api.eventsCaughtUp();
    expect((await sender.client.get(`/v1/leads/${sender.leadId}`)).body.lead).toMatchObject({ smsOptedOut: true, unreadSMS: 1 });
    expect((await send(sender, sender.leadId)).body.error.code).toBe('OPTED_OUT');
    expect((await eventsOfType(sender.client, 'sms.received')).length).toBe(1);
  });
});

async function eventsOfType(client: Client, type: string) {
  return (await client.get(`/v1/events?type=${type}`)).body.events as unknown[];
}
