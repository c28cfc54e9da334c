/**
 * An instant as a business says it: the wall-clock time in its timezone with that moment's offset
 * (`2026-12-01T09:00:00+11:00`), and a label a voice agent can read aloud (`Tue 1 Dec, 9:00 am`). Both are built from
 * the zone's parts rather than a locale's format, so they read the same on every runtime
 * (docs/decisions/receptionist-and-appointments.md#times-are-answered-in-utc-and-in-the-organizations-local-time).
 */
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(timezone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timezone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone: timezone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    formatters.set(timezone, formatter);
  }
  return formatter;
}

const two = (n: number) => String(n).padStart(2, '0');

export interface LocalTime {
  /** ISO 8601 wall-clock time with the zone's offset at that instant. */
  local: string;
  /** Weekday, day, month and 12-hour time: `Tue 1 Dec, 9:00 am`. */
  label: string;
}

export function localTime(timezone: string, at: string | number): LocalTime {
  const epochMs = typeof at === 'number' ? at : Date.parse(at);
  const parts = Object.fromEntries(formatterOf(timezone).formatToParts(epochMs).map((part) => [part.type, Number(part.value)]));
  const { year, month, day, hour, minute, second } = parts as Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number>;
  const wallMs = Date.UTC(year, month - 1, day, hour, minute, second);
  const offsetMinutes = Math.round((wallMs - Math.floor(epochMs / 1000) * 1000) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const offset = `${sign}${two(Math.floor(Math.abs(offsetMinutes) / 60))}:${two(Math.abs(offsetMinutes) % 60)}`;
  const local = `${String(year).padStart(4, '0')}-${two(month)}-${two(day)}T${two(hour)}:${two(minute)}:${two(second)}${offset}`;
  const weekday = WEEKDAYS[new Date(wallMs).getUTCDay()];
  const label = `${weekday} ${day} ${MONTHS[month - 1]}, ${hour % 12 || 12}:${two(minute)} ${hour < 12 ? 'am' : 'pm'}`;
  return { local, label };
}
