import { COUNTED_METRICS, DERIVED_METRICS, HISTOGRAM_ATTRIBUTES, METRIC_ATTRIBUTES, SPEED_TO_LEAD_BOUNDS, WITHIN_5_MINUTES_SECONDS } from './metrics';
import { INQUIRY_SOURCES } from '../inquiries/schema';

/** Day items' counters summed over some days, by attribute; an attribute no day held reads 0. */
export type Totals = Readonly<Record<string, number>>;

/** A counter of the totals. */
export const counter = (totals: Totals, attribute: string): number => totals[attribute] ?? 0;

/** A counted metric's counter in the totals, by its API name (money in cents). */
const counted = (totals: Totals, metric: string): number => counter(totals, METRIC_ATTRIBUTES[metric]!);

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
const seconds = (value: number | null) => (value === null ? null : Math.round(value));
/** Integer cents as the decimal amount the API answers. */
export const money = (cents: number) => cents / 100;

/** The bucket bounds of the speed-to-lead histogram: each bucket's lower and upper bound, the last open (no upper). */
const BUCKETS = HISTOGRAM_ATTRIBUTES.map((attribute, index) => ({ attribute, lower: index === 0 ? 0 : SPEED_TO_LEAD_BOUNDS[index - 1]!, upper: SPEED_TO_LEAD_BOUNDS[index] as number | undefined }));

/** The leads in the histogram: those with a first inquiry and a first contact after it. */
export const histogramLeads = (totals: Totals) => BUCKETS.reduce((sum, { attribute }) => sum + counter(totals, attribute), 0);

/** The leads first contacted within 5 minutes of their first inquiry: the buckets up to that bound, exactly. */
export const within5Minutes = (totals: Totals) => BUCKETS.filter(({ upper }) => upper !== undefined && upper <= WITHIN_5_MINUTES_SECONDS).reduce((sum, { attribute }) => sum + counter(totals, attribute), 0);

/**
 * The seconds by which a share `q` of the histogram's leads had been contacted: the bucket where the cumulative count
 * reaches q of all, interpolated linearly within it; in the open bucket (over three days), its lower bound. Null
 * with no lead in the histogram.
 */
export function histogramQuantile(totals: Totals, q: number): number | null {
  const target = q * histogramLeads(totals);
  if (target === 0) return null;
  let before = 0;
  for (const { attribute, lower, upper } of BUCKETS) {
    const count = counter(totals, attribute);
    if (before + count >= target && count > 0) return upper === undefined ? lower : lower + ((upper - lower) * (target - before)) / count;
    before += count;
  }
  return null;
}

const leadsWithSource = (totals: Totals) => INQUIRY_SOURCES.reduce((sum, source) => sum + counted(totals, `leads.bySource.${source}`), 0);

export type DerivedMetric = (typeof DERIVED_METRICS)[number];

/** The figures computed from counted ones: each a function of the totals of the days it covers. */
const DERIVED: Record<DerivedMetric, (totals: Totals) => number | null> = {
  // A lead is counted by source once its first inquiry is known; the rest of those created have none.
  'leads.bySource.NONE': (totals) => counted(totals, 'leads.created') - leadsWithSource(totals),
  // Leads created in the range that are won now, of those created.
  'leads.conversion': (totals) => ratio(counted(totals, 'leads.byStatus.WON'), counted(totals, 'leads.created')),
  // Durations are summed over the calls taken.
  'calls.averageDurationSeconds': (totals) => (counted(totals, 'calls.taken') === 0 ? null : seconds(counted(totals, 'calls.durationSeconds') / counted(totals, 'calls.taken'))),
  'speedToLead.leads': histogramLeads,
  'speedToLead.medianSeconds': (totals) => seconds(histogramQuantile(totals, 0.5)),
  'speedToLead.p90Seconds': (totals) => seconds(histogramQuantile(totals, 0.9)),
  'speedToLead.within5MinutesShare': (totals) => ratio(within5Minutes(totals), histogramLeads(totals)),
};

/** Every metric by its API name: a counted one read from its attribute (cents as decimals), a derived one computed. */
export const METRIC_VALUES: Readonly<Record<string, (totals: Totals) => number | null>> = {
  ...Object.fromEntries(COUNTED_METRICS.map(({ metric, attribute, unit }) => [metric, (totals: Totals) => (unit === 'cents' ? money(counter(totals, attribute)) : counter(totals, attribute))])),
  ...DERIVED,
};

/** A metric's value over the totals of some days. */
export const metricValue = (metric: string, totals: Totals): number | null => METRIC_VALUES[metric]!(totals);
