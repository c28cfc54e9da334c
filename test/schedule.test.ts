import { afterEach, describe, expect, it, vi } from 'vitest';
import { instantOf, openingState, openIntervals, type Schedule } from '#shared/schedule';

/** Wall-clock opening hours read in a time zone, at fixed instants: DST changes, night shifts, holidays. */

const weekdays = (open: string, close: string) =>
  Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((day) => [day, [{ open, close }]]));
const sydney = (hours: Schedule['hours'], closedDates: string[] = []): Schedule => ({ hours, closedDates, timezone: 'Australia/Sydney' });
const at = (iso: string) => Date.parse(iso);
const everyDay = (periods: { open: string; close: string }[], days = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']) =>
  Object.fromEntries(days.map((day) => [day, periods]));
const allDay = [{ open: '00:00', close: '24:00' }];
const open = (closesAt: string | null) => ({ isOpenNow: true, closesAt, nextOpenAt: null });
const closed = (nextOpenAt: string | null) => ({ isOpenNow: false, closesAt: null, nextOpenAt });
const dateAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

describe('a time of day in a time zone', () => {
  it('is read with the offset of its own date, on either side of a DST change', () => {
    // Sydney: AEST (+10) until 2026-10-04 02:00, AEDT (+11) after.
    expect(new Date(instantOf('Australia/Sydney', '2026-10-02', 7 * 60)).toISOString()).toBe('2026-10-01T21:00:00.000Z');
    expect(new Date(instantOf('Australia/Sydney', '2026-10-05', 7 * 60)).toISOString()).toBe('2026-10-04T20:00:00.000Z');
    expect(new Date(instantOf('America/New_York', '2026-11-02', 9 * 60)).toISOString()).toBe('2026-11-02T14:00:00.000Z');
    expect(new Date(instantOf('Asia/Kolkata', '2026-11-02', 9 * 60)).toISOString()).toBe('2026-11-02T03:30:00.000Z');
  });

  it('skipped by the clocks going forward is reached at the change itself', () => {
    expect(new Date(instantOf('Australia/Sydney', '2026-10-04', 2 * 60 + 30)).toISOString()).toBe('2026-10-03T16:00:00.000Z');
    expect(new Date(instantOf('America/New_York', '2026-03-08', 2 * 60 + 30)).toISOString()).toBe('2026-03-08T07:00:00.000Z');
  });

  it('repeated by the clocks going back is its first occurrence', () => {
    expect(new Date(instantOf('Australia/Sydney', '2026-04-05', 2 * 60 + 30)).toISOString()).toBe('2026-04-04T15:30:00.000Z');
    expect(new Date(instantOf('America/New_York', '2026-11-01', 60 + 30)).toISOString()).toBe('2026-11-01T05:30:00.000Z');
  });
});

describe('whether a schedule is open', () => {
  const hours = weekdays('07:00', '17:00');

  it('is open inside a period, naming when it closes', () => {
    expect(openingState(sydney(hours), at('2026-10-01T22:00:00Z'))).toEqual({ isOpenNow: true, closesAt: '2026-10-02T07:00:00.000Z', nextOpenAt: null });
  });

  it('opens at the start of a period and is closed at its end', () => {
    expect(openingState(sydney(hours), at('2026-10-01T21:00:00Z')).isOpenNow).toBe(true);
    expect(openingState(sydney(hours), at('2026-10-01T20:59:59.999Z')).isOpenNow).toBe(false);
    expect(openingState(sydney(hours), at('2026-10-02T07:00:00Z'))).toEqual({ isOpenNow: false, closesAt: null, nextOpenAt: '2026-10-04T20:00:00.000Z' });
  });

  it('after Friday’s close next opens on Monday, under the offset DST gave Monday', () => {
    expect(openingState(sydney(hours), at('2026-10-02T08:00:00Z'))).toEqual({ isOpenNow: false, closesAt: null, nextOpenAt: '2026-10-04T20:00:00.000Z' });
  });

  it('skips a closed date, in the organization’s time zone', () => {
    // Monday 2026-10-05 is Labour Day in NSW.
    expect(openingState(sydney(hours, ['2026-10-05']), at('2026-10-02T08:00:00Z')).nextOpenAt).toBe('2026-10-05T20:00:00.000Z');
    // At 08:00 on a closed date the business is closed, though Monday's hours say open.
    expect(openingState(sydney(hours, ['2026-10-05']), at('2026-10-04T21:00:00Z')).isOpenNow).toBe(false);
  });

  it('keeps a night shift open past midnight, periods that meet being one opening', () => {
    const nights = sydney({ friday: [{ open: '17:00', close: '24:00' }], saturday: [{ open: '00:00', close: '08:00' }] });
    expect(openingState(nights, at('2026-11-27T10:00:00Z'))).toEqual({ isOpenNow: true, closesAt: '2026-11-27T21:00:00.000Z', nextOpenAt: null });
    // Saturday 02:00 is yesterday's shift still running.
    expect(openingState(nights, at('2026-11-27T15:00:00Z')).closesAt).toBe('2026-11-27T21:00:00.000Z');
  });

  it('with no period at all is closed with nothing to open, and open every hour has no closing to name', () => {
    expect(openingState(sydney({}), at('2026-10-02T08:00:00Z'))).toEqual({ isOpenNow: false, closesAt: null, nextOpenAt: null });
    const always = sydney(Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => [day, [{ open: '00:00', close: '24:00' }]])));
    expect(openingState(always, at('2026-10-02T08:00:00Z'))).toEqual({ isOpenNow: true, closesAt: null, nextOpenAt: null });
  });
});

describe('a business open around the clock', () => {
  // Instants on either side of each zone's DST changes, and at ordinary hours: Sydney goes forward at 2026-10-03T16:00Z
  // and back at 2026-04-04T16:00Z, New York forward at 2026-03-08T07:00Z and back at 2026-11-01T06:00Z, Chatham
  // (+12:45/+13:45) forward at 2026-09-26T14:00Z; Kolkata keeps +05:30.
  const instants = ['2026-10-03T15:59:59Z', '2026-10-03T16:00:00Z', '2026-04-04T15:30:00Z', '2026-04-04T16:30:00Z', '2026-03-08T07:00:00Z', '2026-11-01T05:30:00Z', '2026-11-01T06:30:00Z', '2026-09-26T14:00:00Z', '2026-06-15T00:00:00Z', '2026-06-15T12:00:00Z', '2026-12-31T23:59:59Z'];
  const zones = ['Australia/Sydney', 'America/New_York', 'Pacific/Chatham', 'Asia/Kolkata', 'UTC'];

  it('is open with no closing to name, in every zone at every hour, DST changes included', () => {
    for (const timezone of zones) {
      for (const instant of instants) {
        expect(openingState({ hours: everyDay(allDay), closedDates: [], timezone }, at(instant)), `${timezone} ${instant}`).toEqual(open(null));
        // Two periods that meet at noon cover the day as one does.
        expect(openingState({ hours: everyDay([{ open: '00:00', close: '12:00' }, { open: '12:00', close: '24:00' }]), closedDates: [], timezone }, at(instant)), `${timezone} ${instant}`).toEqual(open(null));
      }
    }
  });

  it('closes at the midnight that starts a closed date, under the offset of that date', () => {
    const always = (closedDates: string[], timezone = 'Australia/Sydney'): Schedule => ({ hours: everyDay(allDay), closedDates, timezone });
    // Sydney's Labour Day falls the day after clocks go forward: its midnight is AEDT (+11).
    expect(openingState(always(['2026-10-05']), at('2026-10-02T08:00:00Z'))).toEqual(open('2026-10-04T13:00:00.000Z'));
    expect(openingState(always(['2026-12-25']), at('2026-10-02T08:00:00Z'))).toEqual(open('2026-12-24T13:00:00.000Z'));
    // Ten months away, in winter (AEST, +10): still named.
    expect(openingState(always(['2027-07-30']), at('2026-10-02T08:00:00Z'))).toEqual(open('2027-07-29T14:00:00.000Z'));
    // New York's first day of standard time (EST, -05:00), asked in daylight time.
    expect(openingState(always(['2026-11-02'], 'America/New_York'), at('2026-10-31T12:00:00Z'))).toEqual(open('2026-11-02T05:00:00.000Z'));
    expect(openingState(always(['2026-11-02'], 'Asia/Kolkata'), at('2026-10-31T12:00:00Z'))).toEqual(open('2026-11-01T18:30:00.000Z'));
  });

  it('on a closed date is closed until the next midnight, then open again', () => {
    const always = (closedDates: string[], timezone = 'Australia/Sydney'): Schedule => ({ hours: everyDay(allDay), closedDates, timezone });
    expect(openingState(always(['2026-10-05']), at('2026-10-05T02:00:00Z'))).toEqual(closed('2026-10-05T13:00:00.000Z'));
    expect(openingState(always(['2026-10-05']), at('2026-10-05T12:59:59Z'))).toEqual(closed('2026-10-05T13:00:00.000Z'));
    expect(openingState(always(['2026-10-05']), at('2026-10-05T13:00:00Z'))).toEqual(open(null));
    // Two closed dates in a row, the clocks going back in New York between them.
    expect(openingState(always(['2026-10-31', '2026-11-01'], 'America/New_York'), at('2026-10-31T16:00:00Z'))).toEqual(closed('2026-11-02T05:00:00.000Z'));
  });

  it('but on Sunday closes at Saturday’s midnight and opens at Monday’s, across the clocks going back', () => {
    const sixDays: Schedule = { hours: everyDay(allDay, ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']), closedDates: [], timezone: 'America/New_York' };
    expect(openingState(sixDays, at('2026-10-28T12:00:00Z'))).toEqual(open('2026-11-01T04:00:00.000Z'));
    expect(openingState(sixDays, at('2026-11-01T12:00:00Z'))).toEqual(closed('2026-11-02T05:00:00.000Z'));
  });

  it('over a weekend from Friday evening to Monday morning is one opening', () => {
    const weekend = sydney({ friday: [{ open: '17:00', close: '24:00' }], saturday: allDay, sunday: allDay, monday: [{ open: '00:00', close: '08:00' }] });
    expect(openingState(weekend, at('2026-11-27T09:00:00Z'))).toEqual(open('2026-11-29T21:00:00.000Z'));
    expect(openingState(weekend, at('2026-11-28T13:00:00Z'))).toEqual(open('2026-11-29T21:00:00.000Z'));
    expect(openingState(weekend, at('2026-11-29T21:00:00Z'))).toEqual(closed('2026-12-04T06:00:00.000Z'));
  });
});

describe('a day split by a break (00:00–12:00, then 13:00–24:00)', () => {
  // The two periods start and end the day, but do not meet: the break is closed, whatever the zone or the season.
  const split = (timezone: string): Schedule => ({ hours: everyDay([{ open: '00:00', close: '12:00' }, { open: '13:00', close: '24:00' }]), closedDates: [], timezone });
  const local = (timezone: string, date: string, clock: string) => instantOf(timezone, date, Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3)));
  const iso = (instant: number) => new Date(instant).toISOString();
  // An ordinary day, the day Sydney's clocks go forward, and the day New York's go back.
  const days = ['2026-06-15', '2026-10-04', '2026-11-01'];

  it('is closed in the break and open either side of it, in every zone, the evening running on to the next noon', () => {
    for (const timezone of ['Australia/Sydney', 'America/New_York', 'Pacific/Chatham', 'Asia/Kolkata', 'UTC']) {
      for (const date of days) {
        const [noon, oneOClock, nextNoon] = [local(timezone, date, '12:00'), local(timezone, date, '13:00'), local(timezone, dateAfter(date), '12:00')];
        const label = `${timezone} ${date}`;
        expect(openingState(split(timezone), local(timezone, date, '11:59')), `${label} 11:59`).toEqual(open(iso(noon)));
        expect(openingState(split(timezone), noon), `${label} 12:00`).toEqual(closed(iso(oneOClock)));
        expect(openingState(split(timezone), local(timezone, date, '12:30')), `${label} 12:30`).toEqual(closed(iso(oneOClock)));
        expect(openingState(split(timezone), oneOClock - 1), `${label} 12:59:59.999`).toEqual(closed(iso(oneOClock)));
        expect(openingState(split(timezone), oneOClock), `${label} 13:00`).toEqual(open(iso(nextNoon)));
        // 24:00 ends the evening where 00:00 opens the next morning: one opening, across midnight.
        expect(openingState(split(timezone), local(timezone, date, '23:59')), `${label} 23:59`).toEqual(open(iso(nextNoon)));
        expect(openingState(split(timezone), local(timezone, dateAfter(date), '00:00')), `${label} 24:00`).toEqual(open(iso(nextNoon)));
      }
    }
  });

  it('gives an opening from each 13:00 to the next noon, never one around the clock', () => {
    const timezone = 'Australia/Sydney';
    const [from, to] = [local(timezone, '2026-06-15', '12:30'), local(timezone, '2026-06-17', '12:30')];
    expect(openIntervals(split(timezone), from, to).map(({ start, end }) => [iso(start), iso(end)])).toEqual([
      [iso(local(timezone, '2026-06-15', '13:00')), iso(local(timezone, '2026-06-16', '12:00'))],
      [iso(local(timezone, '2026-06-16', '13:00')), iso(local(timezone, '2026-06-17', '12:00'))],
    ]);
  });
});

describe('a business seldom or never open', () => {
  it('closed all week is closed with nothing to open, in every zone, closed dates or not', () => {
    for (const timezone of ['Australia/Sydney', 'America/New_York', 'Asia/Kolkata']) {
      for (const instant of ['2026-10-03T16:00:00Z', '2026-11-01T06:00:00Z', '2026-06-15T12:00:00Z']) {
        expect(openingState({ hours: {}, closedDates: [], timezone }, at(instant))).toEqual(closed(null));
        expect(openingState({ hours: { monday: [] }, closedDates: ['2026-12-25'], timezone }, at(instant))).toEqual(closed(null));
      }
    }
  });

  it('open on Mondays, every Monday of the next year closed but one, next opens on that one', () => {
    // Mondays from 2026-10-05 to 2027-10-11, but 2027-06-14 (AEST, +10): the one day of the year it opens.
    const mondays = Array.from({ length: 54 }, (_, week) => new Date(Date.UTC(2026, 9, 5 + week * 7)).toISOString().slice(0, 10));
    const oneDay = sydney({ monday: [{ open: '09:00', close: '17:00' }] }, mondays.filter((date) => date !== '2027-06-14'));
    expect(openingState(oneDay, at('2026-10-02T08:00:00Z'))).toEqual(closed('2027-06-13T23:00:00.000Z'));
    expect(openingState(oneDay, at('2027-06-14T01:00:00Z'))).toEqual(open('2027-06-14T07:00:00.000Z'));
    // Every Monday of the lookahead closed: nothing to open.
    expect(openingState(sydney({ monday: [{ open: '09:00', close: '17:00' }] }, mondays), at('2026-10-02T08:00:00Z'))).toEqual(closed(null));
  });
});

describe('the cost of reading a schedule', () => {
  afterEach(() => vi.restoreAllMocks());

  /** How many times the zone's wall clock is read (each reading is one call of Intl's formatToParts). */
  const readings = (schedule: Schedule, atMs: number) => {
    const spy = vi.spyOn(Intl.DateTimeFormat.prototype, 'formatToParts');
    openingState(schedule, atMs);
    const count = spy.mock.calls.length;
    spy.mockRestore();
    return count;
  };

  it('is about the same whatever the hours: around the clock, never, one day a year or office hours', () => {
    const mondays = Array.from({ length: 54 }, (_, week) => new Date(Date.UTC(2026, 9, 5 + week * 7)).toISOString().slice(0, 10));
    const shapes: Record<string, Pick<Schedule, 'hours' | 'closedDates'>> = {
      'office hours': { hours: weekdays('07:00', '19:00'), closedDates: [] },
      'around the clock': { hours: everyDay(allDay), closedDates: [] },
      'around the clock in two periods a day': { hours: everyDay([{ open: '00:00', close: '12:00' }, { open: '12:00', close: '24:00' }]), closedDates: [] },
      'around the clock but a holiday in ten months': { hours: everyDay(allDay), closedDates: ['2027-07-30'] },
      'around the clock but Sundays': { hours: everyDay(allDay, ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']), closedDates: [] },
      'never': { hours: {}, closedDates: [] },
      'one Monday a year': { hours: { monday: [{ open: '09:00', close: '17:00' }] }, closedDates: mondays.filter((date) => date !== '2027-06-14') },
    };
    const office = Math.max(...['2026-10-01T22:00:00Z', '2026-10-02T08:00:00Z'].map((instant) => readings({ ...shapes['office hours']!, timezone: 'Australia/Sydney' }, at(instant))));
    for (const [shape, { hours, closedDates }] of Object.entries(shapes)) {
      for (const timezone of ['Australia/Sydney', 'America/New_York', 'Pacific/Chatham']) {
        for (const instant of ['2026-10-03T16:00:00Z', '2026-11-01T06:00:00Z', '2026-10-02T08:00:00Z', '2026-10-05T01:00:00Z']) {
          // A scan of every day of the lookahead read the clock some 2 300 times for a business open around the clock.
          expect(readings({ hours, closedDates, timezone }, at(instant)), `${shape} in ${timezone} at ${instant}`).toBeLessThanOrEqual(2 * office);
        }
      }
    }
  });
});
