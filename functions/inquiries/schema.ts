import * as v from 'valibot';
import { LeadSummary } from '../leads/summaries';
import { Instant, PageQuery, PrefixedId, Timestamp, pageSchema } from '#shared/schema';
import { callAnalysisRecord, callOutcomeRecord } from './call-analysis';
import { booleanString } from '#shared/filters';

import { INQUIRY_SOURCES, INQUIRY_TAGS, type InquiryTag } from './kinds';
import { INQUIRY_STARTERS } from './started-by';

export { INQUIRY_SOURCES, INQUIRY_TAGS, type InquirySource, type InquiryTag } from './kinds';

export const INQUIRY_EXPANSIONS = ['external', 'lead', 'both'] as const;
export type InquiryExpansion = (typeof INQUIRY_EXPANSIONS)[number];

/** An inquiry with one of these tags sets its lead's hasFlaggedInquiry. */
export const FLAGGING_TAGS: readonly InquiryTag[] = ['FLAGGED', 'EMERGENCY'];

/** How an inbound call went for the business: docs/inquiry-sources.md, "Call outcome". */
export const CALL_OUTCOMES = ['ANSWERED', 'MISSED', 'TRANSFERRED'] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];

const CALL_OUTCOME_RULE =
  'A call the lead made, first match: MISSED if the sender says `missed: true`; TRANSFERRED if handed over; MISSED if the platform ended it unserved or the caller hung up in under 15 s; else ANSWERED. Null otherwise (docs/inquiry-sources.md).';

const count = v.pipe(v.number(), v.integer());
const list = (values: readonly string[]) => values.join(', ');

export const ListInquiriesQuery = v.pipe(
  v.object({
    ...PageQuery.entries,
    leadId: v.optional(PrefixedId('lead', 'leadId')),
    source: v.optional(v.picklist(INQUIRY_SOURCES, `source must be one of ${list(INQUIRY_SOURCES)}`)),
    expand: v.optional(v.picklist(INQUIRY_EXPANSIONS, `expand must be one of ${list(INQUIRY_EXPANSIONS)}`)),
    createdSince: v.optional(
      Instant('createdSince', 'Only the inquiries created (`createdAt`) at or after this instant, newest first; combines with the other filters, and `totalCount` counts them. Not with `updatedSince`.'),
    ),
    createdBefore: v.optional(
      Instant('createdBefore', 'Only the inquiries created (`createdAt`) before this instant, newest first: with `createdSince`, a window (a report’s day or month). Combines with the other filters, and `totalCount` counts them. Not with `updatedSince`.'),
    ),
    isRead: v.optional(v.pipe(booleanString('isRead'), v.description('Only the inquiries read (`true`) or unread (`false`): the inbox. Combines with the other filters; not with `updatedSince`.'))),
    callOutcome: v.optional(
      v.pipe(
        v.picklist(CALL_OUTCOMES, `callOutcome must be one of ${list(CALL_OUTCOMES)}`),
        v.description('Only the calls of this outcome (the missed calls to return): implies `source=CALL`, and another source answers 400. Combines with the other filters; not with `updatedSince`.'),
      ),
    ),
    startedBy: v.optional(
      v.pipe(
        v.picklist(INQUIRY_STARTERS, `startedBy must be one of ${list(INQUIRY_STARTERS)}`),
        v.description(
          'Only the inquiries the lead started (`LEAD`: a text, a call, a form, an email, a chat), or the business ' +
            '(`BUSINESS`: a thread opened by a member’s or an automation’s text, a call the receptionist made to the lead), as the ' +
            'reports count them. Needs `createdSince` or `createdBefore`, and combines with nothing else but `expand`.',
        ),
      ),
    ),
  }),
  // Read over the window of creation it needs, filtered there: the other filters each read a partition of their own.
  v.forward(
    v.check((query) => query.startedBy === undefined || query.createdSince !== undefined || query.createdBefore !== undefined, 'startedBy needs createdSince or createdBefore'),
    ['startedBy'],
  ),
  v.forward(
    v.check((query) => query.startedBy === undefined || [query.leadId, query.source, query.isRead, query.callOutcome].every((filter) => filter === undefined), 'startedBy cannot be combined with leadId, source, isRead or callOutcome'),
    ['startedBy'],
  ),
);
export type ListInquiriesQuery = v.InferOutput<typeof ListInquiriesQuery>;

export const InquiryIdPath = v.object({ inquiryId: PrefixedId('inquiry', 'inquiryId') });


const inquiryFields = {
  id: v.string(),
  source: v.picklist(INQUIRY_SOURCES),
  tag: v.picklist(INQUIRY_TAGS),
  summary: v.string(),
  /** An inquiry recorded before the outcome was kept reads null. */
  callOutcome: v.optional(v.pipe(v.nullable(v.picklist(CALL_OUTCOMES)), v.description(CALL_OUTCOME_RULE)), null),
  isFirstInquiry: v.boolean(),
  isRead: v.boolean(),
  leadId: v.string(),
  createdAt: Timestamp,
  /** When it was recorded or last changed (read state, tag): the sync order. An inquiry given an earlier createdAt is still recorded now. */
  updatedAt: Timestamp,
};

export const InquirySummary = v.object({ ...inquiryFields, sourceId: v.string() });
export type InquirySummary = v.InferOutput<typeof InquirySummary>;

export const InquiryListItem = v.object({
  ...InquirySummary.entries,
  /** expand=external or both. */
  externalInquiryId: v.optional(v.nullable(v.string())),
  /** expand=lead or both; null when the lead has been deleted. */
  lead: v.optional(v.nullable(LeadSummary)),
});
export type InquiryListItem = v.InferOutput<typeof InquiryListItem>;

export const InquiryPage = pageSchema('inquiries', InquiryListItem);

// The populated source records (`data` of a single read), one shape per source.

export const CALL_DIRECTIONS = ['LEAD_TO_AI', 'AI_TO_LEAD'] as const;
export const CALL_PARTIES = ['user', 'assistant'] as const;

export const TranscriptEntry = v.object({
  id: v.string(),
  created_at: Timestamp,
  text: v.string(),
  user: v.picklist(CALL_PARTIES),
});

export const CallData = v.object({
  id: v.string(),
  summary: v.string(),
  keyPoints: v.array(v.string()),
  /** Null when the call was not recorded (a voice platform with recording off). */
  recordingUrl: v.nullable(v.pipe(v.string(), v.url())),
  transcripts: v.array(TranscriptEntry),
  /** A call recorded before the flag existed reads as whole. */
  transcriptTruncated: v.optional(v.pipe(v.boolean(), v.description('True when `transcripts` holds only the first lines of the call: the sender cut it, or it was longer than the record holds (about 400 KB). The rest of the call (summary, numbers, times) is whole.')), false),
  direction: v.picklist(CALL_DIRECTIONS),
  /** Seconds. */
  duration: count,
  startedAt: Timestamp,
  endedAt: Timestamp,
  endedBy: v.picklist(CALL_PARTIES),
  ...callAnalysisRecord,
  ...callOutcomeRecord,
});
export type CallData = v.InferOutput<typeof CallData>;

export const EmailData = v.object({
  id: v.string(),
  subject: v.string(),
  from: v.string(),
  to: v.string(),
  body: v.string(),
  receivedAt: Timestamp,
});
export type EmailData = v.InferOutput<typeof EmailData>;

export const ChatMessage = v.object({
  id: v.string(),
  role: v.picklist(CALL_PARTIES),
  text: v.string(),
  createdAt: Timestamp,
});

export const ChatbotData = v.object({
  id: v.string(),
  messages: v.array(ChatMessage),
  startedAt: Timestamp,
  /** Null while the conversation is still open. */
  endedAt: v.nullable(Timestamp),
});
export type ChatbotData = v.InferOutput<typeof ChatbotData>;

export const SMS_DIRECTIONS = ['INBOUND', 'OUTBOUND'] as const;
/** QUEUED/SENT/DELIVERED/FAILED for outbound messages, RECEIVED for inbound ones. */
export const SMS_STATUSES = ['QUEUED', 'SENT', 'DELIVERED', 'FAILED', 'RECEIVED'] as const;
export type SmsStatus = (typeof SMS_STATUSES)[number];

export const SmsMessage = v.object({
  id: v.string(),
  direction: v.picklist(SMS_DIRECTIONS),
  status: v.picklist(SMS_STATUSES),
  body: v.string(),
  /** The member's user who sent an outbound message; null for inbound ones. */
  userId: v.nullable(v.string()),
  createdAt: Timestamp,
});
export type SmsMessage = v.InferOutput<typeof SmsMessage>;

export const SmsData = v.object({
  /** The message thread id (thread_…), what POST /v1/sms takes as messageThreadId. */
  id: v.string(),
  leadPhone: v.string(),
  /** Oldest first. */
  messages: v.array(SmsMessage),
});
export type SmsData = v.InferOutput<typeof SmsData>;

export const WebformField = v.object({ name: v.string(), label: v.string(), value: v.string() });

export const WebformData = v.object({
  id: v.string(),
  formName: v.string(),
  fields: v.array(WebformField),
  submittedAt: Timestamp,
  pageUrl: v.nullable(v.string()),
  /** Present only when the form carried files: their names (the field's name for a file without one). */
  droppedFiles: v.optional(v.pipe(v.array(v.string()), v.description('Present when the form carried files: their names (or their field’s, for a file without one). The files are not kept; the rest of the form is.'))),
});
export type WebformData = v.InferOutput<typeof WebformData>;

/** GET /v1/inquiries/{inquiryId}: the list fields without sourceId, plus `data` shaped by `source`. */
export const Inquiry = v.variant('source', [
  v.object({ ...inquiryFields, source: v.literal('CALL'), data: CallData }),
  v.object({ ...inquiryFields, source: v.literal('EMAIL'), data: EmailData }),
  v.object({ ...inquiryFields, source: v.literal('CHATBOT'), data: ChatbotData }),
  v.object({ ...inquiryFields, source: v.literal('SMS'), data: SmsData }),
  v.object({ ...inquiryFields, source: v.literal('WEBFORM'), data: WebformData }),
]);
export type Inquiry = v.InferOutput<typeof Inquiry>;

/** Source → its `data` type. */
export interface InquiryDataBySource {
  CALL: CallData;
  EMAIL: EmailData;
  CHATBOT: ChatbotData;
  SMS: SmsData;
  WEBFORM: WebformData;
}

/** PATCH /v1/inquiries/{inquiryId}: read state and tag; at least one. */
export const UpdateInquiryBody = v.pipe(
  v.strictObject({
    isRead: v.optional(v.boolean('isRead must be a boolean')),
    tag: v.optional(v.picklist(INQUIRY_TAGS, `tag must be one of ${list(INQUIRY_TAGS)}`)),
  }),
  v.check((body) => body.isRead !== undefined || body.tag !== undefined, 'body must contain isRead or tag'),
  v.metadata({ jsonSchema: { minProperties: 1 } }),
);
export const InquiryUpdated = v.object({ inquiry: InquiryListItem });
