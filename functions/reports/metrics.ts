import { LEAD_STATUSES, LOST_REASONS } from '../leads/attributes';
import { INQUIRY_SOURCES, INQUIRY_TAGS } from '../inquiries/kinds';

/**
 * The reports' metric catalog: every figure kept on the day counter items (`functions/reports/entity.ts`), by the
 * name the API answers it under and the attribute the day item holds it in, with the record time that picks its
 * day (the organization's local date of that time). Counters are numbers only, moved by `ADD`; an attribute a day
 * item lacks reads 0. Money is in integer cents, so ADDs stay exact; the routes answer it as decimals.
 */

/** Which record time keys the day a figure is counted on. */
export type DayOf =
  | 'lead.createdAt'
  | 'lead.wonAt'
  | 'lead.lostAt'
  | 'facts.createdDay'
  | 'facts.firstInquiryAt'
  | 'inquiry.createdAt'
  | 'appointment.createdAt'
  | 'appointment.startsAt'
  | 'appointment.updatedAt'
  | 'sms.createdAt'
  | 'optOut.optedOutAt'
  | 'run.createdAt'
  | 'run.updatedAt';

export interface CountedMetric {
  /** Its name in the API: the summary's path and the timeseries `metric`. */
  metric: string;
  /** Its attribute on the day item. */
  attribute: string;
  dayOf: DayOf;
  /** Counts unless told: `cents` answer as decimals of the organization's currency, `seconds` as seconds. */
  unit?: 'cents' | 'seconds';
}

/** The funnel's stages, in order: a lead's furthest stage reached is one of these (LOST is not a stage). */
export const FUNNEL_STAGES = ['NEW', 'CONTACTED', 'QUALIFIED', 'QUOTED', 'WON'] as const;
export type FunnelStage = (typeof FUNNEL_STAGES)[number];

/** `within5Minutes` counts the leads whose wait, in whole seconds rounded up, is at most this: exactly those contacted within 5 minutes. */
export const WITHIN_5_MINUTES_SECONDS = 300;

/**
 * Speed to lead is kept exact to the second: a day item counts the leads first contacted `n` whole seconds after their
 * first inquiry (rounded up, so "within n seconds" holds for each) in `sl<n>`, one attribute per wait that occurred.
 * Their number is bounded by the leads of the day, and the median or p90 of any days is read from their sum.
 */
const SPEED_PREFIX = 'sl';
const SPEED_ATTRIBUTE = /^sl(\d+)$/;
/** The attribute counting the leads that waited `seconds`. */
export const speedAttribute = (seconds: number) => `${SPEED_PREFIX}${Math.max(0, Math.ceil(seconds))}`;
/** The whole seconds a speed-to-lead attribute counts, or undefined for any other attribute. */
export const speedSecondsOf = (attribute: string): number | undefined => {
  const match = SPEED_ATTRIBUTE.exec(attribute);
  return match ? Number(match[1]) : undefined;
};

/** The attribute holding the leads whose furthest stage is `stage` (the funnel sums it over the stages at or after one). */
export const reachedAttribute = (stage: FunnelStage) => `rm_${stage}`;

const each = <T extends string>(values: readonly T[], metric: (value: T) => string, attribute: (value: T) => string, dayOf: DayOf, unit?: CountedMetric['unit']): CountedMetric[] =>
  values.map((value) => ({ metric: metric(value), attribute: attribute(value), dayOf, ...(unit ? { unit } : {}) }));

/** Every counted figure that has a name in the API, in the order the summary shows them. */
export const COUNTED_METRICS: readonly CountedMetric[] = [
  { metric: 'leads.created', attribute: 'lc', dayOf: 'lead.createdAt' },
  ...each(INQUIRY_SOURCES, (s) => `leads.bySource.${s}`, (s) => `ls_${s}`, 'facts.createdDay'),
  ...each(LEAD_STATUSES, (s) => `leads.byStatus.${s}`, (s) => `st_${s}`, 'lead.createdAt'),
  ...each(LEAD_STATUSES, (s) => `leads.pipelineValue.${s}`, (s) => `pv_${s}`, 'lead.createdAt', 'cents'),
  { metric: 'leads.won', attribute: 'w', dayOf: 'lead.wonAt' },
  { metric: 'leads.wonValue', attribute: 'wv', dayOf: 'lead.wonAt', unit: 'cents' },
  { metric: 'leads.lost', attribute: 'l', dayOf: 'lead.lostAt' },
  ...each(LOST_REASONS, (r) => `leads.lostReasons.${r}`, (r) => `lr_${r}`, 'lead.lostAt'),
  ...each(INQUIRY_SOURCES, (s) => `inquiries.bySource.${s}`, (s) => `i_${s}`, 'inquiry.createdAt'),
  ...each(INQUIRY_TAGS, (t) => `inquiries.byTag.${t}`, (t) => `t_${t}`, 'inquiry.createdAt'),
  ...each(INQUIRY_SOURCES, (s) => `inquiries.startedByLead.bySource.${s}`, (s) => `il_${s}`, 'inquiry.createdAt'),
  ...each(INQUIRY_SOURCES, (s) => `inquiries.startedByBusiness.bySource.${s}`, (s) => `ib_${s}`, 'inquiry.createdAt'),
  { metric: 'inquiries.startedByBusiness.byAutomation', attribute: 'ia', dayOf: 'inquiry.createdAt' },
  { metric: 'calls.taken', attribute: 'ct', dayOf: 'inquiry.createdAt' },
  { metric: 'calls.missed', attribute: 'cm', dayOf: 'inquiry.createdAt' },
  { metric: 'calls.afterHours', attribute: 'ca', dayOf: 'inquiry.createdAt' },
  { metric: 'calls.transferred', attribute: 'cx', dayOf: 'inquiry.createdAt' },
  { metric: 'calls.durationSeconds', attribute: 'cd', dayOf: 'inquiry.createdAt', unit: 'seconds' },
  { metric: 'appointments.booked', attribute: 'ab', dayOf: 'appointment.createdAt' },
  { metric: 'appointments.bookedFromCalls', attribute: 'abc', dayOf: 'appointment.createdAt' },
  { metric: 'appointments.cancelled', attribute: 'ax', dayOf: 'appointment.updatedAt' },
  { metric: 'appointments.completed', attribute: 'ad', dayOf: 'appointment.startsAt' },
  { metric: 'appointments.noShows', attribute: 'an', dayOf: 'appointment.startsAt' },
  { metric: 'sms.sent', attribute: 'ss', dayOf: 'sms.createdAt' },
  { metric: 'sms.delivered', attribute: 'sd', dayOf: 'sms.createdAt' },
  { metric: 'sms.failed', attribute: 'sf', dayOf: 'sms.createdAt' },
  { metric: 'sms.received', attribute: 'sr', dayOf: 'sms.createdAt' },
  { metric: 'sms.optOuts', attribute: 'oo', dayOf: 'optOut.optedOutAt' },
  { metric: 'automations.started', attribute: 'rs', dayOf: 'run.createdAt' },
  { metric: 'automations.completed', attribute: 'rc', dayOf: 'run.updatedAt' },
  { metric: 'automations.stoppedByReply', attribute: 'rp', dayOf: 'run.updatedAt' },
];

/** Day attributes no metric names one to one: the funnel's furthest stages (the speed-to-lead waits, `sl<n>`, are open-ended: speedAttribute). */
export const UNNAMED_ATTRIBUTES: readonly { attribute: string; dayOf: DayOf }[] = FUNNEL_STAGES.map((stage) => ({ attribute: reachedAttribute(stage), dayOf: 'facts.createdDay' as const }));

/** Every counter attribute a day item may hold but the speed-to-lead waits. */
export const DAY_ATTRIBUTES: readonly string[] = [...COUNTED_METRICS.map(({ attribute }) => attribute), ...UNNAMED_ATTRIBUTES.map(({ attribute }) => attribute)];
const NAMED_DAY_ATTRIBUTES = new Set(DAY_ATTRIBUTES);

/** Whether a day item's attribute is a counter: a named one, or a speed-to-lead wait (`sl<n>`, counted on facts.firstInquiryAt). */
export const isDayAttribute = (attribute: string) => NAMED_DAY_ATTRIBUTES.has(attribute) || speedSecondsOf(attribute) !== undefined;

/** A counted metric's attribute, by its API name. */
export const METRIC_ATTRIBUTES: Readonly<Record<string, string>> = Object.fromEntries(COUNTED_METRICS.map(({ metric, attribute }) => [metric, attribute]));

/** The figures computed at read from counted ones, each also a timeseries `metric` (computed per point). */
export const DERIVED_METRICS = [
  'leads.bySource.NONE',
  'inquiries.startedByLead.total',
  'inquiries.startedByBusiness.total',
  'leads.conversion',
  'calls.averageDurationSeconds',
  'speedToLead.leads',
  'speedToLead.medianSeconds',
  'speedToLead.p90Seconds',
  'speedToLead.within5MinutesShare',
] as const;

/** Every name the timeseries route takes as `metric`. */
export const TIMESERIES_METRICS: readonly string[] = [...COUNTED_METRICS.map(({ metric }) => metric), ...DERIVED_METRICS];

/** A lost reason as counted: one of the documented list, any other text counted as OTHER. */
export const countedLostReason = (reason: unknown): (typeof LOST_REASONS)[number] =>
  (LOST_REASONS as readonly unknown[]).includes(reason) ? (reason as (typeof LOST_REASONS)[number]) : 'OTHER';
