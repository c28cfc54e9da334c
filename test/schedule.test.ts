import { describe, expect, it } from 'vitest';
import { instantOf, openingState, type Schedule } from '#shared/schedule';

/** Wall-clock opening hours read in a time zone, at fixed instants: DST changes, night shifts, holidays. */

const weekdays = (open: string, close: string) =>
  Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((day) => [day, [{ open, close }]]));
const sydney = (hours: Schedule['hours'], closedDates: string[] = []): Schedule => ({ hours, closedDates, timezone: 'Australia/Sydney' });
const at = (iso: string) => Date.parse(iso);

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
