import { BadRequestError, NotFoundError, SmsDeliveryError } from '../../shared/errors';
import { newId, now } from '../../shared/ids';
import { createInquiry } from '../inquiries/store';
import { appendSmsMessage, getThreadMessage, moveSmsStatus, optedOut, phoneNotOptedOut, readSmsParties } from './store';
import type { SmsMessage } from '../inquiries/schema';
import type { Lead } from '../leads/schema';
import type { SendSmsBody, Sms } from './schema';
import { logger } from '../../shared/observability';
import { smsSender } from '../../shared/sms/sender';

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
  const { lead, user, thread, senderId } = await readSmsParties(organizationId, { leadId: body.leadId, userId: body.userId, threadId: body.messageThreadId });
  if (!lead) throw new NotFoundError('Lead not found');
  if (!user) throw new NotFoundError('User not found');
  if (user.isDisabled) throw new BadRequestError('userId: the member is disabled and cannot send SMS', 'USER_DISABLED');
  if (body.messageThreadId !== undefined && thread?.leadId !== lead.id) throw new NotFoundError('Message thread not found');
  if (!lead.phone) throw new BadRequestError('leadId: the lead has no phone number to send an SMS to', 'LEAD_HAS_NO_PHONE');
  if (lead.smsOptedOut) throw optedOut();

  const createdAt = new Date();
  const messageId = newId('message', createdAt);
  const threadId = thread?.threadId ?? newId('thread', createdAt);
  const message: SmsMessage = { id: messageId, direction: 'OUTBOUND', status: 'QUEUED', body: body.message, userId: user.userId, createdAt: createdAt.toISOString() };
  const phone = lead.phone;
  const inquiryId = thread ? (await appendSmsMessage(organizationId, thread, message, phone), thread.inquiryId) : await openThread(organizationId, lead, phone, threadId, message);

  const sms = { organizationId, messageId, inquiryId, threadId, userId: user.userId, from: senderId, to: phone, body: body.message, createdAt: message.createdAt };
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
  const recorded: Sms = { id: messageId, direction: 'OUTBOUND', status: 'SENT', body: body.message, leadId: lead.id, userId: user.userId, messageThreadId: threadId, inquiryId, createdAt: message.createdAt, updatedAt: markedAt ?? message.createdAt };
  // Answered as stored, updatedAt included: as marked here, or else read back (still QUEUED, or as a receipt that got
  // there first left it). A read that fails answers it QUEUED rather than fail a send that has left.
  const readBack = markedAt ? undefined : await getThreadMessage(organizationId, inquiryId, messageId).catch(() => undefined);
  const answered = markedAt ? recorded : (readBack ?? { ...recorded, status: 'QUEUED' as const });
  return { messageId, threadId, inquiryId, sms: answered };
}

/** A new thread is an SMS inquiry of the lead, holding the first message. */
async function openThread(organizationId: string, lead: Lead, phone: string, threadId: string, message: SmsMessage): Promise<string> {
  const inquiry = await createInquiry(
    organizationId,
    {
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
    [phoneNotOptedOut(organizationId, phone)],
  );
  return inquiry.id;
}
