import { INQUIRY_SOURCES, INQUIRY_TAGS } from '../inquiries/kinds';
import { LEAD_STATUSES, LOST_REASONS } from '../leads/attributes';
import { counter, measuredLeads, money, ratio, waitQuantile, within5Minutes, type Totals } from './figures';
import { speedSecondsOf, UNNAMED_ATTRIBUTES, type CountedMetric, type DayOf } from './metrics';
import { prose } from '#shared/prose';

/**
 * The reports' figures, each one entry: where the summary shows it, its name in the API (the summary's path unless
 * told), its description, and how it is summed: counted on day items (`attribute`, by the day of `dayOf`) or computed
 * from the counters of the days it covers. The summary's schema (./schema.ts), the summary (./summary.ts), the
 * timeseries' metrics and the counters kept (./facts.ts, ./rebuild.ts) all derive from `SUMMARY`.
 */

interface FigureBase {
  kind: 'figure';
  /** Its name in the API when not its path in the summary. */
  metric?: string;
  description?: string;
}
/** A figure kept on the day items, moved by `ADD`. */
export interface CountedFigure extends FigureBase, Omit<CountedMetric, 'metric'> {
  counted: true;
  /** False: counted for the timeseries and other figures, not shown in the summary. */
  shown?: false;
}
/** A figure computed at read from the counted ones; `answer` says how the document states it (a count unless told). */
export interface ComputedFigure extends FigureBase {
  counted: false;
  value: (totals: Totals) => number | null;
  answer?: 'ratio' | 'seconds';
  /** False: shown in the summary only, not a timeseries metric. */
  timeseries?: false;
}
export type Figure = CountedFigure | ComputedFigure;
/** Figures shown together as one object of the summary; `prefix` names its figures in the API when its path does not. */
export interface FigureGroup {
  kind: 'group';
  description?: string;
  prefix?: string;
  figures: Readonly<Record<string, Figure | FigureGroup>>;
}

type Options = { metric?: string; description?: string };
const counted = (attribute: string, dayOf: DayOf, options: Options & Pick<CountedFigure, 'unit' | 'shown'> = {}): CountedFigure => ({ kind: 'figure', counted: true, attribute, dayOf, ...options });
const computed = (value: ComputedFigure['value'], options: Options & Pick<ComputedFigure, 'answer' | 'timeseries'> = {}): ComputedFigure => ({ kind: 'figure', counted: false, value, ...options });
const group = (figures: FigureGroup['figures'], options: Pick<FigureGroup, 'description' | 'prefix'> = {}): FigureGroup => ({ kind: 'group', figures, ...options });
/** A figure per value of a list (a source, a status), keyed by it. */
const each = <T extends string>(values: readonly T[], figure: (value: T) => Figure) => Object.fromEntries(values.map((value) => [value, figure(value)]));

/** A counted figure by its API name, in the totals (money in cents): what computed figures are computed from. */
const of = (totals: Totals, metric: string): number => {
  const attribute = METRIC_ATTRIBUTES[metric];
  // A name no counted figure has would read 0 for ever: ./catalog.test.ts computes every figure to find it.
  if (attribute === undefined) throw new Error(`No counted report figure ${metric}`);
  return counter(totals, attribute);
};
/** A figure by source summed over the sources. */
const sumOf = (totals: Totals, prefix: string) => INQUIRY_SOURCES.reduce((sum, source) => sum + of(totals, `${prefix}.${source}`), 0);
const seconds = (value: number | null) => (value === null ? null : Math.round(value));

/** The summary's figures, in the order it shows them (counted ones first in the timeseries' list, then computed ones). */
export const SUMMARY = group({
  leads: group({
    created: counted('lc', 'lead.createdAt', { description: 'Leads created on the days of the range.' }),
    bySource: group(
      {
        ...each(INQUIRY_SOURCES, (source) => counted(`ls_${source}`, 'facts.createdDay')),
        // A lead is counted by source once its first inquiry is known; the rest of those created have none.
        NONE: computed((totals) => of(totals, 'leads.created') - sumOf(totals, 'leads.bySource')),
      },
      { description: 'Those leads by the source of the first inquiry the lead started (a thread the organization opened by texting first is not one); `NONE`: none yet.' },
    ),
    byStatus: group(each(LEAD_STATUSES, (status) => counted(`st_${status}`, 'lead.createdAt')), { description: 'Those leads by their status now.' }),
    pipelineValue: group(each(LEAD_STATUSES, (status) => counted(`pv_${status}`, 'lead.createdAt', { unit: 'cents' })), { description: 'The sum of those leads’ `value` by their status now.' }),
    won: group(
      { count: counted('w', 'lead.wonAt', { metric: 'leads.won' }), value: counted('wv', 'lead.wonAt', { metric: 'leads.wonValue', unit: 'cents' }) },
      { description: 'Leads won on the days of the range (by `wonAt`), and their value.' },
    ),
    lost: group(
      { count: counted('l', 'lead.lostAt', { metric: 'leads.lost' }), reasons: group(each(LOST_REASONS, (reason) => counted(`lr_${reason}`, 'lead.lostAt')), { prefix: 'leads.lostReasons' }) },
      { description: 'Leads lost on the days of the range (by `lostAt`), by `lostReason` (any text not in the list counts as `OTHER`).' },
    ),
    // Leads created in the range that are won now, of those created.
    conversion: computed((totals) => ratio(of(totals, 'leads.byStatus.WON'), of(totals, 'leads.created')), { answer: 'ratio', description: 'Of the leads created on the days of the range, the share won now.' }),
  }),
  inquiries: group({
    total: computed((totals) => sumOf(totals, 'inquiries.bySource'), { timeseries: false, description: 'Inquiries recorded on the days of the range, whoever started them: `startedByLead` plus `startedByBusiness`.' }),
    bySource: group(each(INQUIRY_SOURCES, (source) => counted(`i_${source}`, 'inquiry.createdAt'))),
    byTag: group(each(INQUIRY_TAGS, (tag) => counted(`t_${tag}`, 'inquiry.createdAt')), { description: 'By their tag now.' }),
    startedByLead: group(
      {
        total: computed((totals) => sumOf(totals, 'inquiries.startedByLead.bySource')),
        bySource: group(each(INQUIRY_SOURCES, (source) => counted(`il_${source}`, 'inquiry.createdAt'))),
      },
      { description: 'Those the lead started: a text the lead sent that opened a thread, a call the lead made, a form, an email, a chat. What the lead asked of the business.' },
    ),
    startedByBusiness: group(
      {
        total: computed((totals) => sumOf(totals, 'inquiries.startedByBusiness.bySource')),
        bySource: group(each(INQUIRY_SOURCES, (source) => counted(`ib_${source}`, 'inquiry.createdAt'))),
        byAutomation: counted('ia', 'inquiry.createdAt', { description: 'Of those, threads an automation’s text opened.' }),
      },
      { description: 'Those the organization started: a thread opened by a member’s or an automation’s text (every new thread is an SMS inquiry), a call its agent made to the lead.' },
    ),
  }),
  calls: group(
    {
      taken: counted('ct', 'inquiry.createdAt', { description: 'Answered or transferred.' }),
      missed: counted('cm', 'inquiry.createdAt'),
      afterHours: counted('ca', 'inquiry.createdAt', { description: 'Started outside the business hours.' }),
      transferred: counted('cx', 'inquiry.createdAt'),
      // Summed over the calls taken, for their average.
      durationSeconds: counted('cd', 'inquiry.createdAt', { unit: 'seconds', shown: false }),
      averageDurationSeconds: computed((totals) => (of(totals, 'calls.taken') === 0 ? null : seconds(of(totals, 'calls.durationSeconds') / of(totals, 'calls.taken'))), {
        answer: 'seconds',
        description: 'The average length of the calls taken.',
      }),
    },
    { description: 'Inbound calls received on the days of the range.' },
  ),
  speedToLead: group(
    {
      leads: computed(measuredLeads, { description: 'Leads whose first inquiry (the first they started) came on the days of the range and who have been contacted since.' }),
      medianSeconds: computed((totals) => seconds(waitQuantile(totals, 0.5)), { answer: 'seconds', description: 'Half of those leads were contacted within this: the shortest such wait.' }),
      p90Seconds: computed((totals) => seconds(waitQuantile(totals, 0.9)), { answer: 'seconds', description: '90 % of those leads were contacted within this: the shortest such wait.' }),
      within5Minutes: group({
        count: computed(within5Minutes, { timeseries: false }),
        share: computed((totals) => ratio(within5Minutes(totals), measuredLeads(totals)), { metric: 'speedToLead.within5MinutesShare', answer: 'ratio', description: 'The share of those leads contacted within 5 minutes.' }),
      }),
    },
    {
      description: prose`
        From a lead’s first inquiry to its first contact after it: an outbound SMS, an outbound call, or a status move
        off NEW. Each lead’s wait is kept to the second (a part of a second counts as a whole one, so a text 5.3 s after
        the inquiry waited 6 s), and median, p90 and within 5 minutes are exact over those waits.
      `,
    },
  ),
  appointments: group(
    {
      booked: counted('ab', 'appointment.createdAt', { description: 'Booked on the days of the range.' }),
      bookedFromCalls: counted('abc', 'appointment.createdAt', { description: 'Of those, booked from a call (`source: CALL`).' }),
      cancelled: counted('ax', 'appointment.updatedAt', { description: 'Cancelled on the days of the range: counted on the day the cancellation was made, whenever the appointment was to start.' }),
      completed: counted('ad', 'appointment.startsAt', { description: 'Starting on the days of the range, completed now.' }),
      noShows: counted('an', 'appointment.startsAt', { description: 'Starting on the days of the range, marked no-show now.' }),
    },
    { description: 'Appointments.' },
  ),
  sms: group(
    { sent: counted('ss', 'sms.createdAt'), delivered: counted('sd', 'sms.createdAt'), failed: counted('sf', 'sms.createdAt'), received: counted('sr', 'sms.createdAt'), optOuts: counted('oo', 'optOut.optedOutAt') },
    { description: 'Messages recorded on the days of the range by their status now (`sent` counts those sent or delivered), and numbers that opted out on those days.' },
  ),
  automations: group(
    { started: counted('rs', 'run.createdAt'), completed: counted('rc', 'run.updatedAt'), stoppedByReply: counted('rp', 'run.updatedAt') },
    { description: 'Automation runs started, completed, and stopped by the lead’s reply, each counted on the local day it happened.' },
  ),
});

/** What the summary shows of a group: its groups and figures, each by its key, but those counted for other figures only. */
export const shownOf = (of: FigureGroup) => Object.entries(of.figures).filter(([, figure]) => figure.kind === 'group' || !figure.counted || figure.shown !== false);

/** Every figure of a group with its name in the API, depth first, in the order the group lists them. */
function named(of: FigureGroup, prefix?: string): { metric: string; figure: Figure }[] {
  return Object.entries(of.figures).flatMap(([key, figure]) => {
    const path = prefix === undefined ? key : `${prefix}.${key}`;
    return figure.kind === 'group' ? named(figure, figure.prefix ?? path) : [{ metric: figure.metric ?? path, figure }];
  });
}
const FIGURES = named(SUMMARY);

/** Every counted figure, by its API name, in the order the summary shows them. */
export const COUNTED_METRICS: readonly CountedMetric[] = FIGURES.flatMap(({ metric, figure }) => (figure.counted ? [{ metric, attribute: figure.attribute, dayOf: figure.dayOf, ...(figure.unit ? { unit: figure.unit } : {}) }] : []));

/** Every counter attribute a day item may hold but the speed-to-lead waits. */
export const DAY_ATTRIBUTES: readonly string[] = [...COUNTED_METRICS.map(({ attribute }) => attribute), ...UNNAMED_ATTRIBUTES.map(({ attribute }) => attribute)];
const NAMED_DAY_ATTRIBUTES = new Set(DAY_ATTRIBUTES);

/** Whether a day item's attribute is a counter: a named one, or a speed-to-lead wait (`sl<n>`, counted on facts.firstInquiryAt). */
export const isDayAttribute = (attribute: string) => NAMED_DAY_ATTRIBUTES.has(attribute) || speedSecondsOf(attribute) !== undefined;

/** A counted metric's attribute, by its API name. */
export const METRIC_ATTRIBUTES: Readonly<Record<string, string>> = Object.fromEntries(COUNTED_METRICS.map(({ metric, attribute }) => [metric, attribute]));

/** Every name the timeseries route takes as `metric`: the counted figures, then the computed ones. */
export const TIMESERIES_METRICS: readonly string[] = [
  ...COUNTED_METRICS.map(({ metric }) => metric),
  ...FIGURES.flatMap(({ metric, figure }) => (!figure.counted && figure.timeseries !== false ? [metric] : [])),
];

/** A figure's value over the totals of some days: a counted one read from its attribute (cents as decimals), a computed one computed. */
export const figureValue = (figure: Figure, totals: Totals): number | null => {
  if (!figure.counted) return figure.value(totals);
  return figure.unit === 'cents' ? money(counter(totals, figure.attribute)) : counter(totals, figure.attribute);
};

const BY_METRIC = new Map(FIGURES.map(({ metric, figure }) => [metric, figure]));
// Two figures by one name would answer one of them for both.
if (BY_METRIC.size !== FIGURES.length) throw new Error('Two report figures have one name');

/** A metric's value over the totals of some days. */
export const metricValue = (metric: string, totals: Totals): number | null => figureValue(BY_METRIC.get(metric)!, totals);
