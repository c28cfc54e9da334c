import { inquiryKeys, toSmsMessageItem, type SmsThread } from '../inquiries/entity';
import { leadKeys } from '../leads/entity';
import { smsKeys } from './entity';
import type { SmsMessage } from '../inquiries/schema';
import type { Lead, LeadActivity } from '../leads/schema';
import { createInquiry, firstInquiryOfNewLead, readStateMove, smsMessageEffects, type NewInquiry } from '../inquiries/store';
import { config } from '#shared/config';
import { insertIfAbsent, transact, writeAlone, type TransactWrite } from '#shared/store/transact';
import { insertLeadOrFindHolders, LeadLostContact, smsOptOutWrite, type HeldContact } from '../leads/store';
import { TTL_ATTRIBUTE } from '#shared/table';
import { setFields } from '#shared/store/update-fields';
import { StaleWrite } from '#shared/store/versioned';

// Replies: what a lead's inbound text records, once however often the provider delivers it.

const INBOUND_MARKER_DAYS = 7;
/** A reply recorded already: its provider message id is taken. */
class InboundSmsRecorded extends Error {}

/**
 * The provider's id of an inbound message, taken in the transaction that records it: SNS delivers at least
 * once, and a redelivery (even at the same moment, into another thread) then records nothing.
 */
function inboundSmsMarker(organizationId: string, providerMessageId: string, message: SmsMessage): TransactWrite {
  // Kept long past any redelivery (SNS retries for hours), then expired so markers do not pile up.
  const expires = Math.floor(Date.parse(message.createdAt) / 1000) + INBOUND_MARKER_DAYS * 86_400;
  return insertIfAbsent({ ...smsKeys.inboundSms(organizationId, providerMessageId), entity: 'INBOUND_SMS', messageId: message.id, receivedAt: message.createdAt, [TTL_ATTRIBUTE]: expires }, () => new InboundSmsRecorded());
}

/** True once the write committed, false when the reply had been recorded before. */
function once(write: Promise<unknown>): Promise<boolean> {
  return write.then(
    () => true,
    (error: unknown) => {
      if (error instanceof InboundSmsRecorded) return false;
      throw error;
    },
  );
}

/** What a reply changes beyond its message: STOP (true) or START (false) sets the phone's opt-out. */
export interface InboundSmsEffects {
  phone: string;
  smsOptedOut?: boolean;
}

/** The phone's opt-out item as STOP or START leaves it, written with the reply. */
const optOutWrites = (organizationId: string, { phone, smsOptedOut }: InboundSmsEffects, at: string) => (smsOptedOut === undefined ? [] : [smsOptOutWrite(organizationId, phone, smsOptedOut, at)]);

/**
 * An inbound reply in an existing thread, with its marker and (for STOP or START) the lead's and the phone's opt-out,
 * in one transaction. The reply makes its thread's inquiry unread: a thread read until now counts on the lead as
 * unread again (`unreadSMS` counts unread SMS inquiries, as every unread count counts its source's), one already
 * unread counts once. Conditioned on the read state seen (a concurrent PATCH makes it read again). False when this
 * reply was recorded already (a provider delivering it twice): then nothing is written, opt-out included, as the
 * first delivery wrote it.
 */
export async function appendInboundSmsMessage(organizationId: string, thread: SmsThread & { isRead: boolean }, message: SmsMessage, providerMessageId: string, effects: InboundSmsEffects): Promise<boolean> {
  const at = new Date().toISOString();
  const optOut = effects.smsOptedOut === undefined ? {} : { ':optedOut': effects.smsOptedOut };
  const readStateChanged = () => new StaleWrite();
  // The inquiry shows its thread's messages, so the reply moves its updatedAt (and its place in the change log) too.
  // A thread read is unread again: the inquiry moves to the unread lists (an SMS inquiry has no call outcome).
  const moved = thread.isRead ? readStateMove(organizationId, { id: thread.inquiryId, source: 'SMS', callOutcome: null }, false) : undefined;
  const inquiry: TransactWrite = setFields(inquiryKeys.inquiry(organizationId, thread.inquiryId), { isRead: false, updatedAt: at, ...moved?.indexKeys }, {
    condition: { expression: 'isRead = :wasRead', values: { ':wasRead': thread.isRead } },
    onConditionFailed: readStateChanged,
  });
  // The reply found the lead by its phone: the lead must still have it, or the reply is looked up again.
  const lead: TransactWrite = {
    item: {
      Update: {
        TableName: config.tableName,
        Key: leadKeys.lead(organizationId, thread.leadId),
        UpdateExpression: `${thread.isRead ? 'ADD unreadSMS :one ' : ''}SET updatedAt = :updatedAt${effects.smsOptedOut === undefined ? '' : ', smsOptedOut = :optedOut'}`,
        ConditionExpression: 'attribute_exists(pk) AND phone = :phone',
        ExpressionAttributeValues: { ...(thread.isRead ? { ':one': 1 } : {}), ':updatedAt': at, ':phone': effects.phone, ...optOut },
      },
    },
    onConditionFailed: () => new LeadLostContact(),
  };
  return once(
    transact([
      inboundSmsMarker(organizationId, providerMessageId, message),
      insertIfAbsent(toSmsMessageItem(organizationId, thread, message), () => new InboundSmsRecorded()),
      ...smsMessageEffects(organizationId, thread, [message]),
      inquiry,
      ...(moved?.counters ?? []),
      lead,
      ...optOutWrites(organizationId, effects, message.createdAt),
    ]),
  );
}

/** A reply from a lead without a thread: a new SMS inquiry holding it, with its marker and opt-out, in one transaction. False as above. */
export async function openInboundSmsThread(organizationId: string, inquiry: NewInquiry & { source: 'SMS' }, lead: Pick<Lead, 'lastInquiryId' | 'lastInquiryDate'>, providerMessageId: string, effects: InboundSmsEffects): Promise<boolean> {
  const [message] = inquiry.data.messages;
  const leadChanges = effects.smsOptedOut === undefined ? undefined : { smsOptedOut: effects.smsOptedOut };
  const state = { lastInquiryId: lead.lastInquiryId, lastInquiryDate: lead.lastInquiryDate, holds: { kind: 'PHONE' as const, value: effects.phone } };
  return once(createInquiry(organizationId, inquiry, state, [inboundSmsMarker(organizationId, providerMessageId, message!), ...optOutWrites(organizationId, effects, message!.createdAt)], leadChanges));
}

/**
 * A first text from a phone no lead has: the new lead (with its LEAD_CREATED activity, its phone's claim and the
 * phone's opt-out, as every lead is created) and its first inquiry, an unread SMS thread holding the text, with the
 * text's marker, in one transaction; the lead item carries the inquiry as its latest from the start. Answers the lead
 * as written; `held` when a lead took the phone meanwhile (a concurrent first text), nothing written; undefined when
 * this text was recorded already.
 */
export async function openInboundSmsLead(
  organizationId: string,
  lead: Lead,
  activity: LeadActivity,
  inquiry: NewInquiry & { source: 'SMS'; id: string; createdAt: string },
  providerMessageId: string,
): Promise<{ lead: Lead } | { held: HeldContact[] } | undefined> {
  const [message] = inquiry.data.messages;
  const first = firstInquiryOfNewLead(organizationId, { ...inquiry, leadId: lead.id });
  return insertLeadOrFindHolders(organizationId, { ...lead, ...first.leadFields }, activity, [...first.writes, inboundSmsMarker(organizationId, providerMessageId, message!)]).catch((error: unknown) => {
    if (error instanceof InboundSmsRecorded) return undefined;
    throw error;
  });
}

/** STOP or START from a phone no lead has: the phone's opt-out alone, so a lead given that phone later takes it on. */
export async function setPhoneOptOut(organizationId: string, phone: string, smsOptedOut: boolean, at: string): Promise<void> {
  await writeAlone(smsOptOutWrite(organizationId, phone, smsOptedOut, at));
}
