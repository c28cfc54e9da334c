import { counter, ratio, sumDays } from './figures';
import { METRIC_ATTRIBUTES } from './catalog';
import { FUNNEL_STAGES, reachedAttribute } from './metrics';
import type { ReportDays } from './read-store';

/**
 * The leads created in the range by how far they went: a lead counted at its furthest stage has reached every stage
 * before it, so a stage's `reached` sums the furthest stages at or after it; each stage's conversion is the share of
 * its leads that reached the next.
 */
export function funnelOf({ range, days }: ReportDays) {
  const totals = sumDays([...days.values()]);
  const reached = FUNNEL_STAGES.map((_, index) => FUNNEL_STAGES.slice(index).reduce((sum, stage) => sum + counter(totals, reachedAttribute(stage)), 0));
  const stages = FUNNEL_STAGES.map((status, index) => ({ status, reached: reached[index]!, conversionToNext: index + 1 < reached.length ? ratio(reached[index + 1]!, reached[index]!) : null }));
  return { ...range, stages, lost: counter(totals, METRIC_ATTRIBUTES['leads.byStatus.LOST']!) };
}
