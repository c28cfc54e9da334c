import { LOST_REASONS } from '../leads/attributes';

/**
 * What the reports' counters are: each figure kept on the day counter items (`functions/reports/entity.ts`), by the
 * name the API answers it under and the attribute the day item holds it in, with the record time that picks its
 * day (the organization's local date of that time); the figures themselves are listed in ./catalog.ts. Counters are
 * numbers only, moved by `ADD`; an attribute a day item lacks reads 0. Money is in integer cents, so ADDs stay exact;
 * the routes answer it as decimals.
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

/** Day attributes no metric names one to one: the funnel's furthest stages (the speed-to-lead waits, `sl<n>`, are open-ended: speedAttribute). */
export const UNNAMED_ATTRIBUTES: readonly { attribute: string; dayOf: DayOf }[] = FUNNEL_STAGES.map((stage) => ({ attribute: reachedAttribute(stage), dayOf: 'facts.createdDay' as const }));

/** A lost reason as counted: one of the documented list, any other text counted as OTHER. */
export const countedLostReason = (reason: unknown): (typeof LOST_REASONS)[number] =>
  (LOST_REASONS as readonly unknown[]).includes(reason) ? (reason as (typeof LOST_REASONS)[number]) : 'OTHER';
