import * as v from 'valibot';
import { ValidationError } from '#shared/errors';
import { isPlainObject } from '#shared/schema';
import { toE164 } from '#shared/phone';
import { parseOrThrow } from '#shared/validation';
import type { CallPlatform } from './schema';
import { MAX_TRANSCRIPT_LINE, MAX_TRANSCRIPT_LINES } from '../inquiries/ingestion-schema';

/**
 * Voice platforms' post-call webhooks, as each platform sends them (docs/inquiry-sources.md maps every field): the CALL
 * inquiry a post records, as POST /v1/inquiries would take it. How a post is proved to come from the platform is in
 * ./platform-signatures.ts.
 */

/**
 * The transcript's speakers as the inquiry names them: the caller is `user`; the platform's agent (Retell `agent`,
 * Vapi `bot`, or `assistant`) and a person a Retell call was transferred to (`transfer_target`) are the organization's
 * side. Any other role (Vapi's system and tool lines) is not speech and is left out.
 */
const SPEAKERS = new Map<string, 'user' | 'assistant'>([['user', 'user'], ['agent', 'assistant'], ['transfer_target', 'assistant'], ['bot', 'assistant'], ['assistant', 'assistant']]);

/** An instant in ms as the API writes it; a line's time out of any date's range reads as the call's start. */
const instant = (ms: number, start: number) => new Date(Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? ms : start).toISOString();

const MAX_SUMMARY = 5_000;
const clip = (text: string | null | undefined, max: number) => [...(text ?? '').trim()].slice(0, max).join('');
const CallId = (name: string) => v.pipe(v.string(`${name} must be a string`), v.minLength(1, `${name} must not be empty`), v.maxLength(190, `${name} must be at most 190 characters`));
const Optional = <S extends v.GenericSchema>(schema: S) => v.optional(v.nullable(schema));
const Text = (name: string) => v.string(`${name} must be a string`);
const EpochMs = (name: string) => v.pipe(v.number(`${name} must be a number`), v.integer(`${name} must be an integer`), v.minValue(0, `${name} must be at least 0`), v.maxValue(8.64e15, `${name} is out of range`));
const Instant = (name: string) => v.pipe(Text(name), v.check((at) => !Number.isNaN(Date.parse(at)), `${name} must be an ISO 8601 date-time`));

/** The lead's phone: the party who is not the platform's agent, as E.164. A web call carries none, so it names no lead. */
async function leadPhone(number: string | null | undefined, field: string): Promise<string> {
  // Platforms send E.164; one that is no valid number of its country's plan is refused here, naming the platform's field.
  const phone = await toE164(number ?? '', undefined);
  if (!phone) throw new ValidationError([{ path: field, message: `${field} must be the caller’s phone number in E.164 format (a web call has none, so it cannot name a lead)` }]);
  return phone;
}

/** Whole seconds from start to end; an end before the start is the sender's fault. */
function durationOf(startedAt: number, endedAt: number, field: string): number {
  if (endedAt < startedAt) throw new ValidationError([{ path: field, message: `${field} must not be before the call’s start` }]);
  return Math.round((endedAt - startedAt) / 1000);
}

/** Retell names the event `event` in its webhooks and `event_type` in parts of its documentation: either is read. */
const RetellEvent = v.looseObject({ event: v.optional(Text('event')), event_type: v.optional(Text('event_type')) });

const RetellCall = v.looseObject({
  call_id: CallId('call.call_id'),
  direction: v.optional(v.picklist(['inbound', 'outbound'], 'call.direction must be inbound or outbound')),
  from_number: Optional(Text('call.from_number')),
  to_number: Optional(Text('call.to_number')),
  start_timestamp: v.optional(EpochMs('call.start_timestamp')),
  end_timestamp: v.optional(EpochMs('call.end_timestamp')),
  disconnection_reason: v.optional(Text('call.disconnection_reason')),
  recording_url: Optional(Text('call.recording_url')),
  transcript_object: v.optional(
    v.array(v.looseObject({ role: Text('role'), content: Text('content'), words: v.optional(v.array(v.looseObject({ start: v.optional(v.number('start must be a number')) }))) }), 'call.transcript_object must be an array'),
    [],
  ),
  call_analysis: Optional(
    v.looseObject({
      call_summary: Optional(Text('call.call_analysis.call_summary')),
      user_sentiment: Optional(Text('call.call_analysis.user_sentiment')),
      call_successful: Optional(v.boolean('call.call_analysis.call_successful must be a boolean')),
      custom_analysis_data: Optional(v.unknown()),
    }),
  ),
});
const RetellCallAnalyzed = v.looseObject({ call: RetellCall });

/** Retell's reasons for a call that never connected: nobody spoke, so there is no inquiry. */
const RETELL_NOT_CONNECTED = new Set(['dial_busy', 'dial_failed', 'dial_no_answer']);

/** Retell's `call_analyzed` (its `call_ended` with `call_analysis`): every other event is acknowledged and left. */
async function retellCall(payload: unknown) {
  const { event, event_type } = parseOrThrow(RetellEvent, payload, 'body');
  if (event === undefined && event_type === undefined) throw new ValidationError([{ path: 'event', message: 'event is required (or event_type)' }]);
  if ((event ?? event_type) !== 'call_analyzed') return undefined;
  const { call } = parseOrThrow(RetellCallAnalyzed, payload, 'body');
  const start = call.start_timestamp;
  if (start === undefined || RETELL_NOT_CONNECTED.has(call.disconnection_reason ?? '')) return undefined;
  if (call.end_timestamp === undefined) throw new ValidationError([{ path: 'call.end_timestamp', message: 'call.end_timestamp is required' }]);
  const outbound = call.direction === 'outbound';
  const at = (ms: number) => instant(ms, start);
  const phone = await (outbound ? leadPhone(call.to_number, 'call.to_number') : leadPhone(call.from_number, 'call.from_number'));
  const analysis = call.call_analysis;
  return {
    callId: call.call_id,
    lead: { phone },
    data: {
      summary: clip(call.call_analysis?.call_summary, MAX_SUMMARY),
      keyPoints: [],
      recordingUrl: call.recording_url ?? null,
      // Word times are seconds of audio from the call's start; an utterance without words starts with the call.
      transcripts: call.transcript_object.flatMap(({ role, content, words }) => {
        const user = SPEAKERS.get(role);
        return user ? [{ created_at: at(start + Math.round((words?.[0]?.start ?? 0) * 1000)), text: content, user }] : [];
      }),
      direction: outbound ? 'AI_TO_LEAD' : 'LEAD_TO_AI',
      duration: durationOf(start, call.end_timestamp, 'call.end_timestamp'),
      startedAt: at(start),
      endedAt: at(call.end_timestamp),
      endedBy: call.disconnection_reason === 'user_hangup' ? 'user' : 'assistant',
      endReason: call.disconnection_reason ?? null,
      leadPhone: phone,
      sentiment: analysis?.user_sentiment ?? null,
      successful: analysis?.call_successful ?? null,
      successEvaluation: null,
      analysisData: analysisObject(analysis?.custom_analysis_data, 'custom_analysis_data'),
    },
    fields: { ...RETELL_FIELDS, 'lead.phone': outbound ? 'call.to_number' : 'call.from_number', 'data.leadPhone': outbound ? 'call.to_number' : 'call.from_number' },
  };
}

/** Where each field of the inquiry came from in Retell's call, so a refusal names the field Retell sent. */
const RETELL_FIELDS: Record<string, string> = {
  createdAt: 'call.start_timestamp',
  'data.startedAt': 'call.start_timestamp',
  'data.endedAt': 'call.end_timestamp',
  'data.duration': 'call.end_timestamp',
  'data.recordingUrl': 'call.recording_url',
  'data.summary': 'call.call_analysis.call_summary',
  'data.transcripts': 'call.transcript_object',
  'data.sentiment': 'call.call_analysis.user_sentiment',
  'data.successful': 'call.call_analysis.call_successful',
  'data.analysisData': 'call.call_analysis.custom_analysis_data',
  'data.endReason': 'call.disconnection_reason',
  externalInquiryId: 'call.call_id',
};

/** Where each field of the inquiry came from in Vapi's report. */
const VAPI_FIELDS: Record<string, string> = {
  createdAt: 'message.startedAt',
  'data.startedAt': 'message.startedAt',
  'data.endedAt': 'message.endedAt',
  'data.duration': 'message.endedAt',
  'data.recordingUrl': 'message.artifact.recordingUrl',
  'data.summary': 'message.analysis.summary',
  'data.transcripts': 'message.artifact.messages',
  'lead.phone': 'message.customer.number',
  'data.leadPhone': 'message.customer.number',
  'lead.name': 'message.customer.name',
  'data.successEvaluation': 'message.analysis.successEvaluation',
  'data.analysisData': 'message.analysis.structuredData',
  'data.endReason': 'message.endedReason',
  externalInquiryId: 'message.call.id',
};

const VapiType = v.looseObject({ message: v.looseObject({ type: Text('message.type') }, 'message must be an object') });

const VapiCustomer = v.looseObject({ number: Optional(Text('customer.number')), name: Optional(Text('customer.name')) });
/** A turn of `artifact.messages`: user and bot (assistant) speak; system, tool_calls and tool_call_result lines are not speech. */
const VapiTurn = v.looseObject({ role: Text('role'), message: v.optional(v.unknown()), time: v.optional(v.unknown()), secondsFromStart: v.optional(v.unknown()) });
const VapiReport = v.looseObject({
  message: v.looseObject({
    endedReason: v.optional(Text('message.endedReason')),
    call: v.looseObject({ id: CallId('message.call.id'), type: v.optional(Text('message.call.type')), customer: v.optional(VapiCustomer), startedAt: Optional(Instant('message.call.startedAt')), endedAt: Optional(Instant('message.call.endedAt')) }, 'message.call must be an object'),
    customer: v.optional(VapiCustomer),
    startedAt: Optional(Instant('message.startedAt')),
    endedAt: Optional(Instant('message.endedAt')),
    artifact: v.optional(
      v.looseObject({
        messages: v.optional(v.array(VapiTurn, 'message.artifact.messages must be an array')),
        recordingUrl: Optional(Text('message.artifact.recordingUrl')),
        stereoRecordingUrl: Optional(Text('message.artifact.stereoRecordingUrl')),
        recording: v.optional(v.looseObject({ stereoUrl: Optional(Text('message.artifact.recording.stereoUrl')), mono: v.optional(v.looseObject({ combinedUrl: Optional(Text('message.artifact.recording.mono.combinedUrl')) })) })),
      }),
    ),
    analysis: v.optional(v.looseObject({ summary: Optional(Text('message.analysis.summary')), successEvaluation: Optional(v.unknown()), structuredData: Optional(v.unknown()) })),
    // Reports sent before `artifact` and `analysis` carried these at the top.
    messages: v.optional(v.array(VapiTurn, 'message.messages must be an array')),
    recordingUrl: Optional(Text('message.recordingUrl')),
    stereoRecordingUrl: Optional(Text('message.stereoRecordingUrl')),
    summary: Optional(Text('message.summary')),
  }),
});

/** Vapi's reasons for a call that never connected. */
const VAPI_NOT_CONNECTED = new Set(['customer-did-not-answer', 'customer-busy']);

/** Vapi's `end-of-call-report`: every other server message is acknowledged and left. */
async function vapiCall(payload: unknown) {
  if (parseOrThrow(VapiType, payload, 'body').message.type !== 'end-of-call-report') return undefined;
  const { message } = parseOrThrow(VapiReport, payload, 'body');
  const { call, artifact } = message;
  const startedAt = message.startedAt ?? call.startedAt;
  if (!startedAt || VAPI_NOT_CONNECTED.has(message.endedReason ?? '')) return undefined;
  const endedAt = message.endedAt ?? call.endedAt;
  if (!endedAt) throw new ValidationError([{ path: 'message.endedAt', message: 'message.endedAt is required' }]);
  const start = Date.parse(startedAt);
  const customer = message.customer?.number ? message.customer : call.customer;
  const name = clip(customer?.name, 200);
  const turns = artifact?.messages ?? message.messages ?? [];
  // `time` is the turn's wall clock in ms; else its offset from the start.
  const turnAt = ({ time, secondsFromStart }: { time?: unknown; secondsFromStart?: unknown }) =>
    instant(typeof time === 'number' ? time : start + (typeof secondsFromStart === 'number' ? Math.round(secondsFromStart * 1000) : 0), start);
  const phone = await leadPhone(customer?.number, 'message.customer.number');
  const evaluation = message.analysis?.successEvaluation;
  // Vapi's rubric decides the evaluation's form: true/false (its default) says whether the call succeeded; any other is kept as text only.
  const successEvaluation = typeof evaluation === 'string' ? evaluation : typeof evaluation === 'number' || typeof evaluation === 'boolean' ? String(evaluation) : null;
  return {
    callId: call.id,
    lead: { phone, ...(name ? { name } : {}) },
    data: {
      summary: clip(message.analysis?.summary ?? message.summary, MAX_SUMMARY),
      keyPoints: [],
      // The mono mix first (one track to play), else the stereo one, in the report's current shape, then its older ones.
      recordingUrl:
        artifact?.recording?.mono?.combinedUrl ?? artifact?.recordingUrl ?? artifact?.recording?.stereoUrl ?? artifact?.stereoRecordingUrl ?? message.recordingUrl ?? message.stereoRecordingUrl ?? null,
      transcripts: turns.flatMap((turn) => {
        const user = SPEAKERS.get(turn.role);
        return user && typeof turn.message === 'string' ? [{ created_at: turnAt(turn), text: turn.message, user }] : [];
      }),
      direction: call.type === 'outboundPhoneCall' ? 'AI_TO_LEAD' : 'LEAD_TO_AI',
      duration: durationOf(start, Date.parse(endedAt), 'message.endedAt'),
      startedAt: new Date(start).toISOString(),
      endedAt: new Date(endedAt).toISOString(),
      endedBy: message.endedReason?.startsWith('customer-ended-call') ? 'user' : 'assistant',
      endReason: message.endedReason ?? null,
      leadPhone: phone,
      sentiment: null,
      successful: successEvaluation === 'true' ? true : successEvaluation === 'false' ? false : null,
      successEvaluation,
      analysisData: analysisObject(message.analysis?.structuredData, 'structuredData'),
    },
    fields: VAPI_FIELDS,
  };
}

const READERS = { retell: retellCall, vapi: vapiCall } satisfies Record<CallPlatform, unknown>;

/**
 * The CALL inquiry a platform's post-call webhook records, as POST /v1/inquiries takes it (still to be validated as
 * that body is), or undefined for any other event, or a call that never connected. The platform's call id is the
 * external id, prefixed with the platform, so a redelivery, or the same call posted twice at once, records one inquiry.
 * A payload of the wrong shape is a 400 naming the platform's own field.
 */
export async function platformCallInquiry(platform: CallPlatform, payload: unknown) {
  const call = await READERS[platform](payload);
  if (!call) return undefined;
  const { callId, lead, data, fields } = call;
  return { inquiry: { source: 'CALL', externalInquiryId: `${platform}:${callId}`, createdAt: data.startedAt, lead, data: { ...data, ...boundedTranscript(data.transcripts) } }, fields };
}

/**
 * The platform's own name for a field of the inquiry made from its webhook (`createdAt` is Retell's
 * `call.start_timestamp`), for a refusal to name what the sender sent: the field, or the nearest field it lies within.
 */
export function platformFieldOf(fields: Record<string, string>, path: string): string {
  // Not the rest of the path: a transcript's line numbers are not the platform's (lines that are not speech are left out).
  for (let prefix = path; prefix; prefix = prefix.slice(0, Math.max(prefix.lastIndexOf('.'), 0))) {
    if (Object.hasOwn(fields, prefix)) return fields[prefix]!;
  }
  return path;
}

/** An analysis object as sent; any other JSON value (a Vapi schema of another type) kept whole under the platform's name for it. */
const analysisObject = (value: unknown, name: string) => (value === undefined || value === null ? null : isPlainObject(value) ? value : { [name]: value });

/**
 * A platform's transcript within what a CALL record takes (its first MAX_TRANSCRIPT_LINES lines, each of at most
 * MAX_TRANSCRIPT_LINE characters), flagged when cut: a long call is recorded with the start of what was said rather
 * than refused, which would lose it (the platform's retries send the same).
 */
function boundedTranscript(lines: ReadonlyArray<{ created_at: string; text: string; user: string }>) {
  const transcripts = lines.slice(0, MAX_TRANSCRIPT_LINES).map((line) => ({ ...line, text: [...line.text].slice(0, MAX_TRANSCRIPT_LINE).join('') }));
  const transcriptTruncated = transcripts.length < lines.length || transcripts.some((line, index) => line.text.length < lines[index]!.text.length);
  return { transcripts, transcriptTruncated };
}
