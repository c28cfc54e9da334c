import * as v from 'valibot';
import { isPlainObject, NonEmptyString } from '#shared/schema';
import { WEEKDAYS } from '#shared/schedule';
import { defineEntity, RECORD_TIMES } from '#shared/store/entity';
import { organizationPartition as org } from '#shared/store/keys';
import { DEFAULT_QUIET_HOURS, STOP_CONDITIONS, TRIGGER_NAMES, TRIGGERS, type QuietHours, type TriggerName } from './catalog';
import { Step, Steps } from './steps/schema';
import { prose } from '#shared/prose';

const list = (values: readonly string[]) => values.join(', ');

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
  v.description(prose`
    SMS steps go out from \`allowedFrom\` until \`allowedUntil\` (\`allowedUntil\` after \`allowedFrom\`, 24:00 the end
    of the day) on \`days\` (every day when absent; \`monday\`, \`Monday\` or \`MONDAY\`, kept and answered once each in
    lower case as \`businessHours\` writes them), and not on the organization’s \`closedDates\` while \`closedDates\` is
    true; a step due outside them waits for the next allowed minute.
  `),
);

const StopWhen = v.pipe(
  v.array(v.picklist(STOP_CONDITIONS, `stopWhen must hold ${list(STOP_CONDITIONS)}`), 'stopWhen must be an array'),
  v.maxLength(STOP_CONDITIONS.length, `stopWhen may hold at most ${STOP_CONDITIONS.length} conditions`),
  v.check((conditions) => new Set(conditions).size === conditions.length, 'stopWhen must not repeat a condition'),
  v.metadata({ jsonSchema: { uniqueItems: true } }),
  v.description('What stops a run before its last step. `member.contacted`: a member texted the lead themselves (POST /v1/sms as a member, from the API or the console), so no canned text follows theirs. `lead.opted_out` stops SMS steps whether listed or not, and a deleted lead stops every run.'),
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
