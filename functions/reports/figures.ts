import { speedSecondsOf, WITHIN_5_MINUTES_SECONDS } from './metrics';

/** Day items' counters summed over some days, by attribute; an attribute no day held reads 0. */
export type Totals = Readonly<Record<string, number>>;

/** A counter of the totals. */
export const counter = (totals: Totals, attribute: string): number => totals[attribute] ?? 0;

/** The counters of day items summed, each attribute alone. */
export function sumDays(days: readonly Totals[]): Totals {
  const totals: Record<string, number> = {};
  for (const day of days) for (const [attribute, value] of Object.entries(day)) totals[attribute] = (totals[attribute] ?? 0) + value;
  return totals;
}

/** Ratios are answered to 4 decimal places (a share of 0.1234 is 12.34 %); seconds to the whole second. */
const RATIO_PLACES = 10_000;
/** A part of a whole, or null when the whole is nothing: no leads created has no conversion, rather than 0. */
export const ratio = (part: number, whole: number): number | null => (whole === 0 ? null : Math.round((part / whole) * RATIO_PLACES) / RATIO_PLACES);
/** Integer cents as the decimal amount the API answers. */
export const money = (cents: number) => cents / 100;

/** The leads' waits in the totals: each whole second waited (rounded up) and how many leads waited it, shortest first. */
function waits(totals: Totals): [seconds: number, leads: number][] {
  return Object.entries(totals)
    .flatMap(([attribute, leads]): [number, number][] => {
      const seconds = speedSecondsOf(attribute);
      return seconds === undefined || leads === 0 ? [] : [[seconds, leads]];
    })
    .sort(([a], [b]) => a - b);
}

/** How many leads the waits count. */
const leadsIn = (counted: readonly [number, number][]) => counted.reduce((sum, [, leads]) => sum + leads, 0);

/** The leads measured: those with a first inquiry they started and a first contact after it. */
export const measuredLeads = (totals: Totals) => leadsIn(waits(totals));

/** The leads first contacted within 5 minutes of their first inquiry, exactly. */
export const within5Minutes = (totals: Totals) => waits(totals).reduce((sum, [seconds, leads]) => sum + (seconds <= WITHIN_5_MINUTES_SECONDS ? leads : 0), 0);

/**
 * The seconds by which a share `q` of the measured leads had been contacted: the shortest wait such that at least q
 * of them waited no longer (the nearest rank), exact to the second. Null with no lead measured.
 */
export function waitQuantile(totals: Totals, q: number): number | null {
  const counted = waits(totals);
  const target = q * leadsIn(counted);
  let before = 0;
  for (const [seconds, leads] of counted) {
    before += leads;
    if (before >= target) return seconds;
  }
  return null;
}
