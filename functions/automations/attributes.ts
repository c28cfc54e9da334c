import * as v from 'valibot';
import { isPlainObject, NonEmptyString } from '#shared/schema';
import { WEEKDAYS } from '#shared/schedule';
import { defineEntity, RECORD_TIMES } from '#shared/store/entity';
import { organizationPartition as org } from '#shared/store/keys';
import { LeadStatus } from '../leads/attributes';
import { WebhookUrl } from '../webhooks/schema';
import { DEFAULT_QUIET_HOURS, LIMITS, STEP_TYPES, STOP_CONDITIONS, TRIGGER_NAMES, TRIGGERS, type QuietHours, type TriggerName } from './catalog';
import { DURATION, durationMs } from './steps/durations';

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

const STEP_TYPES_LIST = list(STEP_TYPES);

/** One step, by its `type`. */
export const Step = v.variant('type', [Wait, SendSms, NotifyMember, SetLeadStatus, AddNote, Webhook], `type must be one of ${STEP_TYPES_LIST}`);
export type Step = v.InferOutput<typeof Step>;

const Steps = v.pipe(
  v.array(Step, 'steps must be an array of steps'),
  v.minLength(1, 'steps must have at least one step'),
  v.maxLength(LIMITS.steps, `steps may have at most ${LIMITS.steps} steps`),
  v.description(`1 to ${LIMITS.steps} steps, run in order: ${STEP_TYPES_LIST}.`),
);

/** Each field of a trigger's filter: one value, or a list of values any of which passes; of the field's own list when it has one. */
function filterValue(field: string, values: readonly string[] | undefined) {
  const one = values ? v.picklist(values, `${field} must be one of ${list(values)}`) : NonEmptyString(field, 200);
  const many = v.pipe(
    v.array(one),
    v.minLength(1, `${field} must list at least one value`),
    v.maxLength(20, `${field} may list at most 20 values`),
    v.check((listed) => new Set(listed).size === listed.length, `${field} must not list a value twice`),
    v.metadata({ jsonSchema: { uniqueItems: true } }),
  );
  return v.optional(v.union([one, many], values ? `${field} must be one of ${list(values)}, or a list of them` : `${field} must be a text or a list of 1 to 20 texts`));
}

/** A trigger by its event, with the filter fields that event has (the catalog's), none of them required. */
const triggerOf = (event: TriggerName) => {
  const fields = Object.entries(TRIGGERS[event].filter as Readonly<Record<string, readonly string[] | undefined>>);
  const message = `filter must be an object of ${event}'s fields${fields.length ? ` (${list(fields.map(([field]) => field))})` : ', which has none'}`;
  const entries = v.strictObject(Object.fromEntries(fields.map(([field, values]) => [field, filterValue(field, values)])) as Record<string, ReturnType<typeof filterValue>>, message);
  // valibot's object takes an array as an object of its indexes; a filter must be a real object.
  const filter = v.pipe(v.custom<Record<string, unknown>>(isPlainObject, message), v.metadata({ documentedAs: entries }), entries);
  return v.strictObject({ event: v.literal(event), filter: v.optional(filter, {}) }, 'trigger must be {event, filter?}');
};

/** What starts a run: an event of the catalog, and the values its fields must have. */
export const Trigger = v.pipe(
  v.variant('event', TRIGGER_NAMES.map(triggerOf), `event must be one of ${list(TRIGGER_NAMES)}`),
  v.description('The event that starts a run, and `filter`: the values the event’s fields must have, each one value or a list of values any of which passes. Each event has its own fields (`tag`; `source`; `status`; `from`, `to`), and takes no other.'),
);

const CLOCK = /^(?:[01]\d|2[0-3]):[0-5]\d$/;
const UNTIL = /^(?:(?:[01]\d|2[0-3]):[0-5]\d|24:00)$/;

/** A weekday as the hours write it (`monday`), as capitalised (`Monday`) or as the constants of most APIs (`MONDAY`). */
const DAY_SPELLINGS = WEEKDAYS.flatMap((day) => [day, `${day[0]!.toUpperCase()}${day.slice(1)}`, day.toUpperCase()]);

/**
 * Quiet-hours days in any of their spellings, kept and answered as businessHours writes them: lower case, each once
 * (`["MONDAY", "monday"]` is Monday). The document's request lists the spellings; its answer, the days kept.
 */
const QuietDays = v.pipe(
  v.array(v.picklist(DAY_SPELLINGS, `days must hold weekdays: ${list(WEEKDAYS)} (or MONDAY, Monday, …)`), 'days must be an array of weekdays'),
  v.minLength(1, 'days must name at least one weekday'),
  v.maxLength(WEEKDAYS.length, `days may name at most ${WEEKDAYS.length} weekdays`),
  v.check((days) => new Set(days).size === days.length, 'days must not repeat a weekday'),
  v.metadata({ jsonSchema: { uniqueItems: true } }),
  v.transform((days) => [...new Set(days.map((day) => day.toLowerCase()))]),
  // What is kept and answered, as the document's answers state it: 1 to 7 weekdays in lower case, each once.
  v.array(v.picklist(WEEKDAYS)),
  v.minLength(1),
  v.maxLength(WEEKDAYS.length),
  v.metadata({ jsonSchema: { uniqueItems: true } }),
);

/** When automated SMS may go out, in the organization's time zone; a step due outside waits for the next allowed minute. */
export const QuietHoursRule = v.pipe(
  v.strictObject(
    {
      allowedFrom: v.pipe(v.string('allowedFrom must be a time HH:MM'), v.regex(CLOCK, 'allowedFrom must be a time HH:MM')),
      allowedUntil: v.pipe(v.string('allowedUntil must be a time HH:MM'), v.regex(UNTIL, 'allowedUntil must be a time HH:MM (24:00 for the end of the day)')),
      days: v.optional(QuietDays, [...WEEKDAYS]),
      closedDates: v.optional(v.boolean('closedDates must be a boolean'), true),
    },
    'quietHours must be {allowedFrom, allowedUntil, days?, closedDates?}',
  ),
  v.forward(
    v.check((hours) => hours.allowedFrom < hours.allowedUntil, 'allowedUntil must be after allowedFrom'),
    ['allowedUntil'],
  ),
  v.description('SMS steps go out from `allowedFrom` until `allowedUntil` (`allowedUntil` after `allowedFrom`, 24:00 the end of the day) on `days` (every day when absent; `monday`, `Monday` or `MONDAY`, kept and answered once each in lower case as `businessHours` writes them), and not on the organization’s `closedDates` while `closedDates` is true; a step due outside them waits for the next allowed minute.'),
);

const StopWhen = v.pipe(
  v.array(v.picklist(STOP_CONDITIONS, `stopWhen must hold ${list(STOP_CONDITIONS)}`), 'stopWhen must be an array'),
  v.maxLength(STOP_CONDITIONS.length, `stopWhen may hold at most ${STOP_CONDITIONS.length} conditions`),
  v.check((conditions) => new Set(conditions).size === conditions.length, 'stopWhen must not repeat a condition'),
  v.metadata({ jsonSchema: { uniqueItems: true } }),
  v.description('What stops a run before its last step. `lead.opted_out` stops SMS steps whether listed or not, and a deleted lead stops every run.'),
);

const DEFAULT_HOURS: QuietHours = { ...DEFAULT_QUIET_HOURS, days: [...WEEKDAYS] };

/**
 * An automation's fields, in the order the bodies take them. A create may name a recipe (`fromTemplate`) whose fields
 * it overrides, so no field of the body is required by its schema: rules.ts requires name, trigger and steps of the
 * merged result. Every write moves `version`, the version runs follow.
 */
const attributes = {
  id: { type: v.string() },
  name: { type: v.string(), rule: NonEmptyString('name', 200), required: true },
  isEnabled: { type: v.boolean(), rule: v.boolean('isEnabled must be a boolean'), default: true },
  trigger: { type: Trigger, rule: Trigger, required: true },
  steps: { type: v.array(Step), rule: Steps, required: true },
  stopWhen: { type: v.array(v.picklist(STOP_CONDITIONS)), rule: StopWhen, default: [] },
  quietHours: { type: QuietHoursRule, rule: QuietHoursRule, default: DEFAULT_HOURS },
  /** The recipe it was made from, if any. */
  fromTemplate: { type: v.nullable(v.string()), default: null },
  version: { type: v.pipe(v.number(), v.integer()) },
  ...RECORD_TIMES,
} as const;

/** The automation: its attributes and its item (`AUTOMATION#<id>`, ids ULIDs so the list reads newest first), in the `AUTOMATIONS` change log. */
export const automationEntity = defineEntity({
  entity: 'AUTOMATION',
  attributes,
  key: (o, automationId) => ({ pk: org(o), sk: `AUTOMATION#${automationId}` }),
  changes: 'AUTOMATIONS',
});
