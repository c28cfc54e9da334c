import * as v from 'valibot';
import { isCalendarDate, isPlainObject } from './schema';

/**
 * Weekly opening hours read in an IANA time zone: a list of periods per weekday (a day left out is closed) and dates
 * the place is closed whatever the weekday says. Times are wall-clock times, so 07:00 stays 07:00 across a DST change.
 */
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** At most this many periods a day (a split shift with breaks fits; a list of every quarter hour does not). */
export const MAX_PERIODS_A_DAY = 6;
/** At most this many closed dates: a year of holidays and more. */
export const MAX_CLOSED_DATES = 366;

const CLOCK = /^(?:[01]\d|2[0-3]):[0-5]\d$/;
/** A close may also be 24:00, the end of the day; anchored as a whole, so nothing may follow the minutes. */
const CLOSING_CLOCK = new RegExp(`^(?:${CLOCK.source.slice(1, -1)}|24:00)$`);
/** A close as it could once be stored: HH:MM with more after it. */
const LEGACY_CLOSE = new RegExp(`^(?:${CLOCK.source.slice(1, -1)}).`);
const minutesOf = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));

const Clock = (name: string, { endOfDay = false } = {}) =>
  v.pipe(
    v.string(`${name} must be a time HH:MM`),
    v.regex(endOfDay ? CLOSING_CLOCK : CLOCK, `${name} must be a time HH:MM${endOfDay ? ' (24:00 for the end of the day)' : ''}`),
  );

/**
 * Stored hours as the schema now reads them. A close was once taken with anything after its HH:MM ('17:00:00',
 * '05:00 PM'), and the schedule only ever read its first five characters: such a stored close reads as those five, so
 * a record written then still reads (and shows the close it was always open until). Anything else is left as it is.
 */
export function storedHours(hours: unknown): unknown {
  if (!isPlainObject(hours)) return hours;
  const read = (period: unknown) => (isPlainObject(period) && typeof period.close === 'string' && LEGACY_CLOSE.test(period.close) ? { ...period, close: period.close.slice(0, 5) } : period);
  return Object.fromEntries(Object.entries(hours).map(([day, periods]) => [day, Array.isArray(periods) ? periods.map(read) : periods]));
}

/** What a period is, in words: no schema keyword compares two fields. Said once, by the week's hours, not by each day's periods. */
const PERIOD_RULE = '`close` is after `open` on the same day: hours past midnight are two periods (22:00–24:00, then 00:00–02:00).';

export const Period = v.pipe(
  v.strictObject({ open: Clock('open'), close: Clock('close', { endOfDay: true }) }, 'each period must be {open, close}'),
  v.forward(
    v.check((period) => minutesOf(period.open) < minutesOf(period.close), 'close must be after open (a period ends on the day it starts)'),
    ['close'],
  ),
);
export type Period = v.InferOutput<typeof Period>;

const DayPeriods = v.pipe(
  v.array(Period, 'a day must be a list of {open, close} periods'),
  v.maxLength(MAX_PERIODS_A_DAY, `a day may have at most ${MAX_PERIODS_A_DAY} periods`),
  v.check(
    (periods) => [...periods].sort((a, b) => minutesOf(a.open) - minutesOf(b.open)).every((period, i, sorted) => i === 0 || minutesOf(sorted[i - 1]!.close) <= minutesOf(period.open)),
    'periods of a day must not overlap',
  ),
);

const WeekdayPeriods = v.pipe(
  v.strictObject(Object.fromEntries(WEEKDAYS.map((day) => [day, v.optional(DayPeriods)])) as Record<Weekday, v.OptionalSchema<typeof DayPeriods, undefined>>, 'hours must be an object of weekdays'),
  v.description(`Periods per weekday in the organization’s time zone, each \`{open, close}\` as HH:MM (close may be 24:00), not overlapping; a day left out or empty is closed. ${PERIOD_RULE}`),
);

/** valibot's object takes an array as an object with no keys: `[]` would be read as hours closed all week. */
export const WeeklyHours = v.pipe(v.custom<Record<string, unknown>>(isPlainObject, 'hours must be an object of weekdays, not an array'), v.metadata({ documentedAs: WeekdayPeriods }), WeekdayPeriods);
export type WeeklyHours = v.InferOutput<typeof WeeklyHours>;

const DATE = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])$/;
/**
 * A day of the calendar, YYYY-MM-DD. The pattern cannot tell the days of each month (2027-02-31 matches it), so the
 * document also gives it `format: date` (RFC 3339's full-date, which does) and says so.
 */
const CalendarDate = v.pipe(
  v.string('each closed date must be a date YYYY-MM-DD'),
  v.regex(DATE, 'each closed date must be a date YYYY-MM-DD'),
  v.check(isCalendarDate, 'each closed date must be a date of the calendar'),
  v.metadata({ jsonSchema: { format: 'date' } }),
  v.description('A date the calendar has: 2027-02-31 is refused, 2028-02-29 taken.'),
);
export const ClosedDates = v.pipe(
  v.array(CalendarDate, 'closedDates must be a list of dates'),
  v.maxLength(MAX_CLOSED_DATES, `closedDates may have at most ${MAX_CLOSED_DATES} dates`),
  v.check((dates) => new Set(dates).size === dates.length, 'closedDates must not repeat a date'),
  v.description('Dates (YYYY-MM-DD, in the organization’s time zone, each a date the calendar has) closed all day whatever the weekly hours say, such as public holidays.'),
  v.metadata({ jsonSchema: { uniqueItems: true } }),
);

export interface Schedule {
  hours: WeeklyHours;
  closedDates: readonly string[];
  timezone: string;
}

/** A time zone's wall clock at an instant: its date, weekday and minute of the day. */
interface WallClock {
  date: string;
  weekday: Weekday;
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(timezone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timezone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone: timezone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', weekday: 'long' });
    formatters.set(timezone, formatter);
  }
  return formatter;
}

function partsAt(timezone: string, epochMs: number) {
  const parts = Object.fromEntries(formatterOf(timezone).formatToParts(epochMs).map((part) => [part.type, part.value]));
  return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day), hour: Number(parts.hour), minute: Number(parts.minute), second: Number(parts.second), weekday: parts.weekday!.toLowerCase() as Weekday };
}

export function wallClockAt(timezone: string, epochMs: number): WallClock {
  const { year, month, day, hour, minute, weekday } = partsAt(timezone, epochMs);
  return { date: `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`, weekday, minute: hour * 60 + minute };
}

/** The zone's offset from UTC at an instant, in milliseconds. */
function offsetAt(timezone: string, epochMs: number): number {
  const { year, month, day, hour, minute, second } = partsAt(timezone, epochMs);
  return Date.UTC(year, month - 1, day, hour, minute, second) - Math.floor(epochMs / 1000) * 1000;
}

/**
 * The instant a wall-clock time of a date is reached in the zone. A time a DST change skips (02:30 on the morning
 * clocks go forward) is reached at the change itself; a time that happens twice is its first occurrence.
 */
export function instantOf(timezone: string, date: string, minuteOfDay: number): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const naive = Date.UTC(year, month - 1, day) + minuteOfDay * 60_000;
  // The instant is within 14 hours of `naive`; the offsets a day either side cover any change near it. The larger
  // offset first, so a time the clocks go back over is its first occurrence.
  const offsets = [...new Set([offsetAt(timezone, naive - 86_400_000), offsetAt(timezone, naive + 86_400_000)])].sort((a, b) => b - a);
  for (const offset of offsets) {
    const clock = wallClockAt(timezone, naive - offset);
    if (clock.date === date && clock.minute === minuteOfDay) return naive - offset;
  }
  // Skipped by the clocks going forward: the first minute whose wall clock is past it, which is the change itself.
  const reached = (instant: number) => {
    const clock = wallClockAt(timezone, instant);
    return clock.date > date || (clock.date === date && clock.minute >= minuteOfDay);
  };
  let [before, after] = [naive - offsets[0]!, naive - offsets[offsets.length - 1]!];
  while (after - before > 60_000) {
    const middle = before + Math.floor((after - before) / 120_000) * 60_000;
    if (reached(middle)) after = middle;
    else before = middle;
  }
  return after;
}

/** The calendar date `days` after `date` (YYYY-MM-DD). */
function dateAfter(date: string, days: number): string {
  return dateOfDay(dayOf(date) + days);
}

const nextDate = (date: string) => dateAfter(date, 1);

/** A date as a count of days since 1970-01-01, and back: whole days are stepped over as numbers, not as strings. */
const dayOf = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;
const dateOfDay = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);
/** The day's place in WEEKDAYS: 1970-01-01 was a Thursday, the fourth day of a week that starts on Monday. */
const weekdayIndexOfDay = (day: number): number => (((day + 3) % 7) + 7) % 7;

/** A day's periods earliest first, and whether they cover it from 00:00 to 24:00 without a gap (periods that meet). */
function dayShape(periods: readonly Period[] = []) {
  const sorted = [...periods].sort((a, b) => minutesOf(a.open) - minutesOf(b.open));
  const allDay = sorted.length > 0 && sorted[0]!.open === '00:00' && sorted[sorted.length - 1]!.close === '24:00' && sorted.every((period, i) => i === 0 || sorted[i - 1]!.close === period.open);
  return { periods: sorted, allDay };
}

/**
 * Each opening of the schedule as instants, from the day of `fromMs` onwards, for `days` days. Days open from 00:00 to
 * 24:00 one after another are one opening, from the first day's midnight to the midnight after the last: what their
 * periods, merged, would give, found by stepping over whole days (a business open around the clock costs what one with
 * a closing each day does). Days closed all day are stepped over the same way, with no reading of the zone's clock.
 */
function* openings({ hours, closedDates, timezone }: Schedule, fromMs: number, days: number): Generator<{ opensAt: number; closesAt: number }> {
  const shapes = WEEKDAYS.map((weekday) => dayShape(hours[weekday]));
  if (shapes.every((shape) => shape.periods.length === 0)) return;
  const closedDays = closedDates.map(dayOf).filter(Number.isFinite).sort((a, b) => a - b);
  const closed = new Set(closedDays);
  const shapeOf = (day: number) => shapes[weekdayIndexOfDay(day)]!;
  const first = dayOf(wallClockAt(timezone, fromMs).date);
  const end = first + days;
  for (let day = first; day < end; day++) {
    if (closed.has(day)) continue;
    const { periods, allDay } = shapeOf(day);
    if (allDay) {
      const until = Math.min(end, nextClosedDay(closedDays, day), nextPartDay(shapeOf, day));
      yield { opensAt: instantOf(timezone, dateOfDay(day), 0), closesAt: instantOf(timezone, dateOfDay(until), 0) };
      day = until - 1;
      continue;
    }
    const date = dateOfDay(day);
    for (const period of periods) {
      const closesAt = period.close === '24:00' ? instantOf(timezone, nextDate(date), 0) : instantOf(timezone, date, minutesOf(period.close));
      yield { opensAt: instantOf(timezone, date, minutesOf(period.open)), closesAt };
    }
  }
}

/** The first closed date after `day` (closedDays sorted), or Infinity. */
function nextClosedDay(closedDays: readonly number[], day: number): number {
  let [low, high] = [0, closedDays.length];
  while (low < high) {
    const middle = (low + high) >> 1;
    if (closedDays[middle]! <= day) low = middle + 1;
    else high = middle;
  }
  return closedDays[low] ?? Infinity;
}

/** The first day after `day` whose weekday is not open all day, or Infinity when every weekday is. */
function nextPartDay(shapeOf: (day: number) => { allDay: boolean }, day: number): number {
  for (let ahead = 1; ahead <= 7; ahead++) {
    if (!shapeOf(day + ahead).allDay) return day + ahead;
  }
  return Infinity;
}

/** How far ahead the next opening is looked for: every closed date plus two weeks. */
const LOOKAHEAD_DAYS = MAX_CLOSED_DATES + 14;

/**
 * Whether the schedule is open at `atMs`, when the current opening closes, and when it next opens. Periods that
 * meet (17:00–24:00 then 00:00–08:00) are one opening. `closesAt` is null while closed, and while open with no
 * closing within the lookahead; `nextOpenAt` is null while open, and when nothing opens within the lookahead.
 */
export function openingState(schedule: Schedule, atMs: number): { isOpenNow: boolean; closesAt: string | null; nextOpenAt: string | null } {
  let current: { opensAt: number; closesAt: number } | undefined;
  // From the day before: a period of yesterday may still be open (a night shift ends at 24:00 into today).
  const fromMs = atMs - 86_400_000;
  for (const opening of openings(schedule, fromMs, LOOKAHEAD_DAYS + 1)) {
    if (current && opening.opensAt <= current.closesAt) {
      current.closesAt = Math.max(current.closesAt, opening.closesAt);
      continue;
    }
    if (current) return { isOpenNow: true, closesAt: new Date(current.closesAt).toISOString(), nextOpenAt: null };
    if (opening.opensAt <= atMs && atMs < opening.closesAt) current = { ...opening };
    else if (opening.opensAt > atMs) return { isOpenNow: false, closesAt: null, nextOpenAt: new Date(opening.opensAt).toISOString() };
  }
  if (!current) return { isOpenNow: false, closesAt: null, nextOpenAt: null };
  // The last opening of the lookahead closes before its end (a business closed for the season after today): that is
  // its closing. Only an opening that runs to the end of the lookahead (every day 00:00–24:00) has none to name.
  const horizon = instantOf(schedule.timezone, dateAfter(wallClockAt(schedule.timezone, fromMs).date, LOOKAHEAD_DAYS + 1), 0);
  return { isOpenNow: true, closesAt: current.closesAt < horizon ? new Date(current.closesAt).toISOString() : null, nextOpenAt: null };
}

/** A span of time as instants in milliseconds: from `start`, up to but not including `end`. */
export interface Interval {
  start: number;
  end: number;
}

/** The schedule's openings that overlap [fromMs, toMs), earliest first, periods that meet (17:00–24:00, 00:00–08:00) as one. */
export function openIntervals(schedule: Schedule, fromMs: number, toMs: number): Interval[] {
  // From the day before, and further back while the first period runs into the days read (periods that meet are one,
  // so a period open since earlier starts where it truly opened: slots are anchored there whatever `from` is asked).
  for (let back = 1; ; back++) {
    const merged: Interval[] = [];
    const readFrom = fromMs - back * 86_400_000;
    // A day of the window may be 23 hours long (a daylight-saving change), so one more date than 24-hour days is read.
    const days = Math.ceil((toMs - fromMs) / 86_400_000) + back + 2;
    for (const { opensAt, closesAt } of openings(schedule, readFrom, days)) {
      const last = merged[merged.length - 1];
      if (last && opensAt <= last.end) last.end = Math.max(last.end, closesAt);
      else merged.push({ start: opensAt, end: closesAt });
    }
    const first = merged[0];
    // A week back is as far as a period can run into: open around the clock all week, it has no start to find.
    if (!first || first.end <= fromMs || first.start > readFrom + 86_400_000 || back === MAX_LOOK_BACK_DAYS) {
      return merged.filter((interval) => interval.start < toMs && interval.end > fromMs);
    }
  }
}

/** How many days before a window its first working period is looked for. */
const MAX_LOOK_BACK_DAYS = 8;

/** Where two lists of intervals, each sorted and not overlapping, overlap each other. */
export function intersectIntervals(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const both: Interval[] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    const start = Math.max(a[i]!.start, b[j]!.start);
    const end = Math.min(a[i]!.end, b[j]!.end);
    if (start < end) both.push({ start, end });
    if (a[i]!.end < b[j]!.end) i++;
    else j++;
  }
  return both;
}
