import { BadRequestError, NotFoundError } from '../errors';
import { newId } from '../ids';
import { createInquiry } from '../repositories/inquiries';
import { appendSmsMessage, readSmsParties } from '../repositories/sms';
import type { SmsMessage } from '../schemas/inquiries';
import type { SendSmsBody } from '../schemas/sms';
import { smsSender } from '../sms/sender';

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
}

/**
 * Validate, send, then record. Sending before recording means a provider failure leaves nothing
 * behind (no thread, no inquiry, no message claiming to be sent); the price is that a record
 * failing after the provider accepted the SMS (the lead deleted in between, or the function
 * stopped) leaves it sent but unrecorded (docs/decisions.md).
 */
export async function sendSms(organizationId: string, body: SendSmsBody): Promise<SentSms> {
  const { lead, user, thread } = await readSmsParties(organizationId, { leadId: body.leadId, userId: body.userId, threadId: body.messageThreadId });
  if (!lead) throw new NotFoundError('Lead not found');
  if (!user) throw new NotFoundError('User not found');
  if (user.isDisabled) throw new BadRequestError('userId: the member is disabled and cannot send SMS', 'USER_DISABLED');
  if (body.messageThreadId !== undefined && thread?.leadId !== lead.id) throw new NotFoundError('Message thread not found');
  if (!lead.phone) throw new BadRequestError('leadId: the lead has no phone number to send an SMS to', 'LEAD_HAS_NO_PHONE');

  const createdAt = new Date();
  const messageId = newId('message', createdAt);
  const threadId = thread?.threadId ?? newId('thread', createdAt);
  const sms = { organizationId, messageId, threadId, userId: user.userId, to: lead.phone, body: body.message, createdAt: createdAt.toISOString() };
  const receipt = await smsSender().send(sms);

  const message: SmsMessage = { id: messageId, direction: 'OUTBOUND', status: receipt.status, body: body.message, userId: user.userId, createdAt: sms.createdAt };
  if (thread) {
    await appendSmsMessage(organizationId, thread, message);
    return { messageId, threadId, inquiryId: thread.inquiryId };
  }
  const inquiry = await createInquiry(
    organizationId,
    {
      source: 'SMS',
      leadId: lead.id,
      tag: 'FOLLOW_UP',
      summary: summarize(body.message),
      // Written by the organization's own member, so there is nothing for them to read.
      isRead: true,
      externalInquiryId: null,
      createdAt: sms.createdAt,
      data: { id: threadId, leadPhone: lead.phone, messages: [message] },
    },
    { lastInquiryId: lead.lastInquiryId, lastInquiryDate: lead.lastInquiryDate },
  );
  return { messageId, threadId, inquiryId: inquiry.id };
}
