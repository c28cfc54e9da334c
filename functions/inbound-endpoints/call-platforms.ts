import { createHmac } from 'node:crypto';
import * as v from 'valibot';
import { sameSecret } from '../../shared/auth/tokens';
import { ValidationError } from '../../shared/errors';
import { toE164 } from '../../shared/phone';
import { parseOrThrow } from '../../shared/validation';
import type { CallPlatform } from './schema';
import { MAX_TRANSCRIPT_LINE, MAX_TRANSCRIPT_LINES } from '../inquiries/ingestion-schema';

/**
 * Voice platforms' post-call webhooks, as each platform sends them (docs/inquiry-sources.md maps every field): how
 * a post is proved to come from the platform, and the CALL inquiry it records, as POST /v1/inquiries would take it.
 */

/** What Retell's SDK allows between its signature's timestamp and our clock, either way. */
export const RETELL_TOLERANCE_MS = 5 * 60 * 1000;

/**
 * Retell's `x-retell-signature: v=<unix ms>,d=<hex>`: HMAC-SHA256 of the raw body followed by the timestamp's
 * digits, keyed with the Retell API key that has the webhook badge (what its SDK's `Retell.verify` computes).
 */
export function retellSignatureValid(apiKey: string | undefined, header: string | undefined, body: string, now = Date.now()): boolean {
  const match = /^v=(\d{1,16}),d=([0-9a-f]{64})$/.exec(header ?? '');
  if (!apiKey || !match) return false;
  const timestamp = Number(match[1]);
  if (Math.abs(now - timestamp) > RETELL_TOLERANCE_MS) return false;
  return sameSecret(match[2]!, createHmac('sha256', apiKey).update(body + timestamp).digest('hex'));
}

/**
 * Vapi's server credential holding the endpoint's secret: a Bearer Token credential as Vapi sends it by default,
 * `Authorization: Bearer <token>`, or `x-vapi-secret: <secret>` (the inline `server.secret` Vapi keeps for older
 * assistants, or a credential whose header is named so, without the prefix). A post sending `x-vapi-secret` is judged
 * by it alone, so one request proves one credential. Compared in constant time.
 */
export function vapiSecretValid(secret: string, headers: Record<string, string | undefined>): boolean {
  // Auth scheme names are case-insensitive (RFC 7235); one or more spaces follow them.
  const bearer = /^Bearer +(\S+)$/i.exec(headers.authorization?.trim() ?? '')?.[1];
  const given = headers['x-vapi-secret'] ?? bearer;
  return given !== undefined && sameSecret(given, secret);
}

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
function leadPhone(number: string | null | undefined, field: string): string {
  // Platforms send E.164; one that is no valid number of its country's plan is refused here, naming the platform's field.
  const phone = toE164(number ?? '', undefined);
  if (!phone) throw new ValidationError([{ path: field, message: `${field} must be the caller’s phone number in E.164 format (a web call has none, so it cannot name a lead)` }]);
  return phone;
}

/** Whole seconds from start to end; an end before the start is the sender's fault. */
function durationOf(startedAt: number, endedAt: number, field: string): number {
  if (endedAt < startedAt) throw new ValidationError([{ path: field, message: `${field} must not be before the call’s start` }]);
  return Math.round((endedAt - startedAt) / 1000);
}

const RetellEvent = v.looseObject({ event: Text('event') });

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
  call_analysis: Optional(v.looseObject({ call_summary: Optional(Text('call.call_analysis.call_summary')) })),
});
const RetellCallAnalyzed = v.looseObject({ call: RetellCall });

/** Retell's reasons for a call that never connected: nobody spoke, so there is no inquiry. */
const RETELL_NOT_CONNECTED = new Set(['dial_busy', 'dial_failed', 'dial_no_answer']);

/** Retell's `call_analyzed` (its `call_ended` with `call_analysis`): every other event is acknowledged and left. */
function retellCall(payload: unknown) {
  if (parseOrThrow(RetellEvent, payload, 'body').event !== 'call_analyzed') return undefined;
  const { call } = parseOrThrow(RetellCallAnalyzed, payload, 'body');
  const start = call.start_timestamp;
  if (start === undefined || RETELL_NOT_CONNECTED.has(call.disconnection_reason ?? '')) return undefined;
  if (call.end_timestamp === undefined) throw new ValidationError([{ path: 'call.end_timestamp', message: 'call.end_timestamp is required' }]);
  const outbound = call.direction === 'outbound';
  const at = (ms: number) => instant(ms, start);
  return {
    callId: call.call_id,
    lead: { phone: outbound ? leadPhone(call.to_number, 'call.to_number') : leadPhone(call.from_number, 'call.from_number') },
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
    },
  };
}

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
        recording: v.optional(v.looseObject({ stereoUrl: Optional(Text('message.artifact.recording.stereoUrl')), mono: v.optional(v.looseObject({ combinedUrl: Optional(Text('message.artifact.recording.mono.combinedUrl')) })) })),
      }),
    ),
    analysis: v.optional(v.looseObject({ summary: Optional(Text('message.analysis.summary')) })),
    // Reports sent before `artifact` and `analysis` carried these at the top.
    messages: v.optional(v.array(VapiTurn, 'message.messages must be an array')),
    recordingUrl: Optional(Text('message.recordingUrl')),
    summary: Optional(Text('message.summary')),
  }),
});

/** Vapi's reasons for a call that never connected. */
const VAPI_NOT_CONNECTED = new Set(['customer-did-not-answer', 'customer-busy']);

/** Vapi's `end-of-call-report`: every other server message is acknowledged and left. */
function vapiCall(payload: unknown) {
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
  return {
    callId: call.id,
    lead: { phone: leadPhone(customer?.number, 'message.customer.number'), ...(name ? { name } : {}) },
    data: {
      summary: clip(message.analysis?.summary ?? message.summary, MAX_SUMMARY),
      keyPoints: [],
      recordingUrl: artifact?.recording?.mono?.combinedUrl ?? artifact?.recordingUrl ?? artifact?.recording?.stereoUrl ?? message.recordingUrl ?? null,
      transcripts: turns.flatMap((turn) => {
        const user = SPEAKERS.get(turn.role);
        return user && typeof turn.message === 'string' ? [{ created_at: turnAt(turn), text: turn.message, user }] : [];
      }),
      direction: call.type === 'outboundPhoneCall' ? 'AI_TO_LEAD' : 'LEAD_TO_AI',
      duration: durationOf(start, Date.parse(endedAt), 'message.endedAt'),
      startedAt: new Date(start).toISOString(),
      endedAt: new Date(endedAt).toISOString(),
      endedBy: message.endedReason?.startsWith('customer-ended-call') ? 'user' : 'assistant',
    },
  };
}

const READERS = { retell: retellCall, vapi: vapiCall } satisfies Record<CallPlatform, unknown>;

/**
 * The CALL inquiry a platform's post-call webhook records, as POST /v1/inquiries takes it (still to be validated as
 * that body is), or undefined for any other event, or a call that never connected. The platform's call id is the
 * external id, prefixed with the platform, so a redelivery, or the same call posted twice at once, records one inquiry.
 * A payload of the wrong shape is a 400 naming the platform's own field.
 */
export function platformCallInquiry(platform: CallPlatform, payload: unknown) {
  const call = READERS[platform](payload);
  if (!call) return undefined;
  const { callId, lead, data } = call;
  return { source: 'CALL', externalInquiryId: `${platform}:${callId}`, createdAt: data.startedAt, lead, data: { ...data, ...boundedTranscript(data.transcripts) } };
}

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
