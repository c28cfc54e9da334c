import { describe, expect, it } from 'vitest';
import { addDays, dayOf, instantOf, mondayOf, offsetMinutes, wallClock } from './zoned';

const at = (iso: string) => Date.parse(iso);

describe('days and times in the organization’s timezone', () => {
  it('reads an instant on the zone’s clock, at several hours and zones', () => {
    expect(wallClock(at('2026-07-01T14:30:00Z'), 'Australia/Sydney')).toBe('2026-07-02T00:30:00');
    expect(wallClock(at('2026-01-01T12:59:59Z'), 'Australia/Sydney')).toBe('2026-01-01T23:59:59');
    expect(wallClock(at('2026-01-01T13:00:00Z'), 'Australia/Sydney')).toBe('2026-01-02T00:00:00');
    expect(wallClock(at('2026-07-01T03:59:00Z'), 'America/New_York')).toBe('2026-06-30T23:59:00');
    expect(wallClock(at('2026-07-01T18:30:00Z'), 'Asia/Kolkata')).toBe('2026-07-02T00:00:00');
    expect(wallClock(at('2026-07-01T00:00:00Z'), 'UTC')).toBe('2026-07-01T00:00:00');
    expect([offsetMinutes(at('2026-07-01T00:00:00Z'), 'Australia/Sydney'), offsetMinutes(at('2026-01-01T00:00:00Z'), 'Australia/Sydney'), offsetMinutes(at('2026-01-01T00:00:00Z'), 'America/New_York'), offsetMinutes(at('2026-01-01T00:00:00Z'), 'Asia/Kolkata')]).toEqual([600, 660, -300, 330]);
    expect(dayOf(at('2026-07-01T13:59:59.999Z'), 'Australia/Sydney')).toBe('2026-07-01');
    expect(dayOf(at('2026-07-01T14:00:00Z'), 'Australia/Sydney')).toBe('2026-07-02');
  });

  it('finds the instant of a wall time, midnight by default, in zones ahead of and behind UTC and on a half hour', () => {
    for (const [wall, zone, instant] of [
      ['2026-07-02', 'Australia/Sydney', '2026-07-01T14:00:00.000Z'],
      ['2026-01-02T09:15', 'Australia/Sydney', '2026-01-01T22:15:00.000Z'],
      ['2026-07-01T23:30', 'America/New_York', '2026-07-02T03:30:00.000Z'],
      ['2026-07-02', 'Asia/Kolkata', '2026-07-01T18:30:00.000Z'],
      ['2026-07-02T08:00', 'UTC', '2026-07-02T08:00:00.000Z'],
    ] as const) expect(new Date(instantOf(wall, zone)).toISOString(), `${wall} in ${zone}`).toBe(instant);
  });

  it('takes the earlier of an hour a clock change repeats, and moves a skipped time on by the change', () => {
    // Sydney: 03:00 back to 02:00 on 2026-04-05; 02:00 on to 03:00 on 2026-10-04.
    for (const [wall, zone, instant] of [
      ['2026-04-05T02:30', 'Australia/Sydney', '2026-04-04T15:30:00.000Z'],
      ['2026-04-05T03:30', 'Australia/Sydney', '2026-04-04T17:30:00.000Z'],
      ['2026-10-04T02:30', 'Australia/Sydney', '2026-10-03T16:30:00.000Z'],
    ] as const) expect(new Date(instantOf(wall, zone)).toISOString(), `${wall} in ${zone}`).toBe(instant);
    expect(wallClock(instantOf('2026-10-04T02:30', 'Australia/Sydney'), 'Australia/Sydney')).toBe('2026-10-04T03:30:00');
    // New York: 02:00 on to 03:00 on 2026-03-08; midnight on both days is a midnight.
    for (const [wall, zone, instant] of [
      ['2026-03-08T02:30', 'America/New_York', '2026-03-08T07:30:00.000Z'],
      ['2026-03-09', 'America/New_York', '2026-03-09T04:00:00.000Z'],
      ['2026-03-08', 'America/New_York', '2026-03-08T05:00:00.000Z'],
    ] as const) expect(new Date(instantOf(wall, zone)).toISOString(), `${wall} in ${zone}`).toBe(instant);
    // The hours after a change, on its day: on the new clock, ahead of UTC and behind it (New York: 02:00 back to 01:00
    // on 2026-11-01, at 06:00 UTC), a time with seconds read to its minute as the others.
    for (const [wall, zone, instant] of [
      ['2026-10-04T09:00:00', 'Australia/Sydney', '2026-10-03T22:00:00.000Z'],
      ['2026-11-01T03:00', 'America/New_York', '2026-11-01T08:00:00.000Z'],
      ['2026-11-01T01:30', 'America/New_York', '2026-11-01T05:30:00.000Z'],
    ] as const) expect(new Date(instantOf(wall, zone)).toISOString(), `${wall} in ${zone}`).toBe(instant);
  });

  it('counts days on the calendar and starts a week on Monday', () => {
    expect([addDays('2026-12-31', 1), addDays('2026-03-01', -1), addDays('2028-02-28', 1), addDays('2026-10-04', 7)]).toEqual(['2027-01-01', '2026-02-28', '2028-02-29', '2026-10-11']);
    // 2026-11-30 is a Monday.
    expect(['2026-11-30', '2026-12-02', '2026-12-06', '2026-12-07'].map(mondayOf)).toEqual(['2026-11-30', '2026-11-30', '2026-11-30', '2026-12-07']);
  });
});
