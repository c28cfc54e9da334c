import * as v from 'valibot';
import { isCalendarDate, Timestamp } from '#shared/schema';
import { LEAD_STATUSES, LOST_REASONS } from '../leads/attributes';
import { INQUIRY_SOURCES, INQUIRY_TAGS } from '../inquiries/kinds';
import { FUNNEL_STAGES, TIMESERIES_METRICS } from './metrics';
import { DEFAULT_RANGE_DAYS, EARLIEST_REPORT_DATE, isOrdered, isWithinMaximum, MAX_RANGE_DAYS, MAXIMUM_RULE, ORDER_RULE } from './range';

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
  v.description(
    'The figure to answer per point: a count or sum of the summary by its path (`leads.created`, `leads.byStatus.WON`, `inquiries.byTag.BOOKING`, `calls.missed`, `sms.optOuts`), or one computed from the point’s sums (`leads.conversion`, `inquiries.startedByLead.total`, `calls.averageDurationSeconds`, `speedToLead.medianSeconds`).',
  ),
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
const each = <S extends v.GenericSchema>(names: readonly string[], schema: S) => v.object(Object.fromEntries(names.map((name) => [name, schema])) as Record<string, S>);

const Range = {
  from: v.pipe(v.string(), v.metadata({ jsonSchema: { format: 'date' } }), v.description('The first day reported.')),
  to: v.pipe(v.string(), v.metadata({ jsonSchema: { format: 'date' } }), v.description('The last day reported.')),
};

export const ReportSummary = v.object({
  ...Range,
  timezone: v.pipe(v.string(), v.description('The organization’s time zone, whose local dates the days are.')),
  currency: v.pipe(v.string(), v.description('The organization’s currency (ISO 4217): every amount is in it.')),
  asOf: v.pipe(Timestamp, v.description('When the counters were read. They are kept by the table’s change stream, a moment behind each write.')),
  leads: v.object({
    created: v.pipe(Count, v.description('Leads created on the days of the range.')),
    bySource: v.pipe(
      each([...INQUIRY_SOURCES, 'NONE'], Count),
      v.description('Those leads by the source of the first inquiry the lead started (a thread the organization opened by texting first is not one); `NONE`: none yet.'),
    ),
    byStatus: v.pipe(each(LEAD_STATUSES, Count), v.description('Those leads by their status now.')),
    pipelineValue: v.pipe(each(LEAD_STATUSES, Amount), v.description('The sum of those leads’ `value` by their status now.')),
    won: v.pipe(v.object({ count: Count, value: Amount }), v.description('Leads won on the days of the range (by `wonAt`), and their value.')),
    lost: v.pipe(v.object({ count: Count, reasons: each(LOST_REASONS, Count) }), v.description('Leads lost on the days of the range (by `lostAt`), by `lostReason` (any text not in the list counts as `OTHER`).')),
    conversion: Ratio('Of the leads created on the days of the range, the share won now.'),
  }),
  inquiries: v.object({
    total: v.pipe(Count, v.description('Inquiries recorded on the days of the range, whoever started them: `startedByLead` plus `startedByBusiness`.')),
    bySource: each(INQUIRY_SOURCES, Count),
    byTag: v.pipe(each(INQUIRY_TAGS, Count), v.description('By their tag now.')),
    startedByLead: v.pipe(
      v.object({ total: Count, bySource: each(INQUIRY_SOURCES, Count) }),
      v.description('Those the lead started: a text the lead sent that opened a thread, a call the lead made, a form, an email, a chat. What the lead asked of the business.'),
    ),
    startedByBusiness: v.pipe(
      v.object({
        total: Count,
        bySource: each(INQUIRY_SOURCES, Count),
        byAutomation: v.pipe(Count, v.description('Of those, threads an automation’s text opened.')),
      }),
      v.description('Those the organization started: a thread opened by a member’s or an automation’s text (every new thread is an SMS inquiry), a call its agent made to the lead.'),
    ),
  }),
  calls: v.pipe(
    v.object({
      taken: v.pipe(Count, v.description('Answered or transferred.')),
      missed: Count,
      afterHours: v.pipe(Count, v.description('Started outside the business hours.')),
      transferred: Count,
      averageDurationSeconds: Seconds('The average length of the calls taken.'),
    }),
    v.description('Inbound calls received on the days of the range.'),
  ),
  speedToLead: v.pipe(
    v.object({
      leads: v.pipe(Count, v.description('Leads whose first inquiry (the first they started) came on the days of the range and who have been contacted since.')),
      medianSeconds: Seconds('Half of those leads were contacted within this: the shortest such wait.'),
      p90Seconds: Seconds('90 % of those leads were contacted within this: the shortest such wait.'),
      within5Minutes: v.object({ count: Count, share: Ratio('The share of those leads contacted within 5 minutes.') }),
    }),
    v.description(
      'From a lead’s first inquiry to its first contact after it: an outbound SMS, an outbound call, or a status move off NEW. Each lead’s wait is kept to the second (a part of a second counts as a whole one, so a text 5.3 s after the inquiry waited 6 s), and median, p90 and within 5 minutes are exact over those waits.',
    ),
  ),
  appointments: v.pipe(
    v.object({
      booked: v.pipe(Count, v.description('Booked on the days of the range.')),
      bookedFromCalls: v.pipe(Count, v.description('Of those, booked from a call (`source: CALL`).')),
      cancelled: v.pipe(Count, v.description('Cancelled on the days of the range: counted on the day the cancellation was made, whenever the appointment was to start.')),
      completed: v.pipe(Count, v.description('Starting on the days of the range, completed now.')),
      noShows: v.pipe(Count, v.description('Starting on the days of the range, marked no-show now.')),
    }),
    v.description('Appointments.'),
  ),
  sms: v.pipe(
    v.object({ sent: Count, delivered: Count, failed: Count, received: Count, optOuts: Count }),
    v.description('Messages recorded on the days of the range by their status now (`sent` counts those sent or delivered), and numbers that opted out on those days.'),
  ),
  automations: v.pipe(v.object({ started: Count, completed: Count, stoppedByReply: Count }), v.description('Automation runs started, completed, and stopped by the lead’s reply, each counted on the local day it happened.')),
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
