import { afterEach, describe, expect, it, vi } from 'vitest';
import { dynamo } from '#shared/dynamo';
import { newId } from '#shared/ids';
import { logger } from '#shared/observability';
import { createInquiry } from '../inquiries/store';
import { sentLocally } from './local-provider';
import { applyReceipt } from './receipts';
import { settleUnansweredSms, UNANSWERED_AFTER_MS, UNANSWERED_REASON } from './unanswered';
import { useTestApi, type Client } from '../../test/support/api';
import { messageItem as storedMessage, senderOrganizations } from '../../test/support/sms';

// The scheduled jobs run in process, as `npm start` runs them, every quarter second here.
const api = useTestApi({ events: true, scheduleEveryMs: 250 });
const organizationWithSender = senderOrganizations(api);
const LOSE_THE_ANSWER = 'loseTheRecordingAnswer';
const MINUTE = 60_000;

async function messagesOf(client: Client, leadId: string) {
  const [inquiry] = (await client.get(`/v1/inquiries?leadId=${leadId}&source=SMS`)).body.inquiries;
  return { inquiryId: inquiry.id as string, messages: (await client.get(`/v1/inquiries/${inquiry.id}`)).body.data.messages as Array<{ id: string; status: string; body: string }> };
}

const eventTypes = async (client: Client) => {
  await api.eventsCaughtUp();
  return ((await client.get('/v1/events?limit=100')).body.events as Array<{ type: string }>).map((event) => event.type).filter((type) => type.startsWith('sms.')).reverse();
};

/**
 * POST /v1/sms whose recording transaction commits but whose answer is lost, the table unreachable from then on for
 * every call about the message: the send can neither read it back nor give it up, and answers 503.
 */
async function sendWithTheAnswerLost(sender: Awaited<ReturnType<typeof organizationWithSender>>, message: string) {
  let lost = 0;
  let messageId: string | undefined;
  const unreachable = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED' });
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const input = JSON.stringify(args.input);
      if (messageId && input.includes(messageId)) throw unreachable();
      const result = await next(args);
      if (lost === 0 && context.commandName === 'TransactWriteItemsCommand' && input.includes(message)) {
        lost++;
        messageId = /message_[0-9A-Z]{26}/.exec(input)?.[0];
        throw unreachable();
      }
      return result;
    },
    { step: 'initialize', name: LOSE_THE_ANSWER },
  );
  const res = await sender.client.post('/v1/sms', { userId: sender.userId, leadId: sender.leadId, message });
  dynamo.middlewareStack.remove(LOSE_THE_ANSWER);
  expect(lost).toBe(1);
  return res;
}

afterEach(() => {
  dynamo.middlewareStack.remove(LOSE_THE_ANSWER);
  vi.restoreAllMocks();
});

describe('SMS the provider never answered', () => {
  it('leaves an SMS whose send answered 503 QUEUED until 5 minutes have passed, then marks it FAILED and unconfirmed, with sms.failed', async () => {
    vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const sender = await organizationWithSender();
    const sentBefore = sentLocally.length;
    const res = await sendWithTheAnswerLost(sender, 'Recorded, never sent');
    expect(res.status).toBe(503);
    expect(sentLocally.length).toBe(sentBefore);
    const { inquiryId, messages } = await messagesOf(sender.client, sender.leadId);
    expect(messages).toMatchObject([{ status: 'QUEUED', body: 'Recorded, never sent' }]);
    const messageId = messages[0]!.id;

    // Not before 5 minutes: a send may still be waiting for its provider.
    await settleUnansweredSms(Date.now() + UNANSWERED_AFTER_MS - MINUTE);
    expect((await storedMessage(sender.organizationId, inquiryId, messageId)).status).toBe('QUEUED');

    expect(await settleUnansweredSms(Date.now() + UNANSWERED_AFTER_MS + MINUTE)).toBeGreaterThanOrEqual(1);
    const settled = await storedMessage(sender.organizationId, inquiryId, messageId);
    expect(settled).toMatchObject({ status: 'FAILED', unconfirmed: true, failureReason: UNANSWERED_REASON });
    expect(settled.gsi1pk).toBeUndefined();
    expect((await messagesOf(sender.client, sender.leadId)).messages).toMatchObject([{ id: messageId, status: 'FAILED' }]);
    expect(await eventTypes(sender.client)).toEqual(['sms.failed']);

    // Settled once: a later sweep finds nothing of it.
    await settleUnansweredSms(Date.now() + UNANSWERED_AFTER_MS + 2 * MINUTE);
    expect(await eventTypes(sender.client)).toEqual(['sms.failed']);
  });

  it('still records the send when a delivery receipt arrives after the sweep: SENT, then DELIVERED', async () => {
    vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const sender = await organizationWithSender();
    expect((await sendWithTheAnswerLost(sender, 'Left after all')).status).toBe(503);
    const { inquiryId, messages } = await messagesOf(sender.client, sender.leadId);
    const messageId = messages[0]!.id;
    await settleUnansweredSms(Date.now() + UNANSWERED_AFTER_MS + MINUTE);
    expect(await applyReceipt({ eventType: 'TEXT_DELIVERED', messageId: 'provider-1', context: { organizationId: sender.organizationId, inquiryId, messageId } })).toBe(true);
    const stored = await storedMessage(sender.organizationId, inquiryId, messageId);
    expect(stored).toMatchObject({ status: 'DELIVERED', providerMessageId: 'provider-1' });
    expect(stored.unconfirmed).toBeUndefined();
    expect(await eventTypes(sender.client)).toEqual(['sms.failed', 'sms.sent', 'sms.delivered']);
  });

  it('never touches an SMS the provider answered: it leaves the sweep’s index at its first status', async () => {
    const sender = await organizationWithSender();
    expect((await sender.client.post('/v1/sms', { userId: sender.userId, leadId: sender.leadId, message: 'Answered' })).status).toBe(201);
    const { inquiryId, messages } = await messagesOf(sender.client, sender.leadId);
    const stored = await storedMessage(sender.organizationId, inquiryId, messages[0]!.id);
    expect(stored.gsi1pk).toBeUndefined();
    await settleUnansweredSms(Date.now() + UNANSWERED_AFTER_MS + MINUTE);
    expect((await storedMessage(sender.organizationId, inquiryId, messages[0]!.id)).status).toMatch(/^(SENT|DELIVERED)$/);
  });

  it('is run by npm start in process: an SMS recorded QUEUED 10 minutes ago is settled without a request', async () => {
    const sender = await organizationWithSender();
    const createdAt = new Date(Date.now() - 10 * MINUTE);
    const messageId = newId('message', createdAt);
    const inquiry = await createInquiry(sender.organizationId, {
      source: 'SMS',
      leadId: sender.leadId,
      tag: 'FOLLOW_UP',
      summary: 'Outbound SMS: Stuck',
      isRead: true,
      createdAt: createdAt.toISOString(),
      data: { leadPhone: '+61412345001', messages: [{ id: messageId, direction: 'OUTBOUND', status: 'QUEUED', body: 'Stuck', userId: sender.userId, createdAt: createdAt.toISOString() }] },
    });
    await vi.waitFor(async () => expect((await storedMessage(sender.organizationId, inquiry.id, messageId)).status).toBe('FAILED'), { timeout: 10_000, interval: 100 });
    expect(await storedMessage(sender.organizationId, inquiry.id, messageId)).toMatchObject({ unconfirmed: true, failureReason: UNANSWERED_REASON });
  });
});
