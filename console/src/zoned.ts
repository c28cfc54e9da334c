/**
 * Days and wall-clock times in the organization's timezone, whatever the browser's: a schedule's day starts at the
 * business's midnight. Intl gives a zone's offset at an instant; a wall time's instant is found from it, the earlier
 * of a repeated hour, and a time skipped by a clock change moves on by the change.
 */
const formats = new Map<string, Intl.DateTimeFormat>();
const formatIn = (zone: string) => {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formats.set(zone, format);
  }
  return format;
};

/** The wall clock in `zone` at an instant: `YYYY-MM-DDTHH:MM:SS`. */
export function wallClock(ms: number, zone: string): string {
  const parts = Object.fromEntries(formatIn(zone).formatToParts(new Date(ms)).map(({ type, value }) => [type, value]));
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
}

/** Minutes east of UTC in `zone` at an instant (600 in Sydney's winter, 660 in its summer). */
export function offsetMinutes(ms: number, zone: string): number {
  const wholeSecond = Math.floor(ms / 1000) * 1000;
  return Math.round((Date.parse(`${wallClock(ms, zone)}Z`) - wholeSecond) / 60_000);
}

/**
 * The instant of a wall time in `zone` (`YYYY-MM-DD` is its midnight; `YYYY-MM-DDTHH:MM`): of an hour a clock change
 * repeats, the earlier; a time a clock change skips reads on the clock before it (02:30 on a night that jumps from
 * 02:00 to 03:00 is 03:30).
 */
export function instantOf(wall: string, zone: string): number {
  const text = wall.length === 10 ? `${wall}T00:00` : wall.slice(0, 16);
  const asUtc = Date.parse(`${text}Z`);
  const dayBefore = offsetMinutes(asUtc - 86_400_000, zone);
  const offsets = new Set([dayBefore, offsetMinutes(asUtc, zone), offsetMinutes(asUtc + 86_400_000, zone)]);
  const reading = [...offsets].map((offset) => asUtc - offset * 60_000).filter((ms) => wallClock(ms, zone).slice(0, 16) === text);
  return reading.length > 0 ? Math.min(...reading) : asUtc - dayBefore * 60_000;
}

/** The day in `zone` of an instant: `YYYY-MM-DD`. */
export const dayOf = (ms: number, zone: string): string => wallClock(ms, zone).slice(0, 10);

/** The day `days` after a `YYYY-MM-DD` day (on the calendar, whatever the zone's clock changes). */
export function addDays(day: string, days: number): string {
  const at = new Date(`${day}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

/** The Monday of a day's week (weeks start on Monday, as the business hours list them). */
export const mondayOf = (day: string): string => addDays(day, -((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7));
