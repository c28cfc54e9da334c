import { ValidationError } from '#shared/errors';
import { wallClockAt } from '#shared/schedule';
import { EARLIEST_INSTANT } from '#shared/schema';

/** The longest range a report reads: a year of a leap year, 366 day items, one or two Queries. */
export const MAX_RANGE_DAYS = 366;
/** The range a report reads when none is given: the 30 days ending today in the organization's time zone. */
export const DEFAULT_RANGE_DAYS = 30;

const DAY_MS = 86_400_000;

/**
 * The first date a report reads: no record carries a time before 1970 (#shared/schema EARLIEST_INSTANT), and a date
 * this side of year 0 keeps every date the range computes (a default `from`, a week's Monday) a four-digit one.
 */
export const EARLIEST_REPORT_DATE = EARLIEST_INSTANT.slice(0, 'YYYY-MM-DD'.length);

/** The calendar date `days` after `date` (YYYY-MM-DD; before it when negative). */
export const dateAfter = (date: string, days: number): string => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** How many days `to` is after `from`. */
export const daysFrom = (from: string, to: string): number => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/** The days a range holds, both ends included. */
export const rangeDays = (from: string, to: string): number => daysFrom(from, to) + 1;

/** Whether a range starts no later than it ends, and holds at most MAX_RANGE_DAYS: the rules the query's schema and the defaults share. */
export const isOrdered = (from: string, to: string) => from <= to;
export const isWithinMaximum = (from: string, to: string) => rangeDays(from, to) <= MAX_RANGE_DAYS;
export const ORDER_RULE = 'from must not be after to';
export const MAXIMUM_RULE = `to must be at most ${MAX_RANGE_DAYS} days from from, both included`;

export interface DateRange {
  from: string;
  to: string;
}

/** What the query asked of the range; either end may be left to its default. */
export interface AskedRange {
  from?: string;
  to?: string;
}

/** The range a `to` alone stands for: the DEFAULT_RANGE_DAYS ending on it. */
const endingOn = (to: string): DateRange => ({ from: dateAfter(to, 1 - DEFAULT_RANGE_DAYS), to });

/**
 * The dates a report will read whatever the organization's time zone, so the Query need not wait for the
 * organization's item: the range itself when `to` is given; with neither end, every date the last 30 days can end
 * on in some zone (today in UTC ± 1, as zones lie within UTC−12 and UTC+14); with `from` alone, none (today there
 * ends it, and how far that is decides whether the range is refused).
 */
export function rangeBeforeTimezone({ from, to }: AskedRange, nowMs: number): DateRange | undefined {
  if (to !== undefined) return from === undefined ? endingOn(to) : { from, to };
  if (from !== undefined) return undefined;
  const today = new Date(nowMs).toISOString().slice(0, 10);
  return { from: dateAfter(today, -DEFAULT_RANGE_DAYS), to: dateAfter(today, 1) };
}

/**
 * The range a report answers: the dates asked, `to` by default today in the organization's time zone and `from` by
 * default the 30 days ending on `to`. A range with both ends given was checked by the query's schema; `from` alone
 * is checked here against today, and named.
 */
export function resolveRange({ from, to }: AskedRange, timezone: string, nowMs: number): DateRange {
  if (to !== undefined) return from === undefined ? endingOn(to) : { from, to };
  const today = wallClockAt(timezone, nowMs).date;
  if (from === undefined) return endingOn(today);
  if (!isOrdered(from, today)) throw new ValidationError([{ path: 'from', message: `${ORDER_RULE} (today, ${today}, in the organization’s time zone, when to is not given)` }]);
  // The caller gave from alone: it is the parameter to name.
  if (!isWithinMaximum(from, today)) throw new ValidationError([{ path: 'from', message: `from must be at most ${MAX_RANGE_DAYS} days before to, both included (today, ${today}, in the organization’s time zone, when to is not given)` }]);
  return { from, to: today };
}

/** Every date of a range, in order. */
export function datesOf({ from, to }: DateRange): string[] {
  return Array.from({ length: rangeDays(from, to) }, (_, index) => dateAfter(from, index));
}
