import { describe, expect, it } from 'vitest';
import type { Step } from './schema';
import { DEFAULT_QUIET_HOURS } from '../catalog';
import { quietUntil } from './quiet-hours';
import { anchorBefore, isLate, waitDue } from './times';

/** When a run's steps are due, and when quiet hours let an automated SMS go out: the runner's arithmetic, without the table. */

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | null | undefined) => (typeof ms === 'number' ? new Date(ms).toISOString() : ms);
// Sydney is AEDT (+11) in December.
const sydney = { timezone: 'Australia/Sydney', closedDates: [] as string[] };
const startsAt = at('2026-12-10T09:00:00+11:00');
const anchorOf = (anchor: string) => (anchor === 'appointment.startsAt' ? startsAt : undefined);

describe('a wait', () => {
  it('is due its duration after the step before it ends', () => {
    expect(iso(waitDue({ type: 'wait', duration: 'P2D' }, at('2026-12-01T00:00:00Z'), anchorOf))).toBe('2026-12-03T00:00:00.000Z');
    expect(iso(waitDue({ type: 'wait', duration: 'PT2M' }, at('2026-12-01T00:00:00Z'), anchorOf))).toBe('2026-12-01T00:02:00.000Z');
  });

  it('anchored on the appointment is due its duration before it, whenever it is reached', () => {
    const wait = { type: 'wait', duration: 'P1D', before: 'appointment.startsAt' } as const;
    expect(iso(waitDue(wait, at('2026-12-01T00:00:00Z'), anchorOf))).toBe('2026-12-08T22:00:00.000Z');
    expect(iso(waitDue(wait, at('2026-12-09T12:00:00Z'), anchorOf))).toBe('2026-12-08T22:00:00.000Z');
  });

  it('anchored on a time the run does not have is due at no time', () => {
    expect(waitDue({ type: 'wait', duration: 'P1D', before: 'appointment.endsAt' }, at('2026-12-01T00:00:00Z'), anchorOf)).toBeUndefined();
  });
});

describe('a reminder after an anchored wait', () => {
  const steps: Step[] = [
    { type: 'send_sms', template: 'booked' },
    { type: 'wait', duration: 'PT2H', before: 'appointment.startsAt' },
    { type: 'add_note', template: 'reminded' },
    { type: 'send_sms', template: 'see you soon' },
    { type: 'wait', duration: 'PT1H' },
    { type: 'send_sms', template: 'how was it' },
  ];

  it('is timed against the anchor of the latest wait before it, and an unanchored wait ends that', () => {
    expect(anchorBefore({ steps }, 0)).toBeUndefined();
    expect(anchorBefore({ steps }, 3)).toBe('appointment.startsAt');
    expect(anchorBefore({ steps }, 5)).toBeUndefined();
  });

  it('is late from the anchor on, and never when its steps have no anchor', () => {
    expect(isLate({ steps }, 3, startsAt - 60_000, anchorOf)).toBe(false);
    expect(isLate({ steps }, 3, startsAt, anchorOf)).toBe(true);
    expect(isLate({ steps }, 5, startsAt + 86_400_000, anchorOf)).toBe(false);
  });
});

describe('quiet hours', () => {
  it('let an SMS go between allowedFrom and allowedUntil local time, and defer one outside to the next allowedFrom', () => {
    expect(quietUntil(DEFAULT_QUIET_HOURS, sydney, at('2026-12-01T08:00:00+11:00'))).toBeUndefined();
    expect(quietUntil(DEFAULT_QUIET_HOURS, sydney, at('2026-12-01T19:59:00+11:00'))).toBeUndefined();
    expect(iso(quietUntil(DEFAULT_QUIET_HOURS, sydney, at('2026-12-01T22:00:00+11:00')))).toBe('2026-12-01T21:00:00.000Z');
    expect(iso(quietUntil(DEFAULT_QUIET_HOURS, sydney, at('2026-12-02T07:59:00+11:00')))).toBe('2026-12-01T21:00:00.000Z');
  });

  it('keep the organization’s closed dates quiet all day when told, and only then', () => {
    const closed = { ...sydney, closedDates: ['2026-12-02'] };
    expect(iso(quietUntil(DEFAULT_QUIET_HOURS, closed, at('2026-12-01T22:00:00+11:00')))).toBe('2026-12-02T21:00:00.000Z');
    expect(quietUntil({ ...DEFAULT_QUIET_HOURS, closedDates: false }, closed, at('2026-12-02T10:00:00+11:00'))).toBeUndefined();
  });

  it('keep the days not listed quiet', () => {
    // 2026-12-05 is a Saturday.
    const weekdays = { ...DEFAULT_QUIET_HOURS, days: ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY'] };
    expect(iso(quietUntil(weekdays, sydney, at('2026-12-05T10:00:00+11:00')))).toBe('2026-12-06T21:00:00.000Z');
    expect(quietUntil({ ...DEFAULT_QUIET_HOURS, days: [] }, sydney, at('2026-12-05T10:00:00+11:00'))).toBeNull();
  });

  it('over midnight allow the evening and the early morning', () => {
    const night = { ...DEFAULT_QUIET_HOURS, allowedFrom: '22:00', allowedUntil: '02:00' };
    expect(quietUntil(night, sydney, at('2026-12-01T23:00:00+11:00'))).toBeUndefined();
    expect(quietUntil(night, sydney, at('2026-12-02T01:00:00+11:00'))).toBeUndefined();
    expect(iso(quietUntil(night, sydney, at('2026-12-02T12:00:00+11:00')))).toBe('2026-12-02T11:00:00.000Z');
  });
});
