import * as v from 'valibot';
import { Inquiry, type InquiryDataBySource, type InquirySource, type InquirySummary, type SmsData, type SmsMessage } from '../schemas/inquiries';
import { keys } from './keys';

/** What the INQUIRY item holds: the list fields plus the id the inquiry has in the system it came from. */
export type InquiryRecord = InquirySummary & { externalInquiryId: string | null };

/** The SOURCE item's data. An SMS thread's messages are items of their own, so a reply is one small write. */
export type StoredSourceData = { [S in InquirySource]: S extends 'SMS' ? Omit<SmsData, 'messages'> : InquiryDataBySource[S] }[InquirySource];

export interface SmsThread {
  threadId: string;
  leadId: string;
  inquiryId: string;
  createdAt: string;
}

export function toInquiryItem(organizationId: string, inquiry: InquiryRecord) {
  return {
    ...keys.inquiry(organizationId, inquiry.id),
    ...keys.inquiryIndexes(organizationId, inquiry),
    entity: 'INQUIRY',
    organizationId,
    ...inquiry,
  };
}

export function fromInquiryItem(item: Record<string, unknown>): InquiryRecord {
  const i = item as ReturnType<typeof toInquiryItem>;
  return {
    id: i.id,
    source: i.source,
    sourceId: i.sourceId,
    tag: i.tag,
    summary: i.summary,
    isFirstInquiry: i.isFirstInquiry,
    isRead: i.isRead,
    leadId: i.leadId,
    createdAt: i.createdAt,
    externalInquiryId: i.externalInquiryId ?? null,
  };
}

export function toInquirySourceItem(organizationId: string, inquiryId: string, source: InquirySource, data: StoredSourceData) {
  return { ...keys.inquirySource(organizationId, inquiryId), entity: 'INQUIRY_SOURCE', source, data };
}

export function toSmsMessageItem(organizationId: string, inquiryId: string, threadId: string, message: SmsMessage) {
  return { ...keys.inquiryMessage(organizationId, inquiryId, message.id), entity: 'SMS_MESSAGE', threadId, ...message };
}

function fromSmsMessageItem(item: Record<string, unknown>): SmsMessage {
  const i = item as ReturnType<typeof toSmsMessageItem>;
  return { id: i.id, direction: i.direction, status: i.status, body: i.body, userId: i.userId ?? null, createdAt: i.createdAt };
}

export function toThreadItem(organizationId: string, thread: SmsThread) {
  return { ...keys.thread(organizationId, thread.threadId), entity: 'SMS_THREAD', ...thread };
}

export function fromThreadItem(item: Record<string, unknown>): SmsThread {
  const i = item as ReturnType<typeof toThreadItem>;
  return { threadId: i.threadId, leadId: i.leadId, inquiryId: i.inquiryId, createdAt: i.createdAt };
}

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
