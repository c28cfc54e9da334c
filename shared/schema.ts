import * as v from 'valibot';
import { NotFoundError } from './errors';

/**
 * How an id that cannot exist is answered: exactly as an id that does not, without reaching a key. An id schema
 * registers its format check here with that answer; parsing a path or a body turns a failed check into the answer.
 */
const unknownIdAnswers = new WeakMap<object, (value: unknown) => Error>();

/** The answer registered for a failed check (`issue.requirement`), if it is an id's. */
export function unknownIdAnswer(requirement: unknown): ((value: unknown) => Error) | undefined {
  return typeof requirement === 'object' || typeof requirement === 'function' ? unknownIdAnswers.get(requirement as object) : undefined;
}

export interface IdOptions {
  /** What the resource calls the record when it is not found (`Trade product` → "Trade product not found"). */
  label?: string;
  /** The whole answer to an unknown id, when it is not a 404 (a reference the create refuses with a 400). */
  unknown?: (value: unknown) => Error;
}

/** `inboundEndpointId` → "Inbound endpoint". */
const labelOf = (name: string) => name.replace(/Id$/, '').replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`).replace(/^./, (letter) => letter.toUpperCase());
const answerOf = (name: string, { label, unknown }: IdOptions) => unknown ?? (() => new NotFoundError(`${label ?? labelOf(name)} not found`));

/**
 * Positive integer written in a path or query string. As an id (a name ending in `Id`), one that cannot exist
 * answers as an unknown one does.
 */
export function integerString(name: string, { min = 1, max = 2_147_483_647, ...id }: { min?: number; max?: number } & IdOptions = {}) {
  // As an id, one check of the whole shape first, so the id's answer is found whichever rule after it fails.
  // Written as the API writes ids: no sign, no leading zero (`01` would otherwise reach record 1 under another spelling).
  const possible = (text: string) => !name.endsWith('Id') || (/^(?:0|[1-9]\d*)$/.test(text) && Number(text) >= min && Number(text) <= max);
  if (name.endsWith('Id')) unknownIdAnswers.set(possible, answerOf(name, id));
  return v.pipe(
    v.string(),
    v.check(possible, `${name} must be an integer from ${min} to ${max}`),
    v.regex(/^-?\d+$/, `${name} must be an integer`),
    v.transform(Number),
    // Declares the output type, so the OpenAPI document describes the parameter as an integer.
    v.number(),
    v.integer(`${name} must be an integer`),
    v.minValue(min, `${name} must be at least ${min}`),
    v.maxValue(max, `${name} must be at most ${max}`),
  );
}

export const PAGE_DEFAULT = 1;
export const LIMIT_DEFAULT = 50;
export const LIMIT_MAX = 100;

/** Whether a date or a timestamp's date exists (Date.parse reads 2026-02-30 as 2 March); any other text is not one. */
export function isCalendarDate(text: string): boolean {
  const [year, month, day] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  // setUTCFullYear, as Date.UTC reads years 0 to 99 as 1900 to 1999 (whose leap years differ: 0000-02-29 exists).
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCDate() === day && !Number.isNaN(Date.parse(text));
}

/** A text Date.parse cannot read is the format check's to report, once; one it reads must be a date of the calendar. */
export const isCalendarDateIfParsed = (text: string) => Number.isNaN(Date.parse(text)) || isCalendarDate(text);

/**
 * RFC 3339 date-time text: T and Z may be lower case (§5.6), which valibot's isoTimestamp refuses, so the check reads the
 * text upper-cased. Its pattern also lets through forms no Date reads (an offset of hours alone, `+10`; a space before
 * the offset; a decimal comma), which would then fail where the time is used, so the text must parse too. A v.check
 * states nothing to JSON Schema; DATE_TIME gives the document its format.
 */
export const isDateTimeText = (text: string) => v.ISO_TIMESTAMP_REGEX.test(text.toUpperCase()) && !Number.isNaN(Date.parse(text));
export const DATE_TIME = v.metadata<string, { jsonSchema: { format: string } }>({ jsonSchema: { format: 'date-time' } });

/**
 * The end of the times the service reasons about: a window or a visit computed from a later instant would reach
 * year 10 000, whose dates no ISO 8601 text of four-digit years writes.
 */
export const LATEST_INSTANT = '9999-01-01T00:00:00.000Z';
const isBeforeLatestInstant = (text: string) => !(Date.parse(text) >= Date.parse(LATEST_INSTANT));

/** The start of the times a record may carry: its id is a ULID of its time, which no time before 1970 makes. */
export const EARLIEST_INSTANT = '1970-01-01T00:00:00.000Z';
/** Within the times the service records: from EARLIEST_INSTANT, before LATEST_INSTANT. */
export const isRecordableInstant = (text: string) => Date.parse(text) >= 0 && isBeforeLatestInstant(text);

/** A time's bounds, as its description states them: JSON Schema has no bound for a `date-time`. */
export const BEFORE_LATEST_RULE = `Before ${LATEST_INSTANT}.`;
export const RECORDABLE_RULE = `From ${EARLIEST_INSTANT}, before ${LATEST_INSTANT}.`;

/**
 * A change time a list starts from: an ISO 8601 timestamp, normalized to UTC with milliseconds (as every stored
 * `updatedAt` is written), so comparing the text compares the times.
 */
export const UpdatedSince = v.pipe(
  v.string('updatedSince must be a string'),
  v.maxLength(40, 'updatedSince must be at most 40 characters'),
  v.check(isDateTimeText, 'updatedSince must be an ISO 8601 timestamp, e.g. 2026-11-23T00:00:00.000Z'),
  DATE_TIME,
  v.check(isCalendarDateIfParsed, 'updatedSince must be an ISO 8601 timestamp, e.g. 2026-11-23T00:00:00.000Z'),
  v.check(isBeforeLatestInstant, `updatedSince must be before ${LATEST_INSTANT}`),
  v.transform((text) => new Date(text).toISOString()),
  // Declares the output type, so the OpenAPI document describes the parameter as a date-time.
  v.string(),
  v.isoTimestamp(),
  v.description(
    'Sync: only the records changed (created or updated) at or after this time, oldest change first, by `updatedAt`, once the change is 20 s old (so that no record’s change can commit behind a cursor already passed). Keep following `nextCursor` (with the same updatedSince): at the end it is where the next poll resumes, and a record changed again after you passed it comes again, in its latest state. Deleted records leave the list; read their deletions from `GET /v1/events?type=<resource>.deleted&updatedSince=…`, a minute back, keeping each event id once. Events, audit entries and webhook delivery attempts never change: for them it is their occurredAt / at / attemptedAt, answered once 20 s old as well; events and audit entries are written a moment after their change, later when the writer retries, so read them a minute back keeping each id once. Combined with another filter of the list it answers 400 (but `type` on events and `expand` on inquiries). ' +
      BEFORE_LATEST_RULE,
  ),
);

export const PageQuery = v.object({
  page: v.optional(integerString('page'), String(PAGE_DEFAULT)),
  limit: v.optional(integerString('limit', { max: LIMIT_MAX }), String(LIMIT_DEFAULT)),
  /** The nextCursor of a previous answer of the same list: the next `limit` items, at the same cost at any depth. */
  cursor: v.optional(v.pipe(v.string('cursor must be a string'), v.minLength(1, 'cursor must not be empty'), v.maxLength(2048, 'cursor must be at most 2048 characters'))),
  updatedSince: v.optional(UpdatedSince),
});
export type PageQuery = v.InferOutput<typeof PageQuery>;

/**
 * An ISO 8601 date-time with an offset (Z or ±hh:mm), before LATEST_INSTANT, stored as the same instant in UTC. The
 * description (the field's rule and the bound) is stated on both sides of the transform: a body is documented as sent,
 * a query value as parsed.
 */
export function Instant(name: string, rule: string) {
  const description = `${rule} ${BEFORE_LATEST_RULE}`;
  return v.pipe(
    v.string(`${name} must be a string`),
    v.check(isDateTimeText, `${name} must be an ISO 8601 date-time with an offset, e.g. 2026-12-01T09:00:00+11:00`),
    DATE_TIME,
    v.check(isCalendarDateIfParsed, `${name} must be an ISO 8601 date-time with an offset, e.g. 2026-12-01T09:00:00+11:00`),
    v.check(isBeforeLatestInstant, `${name} must be before ${LATEST_INSTANT}`),
    v.description(description),
    v.transform((at) => new Date(at).toISOString()),
    // Declares the output type, so the document describes the parsed value.
    v.string(),
    v.isoTimestamp(),
    v.description(description),
  );
}

/** A stored time as the API answers it: RFC 3339, T and Z as the sender wrote them in a record kept as sent. */
export const Timestamp = v.pipe(v.string(), v.check(isDateTimeText), DATE_TIME);

/** Control characters other than tab, line feed and carriage return: never part of text a person wrote. */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/**
 * Unicode's format characters (Cf) of the Basic Multilingual Plane, such as the zero-width space, written out rather
 * than as `\p{Cf}`: the document's pattern must compile in every validator (Python's `re` has no `\p{…}`, and
 * validators that read a pattern by UTF-16 unit cannot take a range of characters beyond the plane either). U+FEFF,
 * white space as well, is left to WHITE_SPACE, so that no character is in both.
 */
const FORMAT_CHARACTERS = '\\u00AD\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890\\u0891\\u08E2\\u180E\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uFFF9-\\uFFFB';
/** White space as JavaScript's `\s` and trim() read it, written out: Python's `\s` takes control characters as well. */
const WHITE_SPACE = '\\t\\n\\u000B\\u000C\\r \\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\uFEFF';
/**
 * Characters that show nothing: white space and format characters, all of them. Text of nothing but format characters
 * beyond the plane (tag characters, musical formatting) is refused here though the document's pattern takes it.
 */
const INVISIBLE = new RegExp(`[\\s${FORMAT_CHARACTERS}\\u{110BD}\\u{110CD}\\u{13430}-\\u{1343F}\\u{1BCA0}-\\u{1BCA3}\\u{1D173}-\\u{1D17A}\\u{E0001}\\u{E0020}-\\u{E007F}]`, 'gu');

/**
 * Half of a character (a UTF-16 surrogate without its pair) spells no text: UTF-8, which DynamoDB stores, cannot
 * encode it, and strict JSON readers refuse an answer that carries it.
 */
const isWholeText = (text: string) => text.isWellFormed();

/**
 * At most `max` characters, counted as the document's JSON Schema `maxLength` counts them (code points), not as
 * JavaScript's `length` does (UTF-16 units, two for an emoji): a text the document allows is never refused.
 */
export const atMostCharacters = (name: string, max: number) =>
  v.check((text: string) => {
    let count = 0;
    for (const _ of text) if (++count > max) return false;
    return true;
  }, `${name} must be at most ${max} characters`);

/** What every free-text field accepts, in words and as the document's pattern (the checks above, read as one). */
export const TEXT_RULE = 'Trimmed of surrounding white space; must have at least one visible character, no control characters other than tab, line feed and carriage return, and no half of a character (a lone surrogate).';
const NOT_CONTROL = '[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]';
/**
 * White space around the text is trimmed before the checks, so any may stand there, the two control characters that
 * are white space (vertical tab, form feed) included. Read left to right, each character has one part of the pattern
 * that can take it, so a validator that backtracks never tries one text split two ways (its time grows with the
 * length, not a power of it): white space; before the first visible character, format characters and white space but
 * the two; the first visible character; any text but control characters; a vertical tab or a form feed, and only
 * white space after it.
 */
export const TEXT_PATTERN =
  `^[${WHITE_SPACE}]*(?:[${FORMAT_CHARACTERS}][${FORMAT_CHARACTERS}${WHITE_SPACE.replace('\\u000B\\u000C', '')}]*)?` +
  `[^${WHITE_SPACE}${FORMAT_CHARACTERS}\\u0000-\\u001F\\u007F-\\u009F]${NOT_CONTROL}*(?:[\\u000B\\u000C][${WHITE_SPACE}]*)?$`;

/**
 * Text a person wrote: normalized to NFC (so é is one character however it was typed), trimmed, free of
 * control characters, with at least one visible character, and at most `max` characters.
 */
export const NonEmptyString = (name: string, max = 500) =>
  v.pipe(
    v.string(`${name} must be a string`),
    v.normalize('NFC'),
    v.trim(),
    v.minLength(1, `${name} must not be empty`),
    v.check((text) => !CONTROL.test(text), `${name} must not contain control characters`),
    v.check(isWholeText, `${name} must not hold half of a character (a lone surrogate)`),
    v.check((text) => text.replace(INVISIBLE, '') !== '', `${name} must have a visible character`),
    atMostCharacters(name, max),
    v.description(TEXT_RULE),
    v.metadata({ jsonSchema: { pattern: TEXT_PATTERN, maxLength: max } }),
  );

/** Keys a valibot record leaves out of what it answers (names of Object.prototype's own), so it would drop them silently. */
const UNKEPT_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Refuses, naming the field, an object with a key a record would drop: run on the input, before the record. */
export const everyKeyKept = (name: string) =>
  v.check<Record<string, unknown>, string>((input) => !Object.keys(input).some((key) => UNKEPT_KEYS.has(key)), `${name} must not have a key named __proto__, constructor or prototype`);

/** An object, not an array: what a record reads an array as (an object of its indexes) is refused. */
export const isPlainObject = (input: unknown): input is Record<string, unknown> => typeof input === 'object' && input !== null && !Array.isArray(input);

/** The rule of free text that may be empty (a description, a receptionist's answer), and its pattern. */
export const OPTIONAL_TEXT_RULE = 'Trimmed of surrounding white space; may be empty; no control characters other than tab, line feed and carriage return, and no half of a character (a lone surrogate).';
export const OPTIONAL_TEXT_PATTERN = `^${NOT_CONTROL}*$`;

/** Text a person wrote that may be empty: NFC, trimmed, free of control characters, at most `max` characters. */
export const OptionalText = (name: string, max: number) =>
  v.pipe(
    v.string(`${name} must be a string`),
    v.normalize('NFC'),
    v.trim(),
    v.check((text) => !CONTROL.test(text), `${name} must not contain control characters`),
    v.check(isWholeText, `${name} must not hold half of a character (a lone surrogate)`),
    atMostCharacters(name, max),
    v.description(OPTIONAL_TEXT_RULE),
    v.metadata({ jsonSchema: { pattern: OPTIONAL_TEXT_PATTERN, maxLength: max } }),
  );

/**
 * An id the API issued: `<kind>_` and a 26-character ULID, exactly. Checking the whole format keeps
 * any other text (a `#`, a key fragment) from ever reaching a key.
 */
export function PrefixedId(kind: string, name: string, id: IdOptions = {}) {
  const format = new RegExp(`^${kind}_[0-9A-HJKMNP-TV-Z]{26}$`);
  unknownIdAnswers.set(format, answerOf(name, id));
  return v.pipe(v.string(`${name} must be a string`), v.regex(format, `${name} must be a ${kind} id: ${kind}_ followed by 26 characters`));
}

/** How exactly an amount of money is written: whole cents, which also keeps it within what DynamoDB stores (no magnitude under 1e-130). */
export const MONEY_RULE = 'An amount with at most 2 decimal places.';

/** An amount of money from 0 to `max`, in whole cents. */
export const Money = (name: string, max: number) =>
  v.pipe(
    v.number(`${name} must be a number`),
    v.finite(`${name} must be a finite number`),
    v.minValue(0, `${name} must not be negative`),
    v.maxValue(max, `${name} must be at most ${max}`),
    // The amount must be the double nearest its whole cents (0.07 * 100 is not exactly 7, but rounds back to 0.07).
    v.check((amount) => Math.round(amount * 100) / 100 === amount, `${name} must have at most 2 decimal places`),
    v.description(MONEY_RULE),
    v.metadata({ jsonSchema: { multipleOf: 0.01 } }),
  );

/** RFC 5321's bounds of an address, which the document's `format: email` carries: 64 characters before the @, 254 in all. */
export const EMAIL_LOCAL_MAX = 64;
export const EMAIL_MAX = 254;

/**
 * An email address: trimmed, valibot's grammar (the document's pattern, one @), and RFC 5321's bounds. `typeMessage`
 * answers a value that is not a string.
 */
export const Email = (name: string, typeMessage = `${name} must be a string`) =>
  v.pipe(
    v.string(typeMessage),
    v.trim(),
    v.email(`${name} must be a valid email address`),
    v.check((email) => email.indexOf('@') <= EMAIL_LOCAL_MAX, `${name} must have at most ${EMAIL_LOCAL_MAX} characters before the @`),
    v.maxLength(EMAIL_MAX, `${name} must be at most ${EMAIL_MAX} characters`),
  );

/** A phone number in E.164: a plus, a country code and up to 15 digits in all. */
export const E164 = /^\+[1-9]\d{6,14}$/;

/** A list response: the items under `key` plus totalPages, currentPage and totalCount. */
export function pageSchema<K extends string, S extends v.GenericSchema>(key: K, item: S) {
  return v.object({
    ...({ [key]: v.array(item) } as { [P in K]: v.ArraySchema<S, undefined> }),
    totalPages: v.pipe(v.number(), v.integer()),
    currentPage: v.pipe(v.number(), v.integer()),
    totalCount: v.pipe(v.number(), v.integer()),
    /** Pass as `cursor` for the items after these; null after the last. */
    nextCursor: v.nullable(v.string()),
  });
}

export const ErrorEnvelopeSchema = v.object({
  success: v.literal(false),
  message: v.string(),
  error: v.object({
    status: v.pipe(v.number(), v.integer()),
    message: v.string(),
    code: v.optional(v.string()),
    details: v.optional(v.array(v.object({ path: v.string(), message: v.string(), existingId: v.optional(v.string()) }))),
  }),
});

/** What a DELETE answers: the id of the record that is gone. */
export const deletedSchema = <S extends v.GenericSchema>(id: S) => v.object({ success: v.literal(true), id });
export const DeletedSchema = deletedSchema(v.string());

type OptionalEntries<T extends v.ObjectEntries> = { [K in keyof T]: v.OptionalSchema<T[K], undefined> };

/**
 * A PUT body: any non-empty subset of the resource's writable fields; absent fields stay as they
 * are, unknown fields answer 400.
 */
export function partialUpdateBody<T extends v.ObjectEntries>(fields: T) {
  const entries = Object.fromEntries(Object.entries(fields).map(([name, schema]) => [name, v.optional(schema)])) as OptionalEntries<T>;
  return v.pipe(
    v.strictObject(entries),
    v.check((body) => Object.keys(body).length > 0, 'body must contain at least one field to change'),
    v.metadata({ jsonSchema: { minProperties: 1 } }),
  );
}

/**
 * What a new record of an entity holds in each field nobody has set, read from its schema so a field's empty value is
 * never written twice: the field's default where it has one, else null where it may be null, 0 for a number, false
 * for a boolean, an empty object or array. A field with none of these (a string, a picklist) must be given.
 */
export function emptyFieldsOf<T extends v.ObjectEntries>(schema: v.ObjectSchema<T, undefined>): Partial<v.InferOutput<v.ObjectSchema<T, undefined>>> {
  const empty = (field: v.GenericSchema): unknown => {
    switch (field.type) {
      case 'optional':
        return v.getDefault(field as v.OptionalSchema<v.GenericSchema, unknown>);
      case 'nullable':
        return null;
      case 'number':
        return 0;
      case 'boolean':
        return false;
      case 'record':
      case 'object':
        return {};
      case 'array':
        return [];
      default:
        return undefined;
    }
  };
  return Object.fromEntries(Object.entries(schema.entries).flatMap(([name, field]) => {
    const value = empty(field as v.GenericSchema);
    return value === undefined ? [] : [[name, value]];
  })) as Partial<v.InferOutput<v.ObjectSchema<T, undefined>>>;
}
