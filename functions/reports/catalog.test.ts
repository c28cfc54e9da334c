import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { DAY_ATTRIBUTES, metricValue, TIMESERIES_METRICS } from './catalog';
import { speedAttribute } from './metrics';
import { ReportSummary } from './schema';
import { summaryOf } from './summary';

/** Every counter of a day at 1, and leads that waited 2 s and 400 s: each figure has something to count or compute. */
const totals = { ...Object.fromEntries(DAY_ATTRIBUTES.map((attribute) => [attribute, 1])), [speedAttribute(2)]: 1, [speedAttribute(400)]: 1 };
const range = { from: '2026-03-01', to: '2026-03-01' };

/** The report figures as one catalog: each figure's name, document and sum declared once, the summary and the timeseries read from it. */
describe('the reports’ figures', () => {
  it('computes every timeseries metric, each computed one from counted figures that exist', () => {
    for (const metric of TIMESERIES_METRICS) expect(() => metricValue(metric, totals), metric).not.toThrow();
    expect(TIMESERIES_METRICS).toContain('leads.conversion');
    expect(new Set(TIMESERIES_METRICS).size).toBe(TIMESERIES_METRICS.length);
  });

  it('answers a summary its document describes, each figure the timeseries also names answering the same value', () => {
    const summary = summaryOf({ timezone: 'UTC', currency: 'AUD', range, days: new Map([['2026-03-01', totals]]), asOf: '2026-03-02T00:00:00.000Z' }) as Record<string, any>;
    expect(v.safeParse(ReportSummary, summary).issues).toBeUndefined();
    expect([summary.leads.created, summary.leads.won.value, summary.leads.lost.reasons.PRICE]).toEqual([1, 0.01, 1]);
    expect([summary.leads.conversion, metricValue('leads.conversion', totals)]).toEqual([1, 1]);
    expect([summary.speedToLead.within5Minutes, metricValue('speedToLead.within5MinutesShare', totals)]).toEqual([{ count: 1, share: 0.5 }, 0.5]);
    expect(summary.calls).not.toHaveProperty('durationSeconds');
  });
});
