import * as v from 'valibot';
import { Inquiry, InquirySummary, SmsMessage, type InquiryDataBySource, type InquirySource, type SmsData } from './schema';
import { keys } from '../../shared/store/keys';

/** What the INQUIRY item holds: the list fields plus the id the inquiry has in the system it came from. */
export const InquiryRecord = v.object({ ...InquirySummary.entries, externalInquiryId: v.nullable(v.string()) });
export type InquiryRecord = v.InferOutput<typeof InquiryRecord>;

/** The SOURCE item's data. An SMS thread's messages are items of their own, so a reply is one small write. */
export type StoredSourceData = { [S in InquirySource]: S extends 'SMS' ? Omit<SmsData, 'messages'> : InquiryDataBySource[S] }[InquirySource];

/** An SMS thread → its lead and inquiry, for appending to the thread. */
export const SmsThread = v.object({ threadId: v.string(), leadId: v.string(), inquiryId: v.string(), createdAt: v.string() });
export type SmsThread = v.InferOutput<typeof SmsThread>;

export function toInquiryItem(organizationId: string, inquiry: InquiryRecord) {
  return {
    ...keys.inquiry(organizationId, inquiry.id),
    ...keys.inquiryIndexes(organizationId, inquiry),
    entity: 'INQUIRY',
    organizationId,
    ...inquiry,
  };
}

export const fromInquiryItem = (item: Record<string, unknown>): InquiryRecord => v.parse(InquiryRecord, item);

export function toInquirySourceItem(organizationId: string, inquiryId: string, source: InquirySource, data: StoredSourceData) {
  return { ...keys.inquirySource(organizationId, inquiryId), entity: 'INQUIRY_SOURCE', source, data };
}

/** Partitions of the index of SMS awaiting their provider's answer. */
export const SMS_AWAITING_SHARDS = 4;

/** A message's partition of that index, from the random end of its ULID. */
const awaitingShardOf = (messageId: string) => messageId.charCodeAt(messageId.length - 1) % SMS_AWAITING_SHARDS;

/** An outbound message is QUEUED until the provider answers; while it is, the sweep's index holds it. */
export function toSmsMessageItem(organizationId: string, inquiryId: string, threadId: string, message: SmsMessage) {
  const awaiting = message.direction === 'OUTBOUND' && message.status === 'QUEUED' ? keys.smsAwaitingProvider(awaitingShardOf(message.id), message.createdAt, message.id) : {};
  return { ...keys.inquiryMessage(organizationId, inquiryId, message.id), ...awaiting, entity: 'SMS_MESSAGE', threadId, ...message };
}

/** Where a message item sits: `ORG#<org>#INQUIRY#<inquiryId>` / `MESSAGE#<messageId>`. */
export function smsMessageRefOf(item: Record<string, unknown>): { organizationId: string; inquiryId: string; messageId: string } {
  const [, organizationId, , inquiryId] = String(item.pk).split('#');
  return { organizationId: organizationId!, inquiryId: inquiryId!, messageId: String(item.sk).slice('MESSAGE#'.length) };
}

const fromSmsMessageItem = (item: Record<string, unknown>): SmsMessage => v.parse(SmsMessage, item);

export function toThreadItem(organizationId: string, thread: SmsThread) {
  return { ...keys.thread(organizationId, thread.threadId), entity: 'SMS_THREAD', ...thread };
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
