import { openingState, WEEKDAYS, type Schedule, type WeeklyHours } from '#shared/schedule';
import type { QuietHours } from '../catalog';

/** What of the organization the runner reads to place automated texts in its day. */
export interface OrganizationClock {
  timezone: string;
  closedDates: readonly string[];
}

/**
 * The hours automated SMS may go out, as a weekly schedule in the organization's timezone: `allowedFrom` to
 * `allowedUntil` on each allowed day (a span over midnight is two periods), and its closed dates when `closedDates`.
 */
export function allowedHours(quiet: QuietHours, organization: OrganizationClock): Schedule {
  const days = quiet.days ? new Set(quiet.days.map((day) => day.toLowerCase())) : undefined;
  const periods = quiet.allowedFrom < quiet.allowedUntil ? [{ open: quiet.allowedFrom, close: quiet.allowedUntil }] : [{ open: '00:00', close: quiet.allowedUntil }, { open: quiet.allowedFrom, close: '24:00' }];
  const hours = Object.fromEntries(WEEKDAYS.filter((day) => !days || days.has(day)).map((day) => [day, periods.filter(({ open, close }) => open < close)])) as WeeklyHours;
  return { hours, closedDates: quiet.closedDates ? organization.closedDates : [], timezone: organization.timezone };
}

/**
 * When an automated SMS due at `atMs` may go out: undefined when it may now, else the next allowed moment (ms), or
 * null when no allowed moment comes within the schedule's lookahead (no allowed day at all).
 */
export function quietUntil(quiet: QuietHours, organization: OrganizationClock, atMs: number): number | null | undefined {
  const state = openingState(allowedHours(quiet, organization), atMs);
  if (state.isOpenNow) return undefined;
  return state.nextOpenAt === null ? null : Date.parse(state.nextOpenAt);
}
