import * as v from 'valibot';

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
export const isBeforeLatestInstant = (text: string) => !(Date.parse(text) >= Date.parse(LATEST_INSTANT));

/** The start of the times a record may carry: its id is a ULID of its time, which no time before 1970 makes. */
export const EARLIEST_INSTANT = '1970-01-01T00:00:00.000Z';
/** Within the times the service records: from EARLIEST_INSTANT, before LATEST_INSTANT. */
export const isRecordableInstant = (text: string) => Date.parse(text) >= 0 && isBeforeLatestInstant(text);

/** A time's bounds, as its description states them: JSON Schema has no bound for a `date-time`. */
export const BEFORE_LATEST_RULE = `Before ${LATEST_INSTANT}.`;
export const RECORDABLE_RULE = `From ${EARLIEST_INSTANT}, before ${LATEST_INSTANT}.`;

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
