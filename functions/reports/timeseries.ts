import { metricValue } from './catalog';
import { sumDays, type Totals } from './figures';
import { dateAfter, datesOf } from './range';
import type { ReportDays } from './read-store';
import type { Interval } from './schema';

/** The first day of the calendar day, week (its Monday) or month a date is in. */
export function periodStart(date: string, interval: Interval): string {
  if (interval === 'month') return `${date.slice(0, 8)}01`;
  if (interval === 'day') return date;
  const daysSinceMonday = (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7;
  return dateAfter(date, -daysSinceMonday);
}

/**
 * A point per day, week or month the range touches, each the metric over the days of the range in it: a ratio is
 * computed from the point's own sums, not averaged over its days.
 */
export function timeseriesOf({ range, days }: ReportDays, metric: string, interval: Interval) {
  const periods = new Map<string, Totals[]>();
  for (const date of datesOf(range)) {
    const start = periodStart(date, interval);
    periods.set(start, [...(periods.get(start) ?? []), days.get(date) ?? {}]);
  }
  const points = [...periods].map(([start, inPeriod]) => ({ start, value: metricValue(metric, sumDays(inPeriod)) }));
  return { metric, interval, ...range, points };
}
