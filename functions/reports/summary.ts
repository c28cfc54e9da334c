import { figureValue, shownOf, SUMMARY, type FigureGroup } from './catalog';
import { sumDays, type Totals } from './figures';
import type { ReportDays } from './read-store';
import type { ReportSummary } from './schema';

/** A group's figures over the totals, as the catalog lists them (./catalog.ts): the timeseries answers the same per point. */
function valuesOf(group: FigureGroup, totals: Totals): Record<string, unknown> {
  return Object.fromEntries(shownOf(group).map(([key, figure]) => [key, figure.kind === 'group' ? valuesOf(figure, totals) : figureValue(figure, totals)]));
}

/** The summary of the range: every day's counters summed, then each figure read or computed from the sums. */
export function summaryOf({ timezone, currency, range, days, asOf }: ReportDays): ReportSummary {
  return { ...range, timezone, currency, asOf, ...valuesOf(SUMMARY, sumDays([...days.values()])) };
}
