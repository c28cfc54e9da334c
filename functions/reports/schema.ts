import * as v from 'valibot';
import { isCalendarDate, Timestamp } from '#shared/schema';
import { shownOf, SUMMARY, TIMESERIES_METRICS, type Figure, type FigureGroup } from './catalog';
import { FUNNEL_STAGES } from './metrics';
import { DEFAULT_RANGE_DAYS, EARLIEST_REPORT_DATE, isOrdered, isWithinMaximum, MAX_RANGE_DAYS, MAXIMUM_RULE, ORDER_RULE } from './range';
import { prose } from '#shared/prose';

/** A date of the organization's calendar, YYYY-MM-DD: the pattern lets 2026-02-30 through, the check does not. */
const ReportDate = (name: string, description: string) =>
  v.pipe(
    v.string(`${name} must be a string`),
    v.regex(/^\d{4}-\d{2}-\d{2}$/, `${name} must be a date YYYY-MM-DD`),
    v.check(isCalendarDate, `${name} must be a date the calendar has (YYYY-MM-DD; 2026-02-30 is not one)`),
    v.check((date) => date >= EARLIEST_REPORT_DATE, `${name} must be ${EARLIEST_REPORT_DATE} or later: no record is older`),
    v.metadata({ jsonSchema: { format: 'date' } }),
    v.description(description),
  );

const RANGE_RULE = `Dates are the organization’s local dates (its \`timezone\`), both included, at most ${MAX_RANGE_DAYS} days, from ${EARLIEST_REPORT_DATE}.`;
const RangeEntries = {
  from: v.optional(ReportDate('from', `The first day of the range. Default: ${DEFAULT_RANGE_DAYS - 1} days before \`to\`. ${RANGE_RULE}`)),
  to: v.optional(ReportDate('to', `The last day of the range. Default: today in the organization’s time zone. ${RANGE_RULE}`)),
};

/** Both ends given: checked here (from's order, to's distance); an end left to its default is checked once today there is known (./range.ts). */
const ordered = ({ from, to }: { from?: string; to?: string }) => from === undefined || to === undefined || isOrdered(from, to);
const withinMaximum = ({ from, to }: { from?: string; to?: string }) => from === undefined || to === undefined || !isOrdered(from, to) || isWithinMaximum(from, to);

export const ReportRangeQuery = v.pipe(v.object(RangeEntries), v.forward(v.check(ordered, ORDER_RULE), ['from']), v.forward(v.check(withinMaximum, MAXIMUM_RULE), ['to']));
export type ReportRangeQuery = v.InferOutput<typeof ReportRangeQuery>;

export const INTERVALS = ['day', 'week', 'month'] as const;
export type Interval = (typeof INTERVALS)[number];

const Metric = v.pipe(
  v.picklist(TIMESERIES_METRICS, 'metric must be a metric of the reports, e.g. leads.created or calls.missed (this parameter’s enum lists them all)'),
  v.description(prose`
    The figure to answer per point: a count or sum of the summary by its path (\`leads.created\`,
    \`leads.byStatus.WON\`, \`inquiries.byTag.BOOKING\`, \`calls.missed\`, \`sms.optOuts\`), or one computed from the
    point’s sums (\`leads.conversion\`, \`inquiries.startedByLead.total\`, \`calls.averageDurationSeconds\`,
    \`speedToLead.medianSeconds\`).
  `),
);

const TimeseriesFields = v.object({
  ...RangeEntries,
  metric: Metric,
  interval: v.optional(v.pipe(v.picklist(INTERVALS, `interval must be one of ${INTERVALS.join(', ')}`), v.description('A point per calendar day, week (starting on Monday) or month. Default: `day`.')), 'day'),
});
type TimeseriesFields = v.InferOutput<typeof TimeseriesFields>;

export const ReportTimeseriesQuery = v.pipe(
  TimeseriesFields,
  v.forward(v.check<TimeseriesFields, string>(ordered, ORDER_RULE), ['from']),
  v.forward(v.check<TimeseriesFields, string>(withinMaximum, MAXIMUM_RULE), ['to']),
);
export type ReportTimeseriesQuery = v.InferOutput<typeof ReportTimeseriesQuery>;

const Count = v.pipe(v.number(), v.integer());
const Amount = v.pipe(v.number(), v.description('An amount in the organization’s `currency`, to the cent.'));
const Ratio = (description: string) => v.pipe(v.nullable(v.number()), v.description(`${description} To 4 decimal places; null when there is nothing to divide by.`));
const Seconds = (description: string) => v.pipe(v.nullable(v.pipe(v.number(), v.integer())), v.description(`${description} In whole seconds; null when there is nothing to measure.`));

/** A figure as the document states it: a count unless an amount, a ratio or seconds, with its description. */
function figureSchema(figure: Figure): v.GenericSchema {
  if (!figure.counted && figure.answer === 'ratio') return Ratio(figure.description ?? '');
  if (!figure.counted && figure.answer === 'seconds') return Seconds(figure.description ?? '');
  const base = figure.counted && figure.unit === 'cents' ? Amount : Count;
  return figure.description ? v.pipe(base, v.description(figure.description)) : base;
}

/** The fields of a group of the summary's figures (./catalog.ts), each group an object with its description. */
function figureFields(group: FigureGroup): Record<string, v.GenericSchema> {
  return Object.fromEntries(
    shownOf(group).map(([key, figure]) => {
      if (figure.kind === 'figure') return [key, figureSchema(figure)];
      const object = v.object(figureFields(figure));
      return [key, figure.description ? v.pipe(object, v.description(figure.description)) : object];
    }),
  );
}

const Range = {
  from: v.pipe(v.string(), v.metadata({ jsonSchema: { format: 'date' } }), v.description('The first day reported.')),
  to: v.pipe(v.string(), v.metadata({ jsonSchema: { format: 'date' } }), v.description('The last day reported.')),
};

export const ReportSummary = v.object({
  ...Range,
  timezone: v.pipe(v.string(), v.description('The organization’s time zone, whose local dates the days are.')),
  currency: v.pipe(v.string(), v.description('The organization’s currency (ISO 4217): every amount is in it.')),
  asOf: v.pipe(Timestamp, v.description('When the counters were read. They are kept by the table’s change stream, a moment behind each write.')),
  ...figureFields(SUMMARY),
});
export type ReportSummary = v.InferOutput<typeof ReportSummary>;

export const ReportSummaryResponse = v.object({ summary: ReportSummary });

export const ReportTimeseries = v.object({
  metric: v.picklist(TIMESERIES_METRICS),
  interval: v.picklist(INTERVALS),
  ...Range,
  points: v.pipe(
    v.array(
      v.object({
        start: v.pipe(v.string(), v.metadata({ jsonSchema: { format: 'date' } }), v.description('The first day of the point’s day, week (a Monday) or month: the first point’s may be before `from`.')),
        value: v.pipe(v.nullable(v.number()), v.description('The metric over the days of the point that are in the range; null for a ratio with nothing to divide by.')),
      }),
    ),
    v.description('A point per day, week or month that has a day in the range, in order, each summing only the days of the range.'),
  ),
});
export const ReportTimeseriesResponse = v.object({ timeseries: ReportTimeseries });

export const ReportFunnel = v.object({
  ...Range,
  stages: v.pipe(
    v.array(
      v.object({
        status: v.picklist(FUNNEL_STAGES),
        reached: v.pipe(Count, v.description('Leads created on the days of the range that reached this status or a later one.')),
        conversionToNext: Ratio('Of those, the share that reached the next; null for WON.'),
      }),
    ),
    v.description('NEW → CONTACTED → QUALIFIED → QUOTED → WON, in order, each by the furthest status the lead has reached (a lead lost after QUOTED reached QUOTED).'),
  ),
  lost: v.pipe(Count, v.description('Leads created on the days of the range that are LOST now.')),
});
export const ReportFunnelResponse = v.object({ funnel: ReportFunnel });
