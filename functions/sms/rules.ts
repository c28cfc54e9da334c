import { BadRequestError, ConflictError, NotFoundError, ServiceUnavailableError, storeUnavailable, wasRefusedUnrun } from '#shared/errors';
import { newId, now, requestTime } from '#shared/ids';
import { createInquiry } from '../inquiries/store';
import { abandonSms, appendSmsMessage, getThreadMessage, moveSmsStatus, optedOut, phoneNotOptedOut, readSmsParties, SmsAbandoned, smsNotAbandoned, takeBackAbandoned } from './store';
import type { SmsMessage } from '../inquiries/schema';
import type { SmsThread } from '../inquiries/entity';
import type { TransactWrite } from '#shared/store/transact';
import type { Lead } from '../leads/schema';
import { SMS_NOT_RECORDED_MESSAGE, type SendSmsBody, type Sms } from './schema';
import { logger } from '#shared/observability';
import { SmsDeliveryError, smsSender } from './sender';
import { isTransientStoreError } from '#shared/store/transient';
import { backoff, contendedUntil } from '#shared/store/retry';

const SUMMARY_LENGTH = 140;

function summarize(message: string): string {
  const text = message.replace(/\s+/g, ' ').trim();
  // Cut by code point, never inside a surrogate pair (an emoji).
  const characters = [...text];
  return `Outbound SMS: ${characters.length > SUMMARY_LENGTH ? `${characters.slice(0, SUMMARY_LENGTH - 1).join('')}…` : text}`;
}

export interface SentSms {
  messageId: string;
  threadId: string;
  inquiryId: string;
  /** The message as recorded: SENT once the provider took it, QUEUED while that mark is not written. */
  sms: Sms;
}

/**
 * Validate, record, then send. The message is written QUEUED (with its thread and, for a new thread, the
 * inquiry, in one transaction) before the provider is called, so nothing ever leaves unrecorded; the
 * provider's answer then moves it to SENT, or to FAILED and a 502 (docs/decisions/sms.md#post-v1sms-order-validate-record-send). Once the provider
 * took it, the answer is a success whatever happens to the SENT mark.
 */
export async function sendSms(organizationId: string, body: SendSmsBody): Promise<SentSms> {
  const { lead, user, thread, senderId } = await readSmsParties(organizationId, { leadId: body.leadId, userId: body.userId, threadId: body.messageThreadId }).catch(unavailableIfTransient);
  if (!lead) throw new NotFoundError('Lead not found');
  if (!user) throw new NotFoundError('User not found');
  if (user.isDisabled) throw new BadRequestError('userId: the member is disabled and cannot send SMS', 'USER_DISABLED');
  if (body.messageThreadId !== undefined && thread?.leadId !== lead.id) throw new NotFoundError('Message thread not found');
  if (!lead.phone) throw new BadRequestError('leadId: the lead has no phone number to send an SMS to', 'LEAD_HAS_NO_PHONE');
  if (lead.smsOptedOut) throw optedOut();

  const createdAt = requestTime();
  const message: OutboundMessage = { id: newId('message', createdAt), direction: 'OUTBOUND', status: 'QUEUED', body: body.message, userId: user.userId, createdAt: createdAt.toISOString() };
  const outbound: Outbound = { organizationId, lead, phone: lead.phone, thread, ...threadIdsOf(thread, createdAt), senderId, message };
  return recordAndSend(outbound).catch(async (error: unknown) => {
    // An earlier attempt of this request gave the message up and answered 503, and its Idempotency-Key's claim stayed
    // (its release not written): this attempt has its ids, so the mark is its own to take back.
    if (!(error instanceof SmsAbandoned)) throw error;
    await takeBackAbandoned(organizationId, message.id).catch(unavailableIfTransient);
    return recordAndSend(outbound);
  });
}

/** An outbound message as recorded: an automation's carries the run that sent it. */
export type OutboundMessage = SmsMessage & { automationRunId?: string };

/** The thread a message joins, or the ids of the new thread (and its SMS inquiry) it opens. */
export const threadIdsOf = (thread: SmsThread | undefined, createdAt: Date) => ({ threadId: thread?.threadId ?? newId('thread', createdAt), inquiryId: thread?.inquiryId ?? newId('inquiry', createdAt) });

/** A message to record and send: to the lead's phone, in `thread` or a new one with these ids, from the organization's sender. */
export interface Outbound {
  organizationId: string;
  lead: Lead;
  phone: string;
  thread: SmsThread | undefined;
  threadId: string;
  inquiryId: string;
  senderId: string | null;
  message: OutboundMessage;
  /** Written in the transaction that records the message; a failed condition answers its write's error and records nothing. */
  also?: readonly TransactWrite[];
  /** Whether a record found after a failed write is this send's own (its answer lost); by default, any record of the message is. */
  recordedByThis?: () => Promise<boolean>;
}

/**
 * Records the message QUEUED exactly once, hands it to the provider, and marks it SENT; the provider refusing marks it
 * FAILED and throws SmsDeliveryError. What POST /v1/sms and an automation's step both send through.
 */
export async function recordAndSend(outbound: Outbound): Promise<SentSms> {
  const { organizationId, lead, phone, thread, threadId, inquiryId, senderId, message, also = [] } = outbound;
  const messageId = message.id;
  const recordedByThis = outbound.recordedByThis ?? (() => getThreadMessage(organizationId, inquiryId, messageId).then(Boolean, () => false));
  await recordOnce(organizationId, messageId, recordedByThis, () =>
    thread ? appendSmsMessage(organizationId, thread, message, phone, also) : openThread(organizationId, lead, phone, { inquiryId, threadId }, message, also),
  );

  const sms = { organizationId, messageId, inquiryId, threadId, userId: message.userId, from: senderId, to: phone, body: message.body, createdAt: message.createdAt };
  const sent = await smsSender()
    .send(sms)
    .catch(async (error: unknown) => {
      // The provider's answer stands even if recording it fails: a 500 here would invite sending it again.
      if (error instanceof SmsDeliveryError) {
        await moveSmsStatus(organizationId, inquiryId, messageId, 'QUEUED', 'FAILED', { failureReason: error.message, unconfirmed: error.unconfirmed || undefined }).catch((writeError: unknown) =>
          logger.error('SMS failed but not marked FAILED', { error: writeError, organizationId, inquiryId, messageId }),
        );
      }
      throw error;
    });
  // The SMS has left: an error here would make the member send it again. It stays QUEUED until its delivery
  // receipt records the send (functions/sms/receipts.ts).
  // Not moved (undefined): a receipt got there first and marked it SENT itself, or moved it on.
  const markedAt = await moveSmsStatus(organizationId, inquiryId, messageId, 'QUEUED', 'SENT', { providerMessageId: sent.providerMessageId }).catch((error: unknown) => {
    logger.error('SMS sent but not marked SENT: its delivery receipt will record the send', { error, organizationId, inquiryId, messageId, providerMessageId: sent.providerMessageId });
    return null;
  });
  const { automationRunId } = message;
  const recorded: Sms = {
    id: messageId,
    direction: 'OUTBOUND',
    status: 'SENT',
    body: message.body,
    leadId: lead.id,
    userId: message.userId,
    messageThreadId: threadId,
    inquiryId,
    createdAt: message.createdAt,
    updatedAt: markedAt ?? message.createdAt,
    ...(automationRunId ? { automationRunId } : {}),
  };
  // Answered as stored, updatedAt included: as marked here, or else read back (still QUEUED, or as a receipt that got
  // there first left it). A read that fails answers it QUEUED rather than fail a send that has left.
  const readBack = markedAt ? undefined : await getThreadMessage(organizationId, inquiryId, messageId).catch(() => undefined);
  const answered = markedAt ? recorded : (readBack ?? { ...recorded, status: 'QUEUED' as const });
  return { messageId, threadId, inquiryId, sms: answered };
}

/** How long a send keeps trying to record its message (its turn among other writes to the lead, or the store's answer), within the function's 15 s and before the provider's 6 s. */
export const RECORD_WITHIN_MS = 7_000;
/** What a send that could not be recorded in time asks the caller to wait. */
export const RECORD_RETRY_AFTER_SECONDS = 2;

const notRecorded = () => new ServiceUnavailableError(SMS_NOT_RECORDED_MESSAGE, RECORD_RETRY_AFTER_SECONDS);

/** A read before anything is written that the store failed to answer: nothing ran, so the caller may retry. */
function unavailableIfTransient(error: unknown): never {
  throw isTransientStoreError(error) ? notRecorded() : error;
}

/** Another request kept writing the lead (sends to it at once, a STOP or START) as often as the store's own retries tried. */
const lostItsTurn = (error: unknown) => error instanceof ConflictError && wasRefusedUnrun(error);

/**
 * Writes the message exactly once, or answers 503 having recorded nothing. A write that fails may still have
 * committed (an answer lost to a timeout, the SDK's retry of a write that had landed), so every failure asks
 * `recordedByThis` (the message read back by its key, for a send whose id is its own): yes, it was recorded by this
 * request, whatever the error said. No, a lost race or
 * a store that did not answer is tried again, with the same ids, after a jittered backoff: sends to one lead queue
 * rather than fail, and the message item, put only where absent, keeps a late commit of an earlier try from making a
 * second copy. Past RECORD_WITHIN_MS the send gives the message up (`abandonSms`) and answers 503 with Retry-After
 * (STORE_UNAVAILABLE when even that mark could not be written: a try may land yet); any other failure is the write's
 * answer (404, 400 OPTED_OUT).
 */
async function recordOnce(organizationId: string, messageId: string, recordedByThis: () => Promise<boolean>, write: () => Promise<unknown>): Promise<void> {
  const deadline = Date.now() + RECORD_WITHIN_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      // A write that keeps meeting other writes to the lead retries only until the send's own deadline.
      await contendedUntil(deadline, write);
      return;
    } catch (error) {
      // A read that fails too leaves it unknown: the next try's put, only where the message is absent, settles it.
      if (await recordedByThis()) return;
      const retryable = isTransientStoreError(error) || lostItsTurn(error);
      if (!retryable) throw error;
      if (Date.now() >= deadline) {
        // A try that lost its answer may still land: after the mark none can, so unless one landed first, nothing is recorded.
        const marked = await abandonSms(organizationId, messageId).then(
          () => true,
          () => false,
        );
        if (await recordedByThis()) return;
        // Unmarked, a try still on its way may land yet: the outcome is unknown, so the send's Idempotency-Key waits for
        // a later attempt of it (the same ids), which meets what landed, rather than being let go for a send anew.
        if (!marked) throw storeUnavailable();
        throw notRecorded();
      }
      await backoff(attempt, 50, 1_000);
    }
  }
}

/** A new thread is an SMS inquiry of the lead, holding the first message; its ids are the send's, so a retry writes the same records. */
async function openThread(organizationId: string, lead: Lead, phone: string, { inquiryId, threadId }: { inquiryId: string; threadId: string }, message: OutboundMessage, also: readonly TransactWrite[]): Promise<void> {
  await createInquiry(
    organizationId,
    {
      id: inquiryId,
      source: 'SMS',
      leadId: lead.id,
      tag: 'FOLLOW_UP',
      summary: summarize(message.body),
      // Written by the organization's own member, so there is nothing for them to read.
      isRead: true,
      externalInquiryId: null,
      createdAt: message.createdAt,
      data: { id: threadId, leadPhone: phone, messages: [message] },
    },
    { lastInquiryId: lead.lastInquiryId, lastInquiryDate: lead.lastInquiryDate },
    [phoneNotOptedOut(organizationId, phone), smsNotAbandoned(organizationId, message.id), ...also],
  );
}
