import * as v from 'valibot';
import { atMostCharacters, DATE_TIME, EARLIEST_INSTANT, Email, isCalendarDateIfParsed, isDateTimeText, isRecordableInstant, LATEST_INSTANT, NonEmptyString, RECORDABLE_RULE, TEXT_RULE, Timestamp } from '#shared/schema';
import { TrimmedString } from '#shared/schema/trimmed';
import { CALL_DIRECTIONS, CALL_PARTIES, INQUIRY_TAGS, InquiryListItem } from './schema';
import { TypedPhone, nameSplitRule } from '../leads/schema';
import { callAnalysisInput, callOutcomeInput } from './call-analysis';

const list = (values: readonly string[]) => values.join(', ');

/** Text an integration sends as part of a record (a transcript line, an email body): bounded, may be empty. */
/** A platform's text, kept as sent but for half a character (a lone surrogate, as a cut emoji leaves), which no store or reader takes. */
const Text = (name: string, max: number) =>
  v.pipe(v.string(`${name} must be a string`), atMostCharacters(name, max), v.metadata({ jsonSchema: { maxLength: max } }), v.transform((text) => text.toWellFormed()));
const Items = <S extends v.GenericSchema>(name: string, item: S, max: number) =>
  v.pipe(v.array(item, `${name} must be an array`), v.maxLength(max, `${name} must have at most ${max} items`));
/**
 * A time in the record, kept as sent: RFC 3339, whose T and Z may be lower case (§5.6), a date the calendar has (not
 * February 30), from 1970 (times name the records made from them) and before LATEST_INSTANT; its description says
 * what the field means, if anything, and those bounds.
 */
const Instant = (name: string, rule?: string) =>
  v.pipe(
    v.string(`${name} must be a string`),
    v.check(isDateTimeText, `${name} must be an ISO 8601 timestamp`),
    DATE_TIME,
    v.check(isCalendarDateIfParsed, `${name} must be an ISO 8601 timestamp of a date that exists`),
    v.check(isRecordableInstant, `${name} must be from ${EARLIEST_INSTANT} and before ${LATEST_INSTANT}`),
    v.description(rule ? `${rule} ${RECORDABLE_RULE}` : RECORDABLE_RULE),
  );
const Seconds = v.pipe(v.number('duration must be a number'), v.integer('duration must be an integer'), v.minValue(0, 'duration must be at least 0'), v.maxValue(86_400, 'duration must be at most 86400'));
const HttpUrl = (name: string) =>
  v.pipe(
    v.string(`${name} must be a string`),
    v.maxLength(2048, `${name} must be at most 2048 characters`),
    v.check((url) => URL.canParse(url) && /^https?:$/.test(new URL(url).protocol), `${name} must be an http or https URL`),
    v.metadata({ jsonSchema: { format: 'uri', pattern: '^[Hh][Tt][Tt][Pp][Ss]?://' } }),
  );

/** A call or a chat ends when it starts or after: an end before the start is a sender's mistake, named. */
const END_RULE = 'When it ended: not before startedAt.';
const endsAfterStart = (record: { startedAt: string; endedAt: string | null }) => record.endedAt === null || Date.parse(record.endedAt) >= Date.parse(record.startedAt);
const END_MESSAGE = 'data.endedAt must not be before data.startedAt';

/** The most lines a call's transcript holds, and characters a line holds. */
export const MAX_TRANSCRIPT_LINES = 1_000;
export const MAX_TRANSCRIPT_LINE = 10_000;

/** What a call record says of itself when the sender leaves it out: a voice agent may know only the summary. */
export const CALL_DEFAULTS = {
  direction: 'LEAD_TO_AI',
  endedBy: 'user',
} as const;

/**
 * The call's times and duration as given, the rest filled in: a call is logged when it ends, so a missing end is now
 * (or the start plus the duration), a missing start is the end less the duration, and a missing duration is the
 * seconds between the two (0 when neither time was given).
 */
function callTimes(given: { startedAt?: string; endedAt?: string; duration?: number }) {
  const seconds = given.duration;
  const start = given.startedAt === undefined ? undefined : Date.parse(given.startedAt);
  const end = given.endedAt !== undefined ? Date.parse(given.endedAt) : start !== undefined && seconds !== undefined ? start + seconds * 1000 : Math.max(Date.now(), start ?? 0);
  const startedAt = given.startedAt ?? new Date(end - (seconds ?? 0) * 1000).toISOString();
  const endedAt = given.endedAt ?? new Date(end).toISOString();
  const duration = seconds ?? Math.min(86_400, Math.max(0, Math.round((end - Date.parse(startedAt)) / 1000)));
  return { startedAt, endedAt, duration };
}

/** The source records of docs/inquiry-sources.md, without their ids (the service issues them). */
export const CallRecordInput = v.pipe(
  v.strictObject({
    summary: Text('data.summary', 5_000),
    keyPoints: v.optional(Items('data.keyPoints', Text('data.keyPoints[]', 1_000), 50), () => []),
    /** Null (or left out) when the call was not recorded. */
    recordingUrl: v.optional(v.nullable(HttpUrl('data.recordingUrl')), null),
    transcripts: v.optional(Items('data.transcripts', v.strictObject({ created_at: Instant('created_at'), text: Text('text', MAX_TRANSCRIPT_LINE), user: v.picklist(CALL_PARTIES, `user must be one of ${list(CALL_PARTIES)}`) }), MAX_TRANSCRIPT_LINES), () => []),
    transcriptTruncated: v.optional(
      v.pipe(v.boolean('data.transcriptTruncated must be a boolean'), v.description('True when the sender cut the transcript short; the service also sets it when it keeps only the first lines of a transcript too long for the record.')),
      false,
    ),
    direction: v.optional(v.pipe(v.picklist(CALL_DIRECTIONS, `direction must be one of ${list(CALL_DIRECTIONS)}`), v.description(`LEAD_TO_AI: the lead called; AI_TO_LEAD: the agent called the lead. Left out: ${CALL_DEFAULTS.direction}.`)), CALL_DEFAULTS.direction),
    duration: v.optional(v.pipe(Seconds, v.description('Seconds. Left out: the seconds from startedAt to endedAt, or 0 when neither is given.'))),
    startedAt: v.optional(Instant('data.startedAt', 'When the call started. Left out: endedAt less the duration (endedAt when no duration is given).')),
    endedAt: v.optional(Instant('data.endedAt', `${END_RULE} Left out: startedAt plus the duration when both are given, else the time the call is logged.`)),
    endedBy: v.optional(v.pipe(v.picklist(CALL_PARTIES, `endedBy must be one of ${list(CALL_PARTIES)}`), v.description(`Who hung up: user (the lead) or assistant. Left out: ${CALL_DEFAULTS.endedBy}.`)), CALL_DEFAULTS.endedBy),
    ...callAnalysisInput,
    ...callOutcomeInput,
  }),
  v.transform((record) => ({ ...record, ...callTimes(record) })),
  v.forward(v.check((record) => endsAfterStart(record), END_MESSAGE), ['endedAt']),
);

export const EmailRecordInput = v.strictObject({
  subject: Text('data.subject', 1_000),
  from: Text('data.from', 320),
  to: Text('data.to', 320),
  body: Text('data.body', 100_000),
  receivedAt: Instant('data.receivedAt'),
});

export const ChatbotRecordInput = v.pipe(
  v.strictObject({
    messages: Items('data.messages', v.strictObject({ role: v.picklist(CALL_PARTIES, `role must be one of ${list(CALL_PARTIES)}`), text: Text('text', 10_000), createdAt: Instant('createdAt') }), 1_000),
    startedAt: Instant('data.startedAt'),
    endedAt: v.nullable(Instant('data.endedAt', `${END_RULE} Null while the chat is open.`)),
  }),
  v.forward(v.check((record) => endsAfterStart(record), END_MESSAGE), ['endedAt']),
);

export const WebformRecordInput = v.strictObject({
  formName: Text('data.formName', 200),
  fields: Items('data.fields', v.strictObject({ name: Text('name', 200), label: Text('label', 500), value: Text('value', 20_000) }), 200),
  submittedAt: Instant('data.submittedAt'),
  pageUrl: v.nullable(HttpUrl('data.pageUrl')),
  droppedFiles: v.optional(
    v.pipe(Items('data.droppedFiles', Text('data.droppedFiles[]', 255), 20), v.description('The names of files the form carried, which are not kept (an inbound endpoint records the rest of the form).')),
  ),
});

/** Who the inquiry is from: found by email, else by phone, else a new lead. */
export const InquirySender = v.pipe(
  v.strictObject({
    email: v.optional(Email('lead.email')),
    phone: v.optional(TypedPhone),
    name: v.optional(v.pipe(NonEmptyString('lead.name', 200), v.description(`For a new lead: ${nameSplitRule('lead.name')} ${TEXT_RULE}`))),
    firstName: v.optional(NonEmptyString('lead.firstName', 100)),
    lastName: v.optional(NonEmptyString('lead.lastName', 100)),
  }),
  v.check((lead) => lead.email !== undefined || lead.phone !== undefined, 'lead must have an email or a phone'),
  v.metadata({ jsonSchema: { anyOf: [{ required: ['email'] }, { required: ['phone'] }] } }),
);
export type InquirySender = v.InferOutput<typeof InquirySender>;

const common = {
  lead: InquirySender,
  summary: v.optional(NonEmptyString('summary', 1_000)),
  tag: v.optional(v.picklist(INQUIRY_TAGS, `tag must be one of ${list(INQUIRY_TAGS)}`), 'GENERAL'),
  /** The sender's own id for the inquiry: sending it again answers 200 with the first inquiry. */
  externalInquiryId: v.optional(TrimmedString('externalInquiryId', 200)),
  createdAt: v.optional(v.pipe(Instant('createdAt', 'When the contact happened; not in the future (a minute of clock difference is allowed).'), v.check((at) => Date.parse(at) <= Date.now() + 60_000, 'createdAt must not be in the future'))),
};

/** POST /v1/inquiries: an inquiry of one source with its record. SMS inquiries come from SMS, not from here. */
export const IngestInquiryBody = v.variant('source', [
  v.strictObject({ source: v.literal('CALL'), data: CallRecordInput, ...common }),
  v.strictObject({ source: v.literal('EMAIL'), data: EmailRecordInput, ...common }),
  v.strictObject({ source: v.literal('CHATBOT'), data: ChatbotRecordInput, ...common }),
  v.strictObject({ source: v.literal('WEBFORM'), data: WebformRecordInput, ...common }),
], 'source must be one of CALL, EMAIL, CHATBOT, WEBFORM');
export type IngestInquiryBody = v.InferOutput<typeof IngestInquiryBody>;

export const IngestedInquiry = v.object({ inquiry: InquiryListItem });
