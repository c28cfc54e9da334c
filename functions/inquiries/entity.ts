import * as v from 'valibot';
import { Inquiry, InquirySummary, SmsMessage, type InquiryDataBySource, type InquirySource, type SmsData } from './schema';
import { indexKeysSortedBy, organizationPartition, SAMPLE_ORGANIZATION_ID, type Collection, type Key, type KeySamples } from '#shared/store/keys';
import { shardCounters } from '#shared/store/counter-shards';
import { changeLogKey } from '#shared/store/keys';
import { now } from '#shared/ids';
import { leadKeys } from '../leads/entity';
import type { AuditedRecord } from '#shared/resource';

const org = organizationPartition;

const readState = (isRead: boolean) => (isRead ? 'READ' : 'UNREAD');

export const inquiryKeys = {
  /**
   * An inquiry's item collection: the summary (INQUIRY), its populated source record (SOURCE) and,
   * for SMS, its messages (MESSAGE#<ulid>). A single read is one Query of this partition.
   */
  inquiry: (o: string, inquiryId: string): Key => ({ pk: `${org(o)}#INQUIRY#${inquiryId}`, sk: 'INQUIRY' }),
  inquirySource: (o: string, inquiryId: string): Key => ({ pk: `${org(o)}#INQUIRY#${inquiryId}`, sk: 'SOURCE' }),
  inquiryMessage: (o: string, inquiryId: string, messageId: string): Key => ({ pk: `${org(o)}#INQUIRY#${inquiryId}`, sk: `MESSAGE#${messageId}` }),
  inquiryCollection: (o: string, inquiryId: string): Collection => ({ pk: `${org(o)}#INQUIRY#${inquiryId}` }),
  /**
   * The three list indexes of an inquiry summary: all of them, by source, by lead. A lead's inquiries of one source
   * are read from the lead's partition and filtered: a lead has tens of inquiries, and a fourth index copy of every
   * inquiry would cost each one more write.
   */
  inquiryIndexes: (o: string, inquiry: { id: string; source: string; leadId: string }) =>
    indexKeysSortedBy(inquiry.id, { gsi1: `${org(o)}#INQUIRIES`, gsi2: `${org(o)}#INQUIRIES#SOURCE#${inquiry.source}`, gsi3: `${org(o)}#INQUIRIES#LEAD#${inquiry.leadId}` }),
  /**
   * The read-state list indexes of an inquiry summary: every inquiry read, or unread (gsi4), and by source (gsi5).
   * Unlike the three above, their partitions move with the read state: marking an inquiry read moves it from the
   * UNREAD partitions to the READ ones in the same write.
   */
  inquiryReadStateIndexes: (o: string, inquiry: { id: string; source: string; isRead: boolean }) =>
    indexKeysSortedBy(inquiry.id, { gsi4: `${org(o)}#INQUIRIES#${readState(inquiry.isRead)}`, gsi5: `${org(o)}#INQUIRIES#SOURCE#${inquiry.source}#${readState(inquiry.isRead)}` }),
  /** An ingested inquiry's id in the system it came from, per source → the inquiry: a repeat answers the first. */
  externalInquiry: (o: string, source: string, externalId: string): Key => ({ pk: org(o), sk: `EXTINQUIRY#${source}#${externalId}` }),
  /** SMS thread → its lead and inquiry, for appending to a thread. */
  thread: (o: string, threadId: string): Key => ({ pk: org(o), sk: `THREAD#${threadId}` }),
  /**
   * gsi1 of an SMS message item: outbound SMS recorded QUEUED that no provider answer has moved yet, across
   * organizations (the sweep that settles them serves no organization's request), by when they were recorded.
   * Spread over a few partitions; a message leaves the index at its first status move.
   */
  smsAwaitingProvider: (shard: number, createdAt = '', messageId = '') => ({ gsi1pk: `SMSQUEUED#${shard}`, gsi1sk: `${createdAt}#${messageId}` }),
  /**
   * The SMS list indexes of a message item (GET /v1/sms): every message (gsi2, also how one is read by its id), by
   * status (gsi3, moved with the status), by lead (gsi4) and by thread (gsi5); every sort key the message id, newest first.
   */
  smsMessageIndexes: (o: string, message: { id: string; status: string; leadId: string; threadId: string }) =>
    indexKeysSortedBy(message.id, {
      gsi2: `${org(o)}#SMS`,
      gsi3: `${org(o)}#SMS#STATUS#${message.status}`,
      gsi4: `${org(o)}#SMS#LEAD#${message.leadId}`,
      gsi5: `${org(o)}#SMS#THREAD#${message.threadId}`,
    }),
} as const;

/** The names of the SMS messages' counter items: every message, per status (moved with it), per lead and per thread. */
export const smsCounterNames = {
  messages: ({ status, leadId, threadId }: { status?: string; leadId?: string; threadId?: string } = {}) =>
    ['SMS', ...(leadId ? [`LEAD#${leadId}`] : []), ...(threadId ? [`THREAD#${threadId}`] : []), ...(status ? [`STATUS#${status}`] : [])].join('#'),
} as const;

// Every message of a busy organization moves these (all messages, and its status's): they may shard.
shardCounters(/^SMS(#STATUS#[A-Z]+)?$/);

/** The names of the inquiries' counter items (`COUNT#<name>`). */
export const inquiryCounterNames = {
  /**
   * One counter per inquiry list, so every totalCount is one read: all, by lead, by source, by call outcome, and each
   * of these but the lead's by read state (`isRead`). A lead's inquiries filtered further are counted as read.
   */
  inquiries: ({ leadId, source, callOutcome, isRead }: { leadId?: string; source?: string; callOutcome?: string; isRead?: boolean } = {}) =>
    ['INQUIRIES', ...(leadId ? [`LEAD#${leadId}`] : []), ...(source ? [`SOURCE#${source}`] : []), ...(callOutcome ? [`OUTCOME#${callOutcome}`] : []), ...(isRead === undefined ? [] : [readState(isRead)])].join('#'),
/** A lead's inquiries with a flagging tag: hasFlaggedInquiry is whether it is above zero. */
  flaggedInquiries: (leadId: string) => `FLAGGED#${leadId}`,
} as const;

// Every inquiry of a busy organization writes the list's counters (all inquiries, and its source's): they may shard.
shardCounters(/^INQUIRIES(#SOURCE#[A-Z]+)?(#OUTCOME#[A-Z]+)?(#(UN)?READ)?$/);

const O = SAMPLE_ORGANIZATION_ID;

export const inquiryKeySamples: KeySamples<typeof inquiryKeys> = {
  inquiry: () => inquiryKeys.inquiry(O, 'inquiry_1'),
  inquirySource: () => inquiryKeys.inquirySource(O, 'inquiry_1'),
  inquiryMessage: () => inquiryKeys.inquiryMessage(O, 'inquiry_1', 'message_1'),
  inquiryCollection: () => inquiryKeys.inquiryCollection(O, 'inquiry_1'),
  inquiryIndexes: () => inquiryKeys.inquiryIndexes(O, { id: 'inquiry_1', source: 'CALL', leadId: 'lead_1' }),
  inquiryReadStateIndexes: () => inquiryKeys.inquiryReadStateIndexes(O, { id: 'inquiry_1', source: 'CALL', isRead: false }),
  externalInquiry: () => inquiryKeys.externalInquiry(O, 'CALL', 'call-123'),
  thread: () => inquiryKeys.thread(O, 'thread_1'),
  smsAwaitingProvider: () => inquiryKeys.smsAwaitingProvider(2, '2026-12-01T00:00:00.000Z', 'message_1'),
  smsMessageIndexes: () => inquiryKeys.smsMessageIndexes(O, { id: 'message_1', status: 'QUEUED', leadId: 'lead_1', threadId: 'thread_1' }),
};

/** What the INQUIRY item holds: the list fields plus the id the inquiry has in the system it came from. */
export const InquiryRecord = v.object({ ...InquirySummary.entries, externalInquiryId: v.nullable(v.string()) });
export type InquiryRecord = v.InferOutput<typeof InquiryRecord>;

/** The SOURCE item's data. An SMS thread's messages are items of their own, so a reply is one small write. */
export type StoredSourceData = { [S in InquirySource]: S extends 'SMS' ? Omit<SmsData, 'messages'> : InquiryDataBySource[S] }[InquirySource];

/** An SMS thread → its lead and inquiry, for appending to the thread. */
export const SmsThread = v.object({ threadId: v.string(), leadId: v.string(), inquiryId: v.string(), createdAt: v.string() });
export type SmsThread = v.InferOutput<typeof SmsThread>;

/** The change logs (updatedSince) of the inquiries and of the SMS messages. */
export const INQUIRY_CHANGES = 'INQUIRIES';
export const SMS_CHANGES = 'SMS';

/** `internal`: what the item keeps for the reports and no read answers (a call's length, direction, whether after hours; who at the organization started it). */
export function toInquiryItem(organizationId: string, inquiry: InquiryRecord, internal: Record<string, unknown> = {}) {
  return {
    ...inquiryKeys.inquiry(organizationId, inquiry.id),
    ...inquiryKeys.inquiryIndexes(organizationId, inquiry),
    ...inquiryKeys.inquiryReadStateIndexes(organizationId, inquiry),
    ...changeLogKey(organizationId, INQUIRY_CHANGES),
    entity: 'INQUIRY',
    ...internal,
    ...inquiry,
  };
}

export const fromInquiryItem = (item: Record<string, unknown>): InquiryRecord => v.parse(InquiryRecord, item);

export function toInquirySourceItem(organizationId: string, inquiryId: string, source: InquirySource, data: StoredSourceData) {
  return { ...inquiryKeys.inquirySource(organizationId, inquiryId), entity: 'INQUIRY_SOURCE', source, data };
}

/** Partitions of the index of SMS awaiting their provider's answer. */
export const SMS_AWAITING_SHARDS = 4;

/** A message's partition of that index, from the random end of its ULID. */
const awaitingShardOf = (messageId: string) => messageId.charCodeAt(messageId.length - 1) % SMS_AWAITING_SHARDS;

/**
 * An outbound message is QUEUED until the provider answers; while it is, the sweep's index holds it. The SMS
 * list indexes hold it for good; it carries its lead and inquiry, so it reads back whole on its own.
 */
export function toSmsMessageItem(organizationId: string, { inquiryId, threadId, leadId }: { inquiryId: string; threadId: string; leadId: string }, message: SmsMessage) {
  const awaiting = message.direction === 'OUTBOUND' && message.status === 'QUEUED' ? inquiryKeys.smsAwaitingProvider(awaitingShardOf(message.id), message.createdAt, message.id) : {};
  const listed = inquiryKeys.smsMessageIndexes(organizationId, { id: message.id, status: message.status, leadId, threadId });
  return { ...inquiryKeys.inquiryMessage(organizationId, inquiryId, message.id), ...awaiting, ...listed, ...changeLogKey(organizationId, SMS_CHANGES), entity: 'SMS_MESSAGE', threadId, leadId, inquiryId, ...message, updatedAt: now() };
}

/**
 * A lead's conversation item (`leadKeys.conversation`) as the latest of `messages` leaves it: that message, and its
 * place in the organization's conversations (gsi1), and the SMS inquiry holding its thread. The message last recorded
 * is the conversation's latest.
 */
export function toConversationItem(organizationId: string, { leadId, inquiryId }: { leadId: string; inquiryId: string }, messages: readonly SmsMessage[]) {
  const latest = messages.reduce((a, b) => (b.createdAt >= a.createdAt ? b : a));
  const { id, direction, body, userId, createdAt } = latest;
  return {
    ...leadKeys.conversation(organizationId, leadId),
    gsi1pk: leadKeys.conversations(organizationId).pk,
    gsi1sk: `${createdAt}#${leadId}`,
    entity: 'CONVERSATION',
    leadId,
    lastMessage: { id, direction, body, userId, at: createdAt, inquiryId },
  };
}

/** Where a message item sits: `ORG#<org>#INQUIRY#<inquiryId>` / `MESSAGE#<messageId>`. */
export function smsMessageRefOf(item: Record<string, unknown>): { organizationId: string; inquiryId: string; messageId: string } {
  const [, organizationId, , inquiryId] = String(item.pk).split('#');
  return { organizationId: organizationId!, inquiryId: inquiryId!, messageId: String(item.sk).slice('MESSAGE#'.length) };
}

const fromSmsMessageItem = (item: Record<string, unknown>): SmsMessage => v.parse(SmsMessage, item);

export function toThreadItem(organizationId: string, thread: SmsThread) {
  return { ...inquiryKeys.thread(organizationId, thread.threadId), entity: 'SMS_THREAD', ...thread };
}

export const fromThreadItem = (item: Record<string, unknown>): SmsThread => v.parse(SmsThread, item);

/** The single-read object from the items of one inquiry collection (INQUIRY, MESSAGE#…, SOURCE). */
export function fromInquiryCollection(items: Record<string, unknown>[]): Inquiry | undefined {
  const summary = items.find((item) => item.entity === 'INQUIRY');
  const source = items.find((item) => item.entity === 'INQUIRY_SOURCE');
  if (!summary || !source) return undefined;
  const { sourceId: _sourceId, externalInquiryId: _external, ...fields } = fromInquiryItem(summary);
  const stored = source.data as StoredSourceData;
  const data =
    fields.source === 'SMS'
      ? {
          ...stored,
          messages: items
            .filter((item) => item.entity === 'SMS_MESSAGE')
            .map(fromSmsMessageItem)
            .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id)),
        }
      : stored;
  // Parsed by the response schema: the stored map's attribute order is DynamoDB's, the answer's is the documented one.
  return v.parse(Inquiry, { ...fields, data });
}

/** An inquiry, as the audit log names it (GET /v1/audit-log). */
export const inquiryAudit: AuditedRecord = { entity: 'INQUIRY', resourceType: 'inquiry' };
