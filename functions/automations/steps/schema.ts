/**
 * The step kinds: each one valibot schema, and nothing else declares a kind. The list of kinds, their type and the
 * runs' picklists derive from `STEP_SCHEMAS`; every place that does something different per kind is a `switch` ending in
 * `unhandledStep`, so a kind added here fails to compile until each of them handles it (docs/automations.md, "Adding
 * a step kind", names them).
 */
import * as v from 'valibot';
import { NonEmptyString } from '#shared/schema';
import { LeadStatus } from '../../leads/attributes';
import { WebhookUrl } from '../../webhooks/schema';
import { LIMITS, TRIGGERS } from '../catalog';
import { DURATION, durationMs } from './durations';

const list = (values: readonly string[]) => values.join(', ');

/** A wait: 1 minute to 365 days, as ISO 8601 weeks, days, hours, minutes and seconds. Each check passes what an earlier one refused. */
const Duration = v.pipe(
  v.string('duration must be a string'),
  v.maxLength(40, 'duration must be at most 40 characters'),
  v.check((text) => durationMs(text) !== undefined, 'duration must be an ISO 8601 duration of weeks, days, hours, minutes or seconds (PT2M, PT2H, P2D, P1W)'),
  v.check((text) => (durationMs(text) ?? Infinity) >= LIMITS.minimumWaitMs, 'duration must be at least 1 minute'),
  v.check((text) => (durationMs(text) ?? 0) <= LIMITS.maximumWaitMs, 'duration must be at most 365 days'),
  v.metadata({ jsonSchema: { pattern: DURATION.source.replace(/\((?!\?)/g, '(?:') } }),
  v.description('ISO 8601: weeks, days, hours, minutes, seconds (`PT2M`, `PT2H`, `P2D`, `P1W`, `P1DT12H`); months and years have no fixed length and are refused. From 1 minute to 365 days.'),
);

const ANCHORS = [...new Set(Object.values(TRIGGERS).flatMap((trigger) => trigger.anchors))];
const Template = (max: number) => NonEmptyString('template', max);

const Wait = v.strictObject(
  {
    type: v.literal('wait'),
    duration: Duration,
    before: v.optional(v.pipe(v.picklist(ANCHORS, `before must be one of ${list(ANCHORS)}`), v.description("Counts back from the trigger's record's time rather than on from the previous step; only appointment triggers have one."))),
  },
  'a wait step is {type, duration, before?}',
);
const SendSms = v.strictObject({ type: v.literal('send_sms'), template: Template(LIMITS.smsCharacters) }, 'a send_sms step is {type, template}');
const MemberId = v.pipe(v.number('memberId must be an integer'), v.integer('memberId must be an integer'), v.minValue(1, 'memberId must be at least 1'));
const NotifyMember = v.strictObject({ type: v.literal('notify_member'), memberId: MemberId, template: Template(LIMITS.smsCharacters) }, 'a notify_member step is {type, memberId, template}');
const SetLeadStatus = v.strictObject({ type: v.literal('set_lead_status'), status: LeadStatus }, 'a set_lead_status step is {type, status}');
const AddNote = v.strictObject({ type: v.literal('add_note'), template: Template(5000) }, 'an add_note step is {type, template}');
/**
 * A webhook step's receiver: a webhook's URL, written out as an absolute http(s) URL (`https://…`, the scheme and `//`
 * given; the URL parser's shorthands such as `https:host` are refused), which the document's pattern states.
 */
const StepUrl = v.pipe(
  WebhookUrl,
  // A URL that does not parse, or not as http(s), is refused already, by the same words.
  v.check((url) => !/^https?:$/.test(URL.parse(url)?.protocol ?? '') || /^[Hh][Tt][Tt][Pp][Ss]?:\/\/[^\s/?#\\]/.test(url), 'url must be an absolute http or https URL'),
  v.metadata({ jsonSchema: { pattern: '^\\s*[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#\\\\]' } }),
  v.description('An absolute `http://` or `https://` URL (https only, and no private, loopback or link-local address, once deployed), without credentials.'),
);
const Webhook = v.strictObject({ type: v.literal('webhook'), url: StepUrl }, 'a webhook step is {type, url}');

/** Every step kind, in the order the messages and the document list them. */
const STEP_SCHEMAS = [Wait, SendSms, NotifyMember, SetLeadStatus, AddNote, Webhook] as const;

/** A step's kind (`wait`, `send_sms`, …), as its schema's `type` literal names it. */
export type StepType = (typeof STEP_SCHEMAS)[number]['entries']['type']['literal'];
export const STEP_TYPES: readonly StepType[] = STEP_SCHEMAS.map((schema) => schema.entries.type.literal);

const STEP_TYPES_LIST = list(STEP_TYPES);

/** One step, by its `type`. */
export const Step = v.variant('type', STEP_SCHEMAS, `type must be one of ${STEP_TYPES_LIST}`);
export type Step = v.InferOutput<typeof Step>;
/** The step of one kind. */
export type StepOf<T extends StepType> = Extract<Step, { type: T }>;

export const Steps = v.pipe(
  v.array(Step, 'steps must be an array of steps'),
  v.minLength(1, 'steps must have at least one step'),
  v.maxLength(LIMITS.steps, `steps may have at most ${LIMITS.steps} steps`),
  v.description(`1 to ${LIMITS.steps} steps, run in order: ${STEP_TYPES_LIST}.`),
);

/** The end of a `switch` over a step's kind: a kind the cases above miss leaves `step` not `never`, which fails to compile. */
export function unhandledStep(step: never): never {
  throw new Error(`No case for the step kind ${(step as { type?: unknown }).type}`);
}
