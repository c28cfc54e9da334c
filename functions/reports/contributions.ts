import { localTime } from '#shared/local-time';
import { LEAD_STATUSES } from '../leads/attributes';
import { METRIC_ATTRIBUTES } from './catalog';
import { startedByLead } from '../inquiries/started-by';
import { countedLostReason } from './metrics';
import type { COUNTED_ENTITIES } from './entity';

type Item = Record<string, unknown>;

/** One counter's share of one record: `amount` added to `attr` of the day item of `day` (a local date, YYYY-MM-DD). */
export interface Contribution {
  day: string;
  attr: string;
  amount: number;
}

/** The organization's local date of an instant: what picks a record's day item, daylight saving included. */
export const localDay = (at: string, timezone: string): string => localTime(timezone, at).local.slice(0, 'YYYY-MM-DD'.length);

/** Money as integer cents, so counter ADDs stay exact. */
export const cents = (value: unknown) => (typeof value === 'number' ? Math.round(value * 100) : 0);

const attr = (metric: string) => {
  const name = METRIC_ATTRIBUTES[metric];
  if (!name) throw new Error(`No counted metric ${metric} (functions/reports/catalog.ts)`);
  return name;
};

/** Contributions of one record at one time, each a metric of the catalog with its amount; none when the time is unset. */
function on(at: unknown, timezone: string, figures: [metric: string, amount: number][]): Contribution[] {
  if (typeof at !== 'string') return [];
  const day = localDay(at, timezone);
  return figures.filter(([, amount]) => amount !== 0).map(([metric, amount]) => ({ day, attr: attr(metric), amount }));
}

const when = (held: unknown, metric: string, amount = 1): [string, number][] => (held ? [[metric, amount]] : []);

/** A lead counts in its created day's cohort (by its status now and value), and on its won or lost day. */
function leadContributions(lead: Item, timezone: string): Contribution[] {
  const status = String(lead.status);
  const known = (LEAD_STATUSES as readonly string[]).includes(status);
  return [
    ...on(lead.createdAt, timezone, [['leads.created', 1], ...when(known, `leads.byStatus.${status}`), ...when(known, `leads.pipelineValue.${status}`, cents(lead.value))]),
    ...(status === 'WON' ? on(lead.wonAt, timezone, [['leads.won', 1], ['leads.wonValue', cents(lead.value)]]) : []),
    ...(status === 'LOST' ? on(lead.lostAt, timezone, [['leads.lost', 1], [`leads.lostReasons.${countedLostReason(lead.lostReason)}`, 1]]) : []),
  ];
}


/**
 * An inquiry counts by source and tag on its day, and by who started it (the lead, or the organization and whether by
 * an automation); a call the lead made (the ingestion stores its outcome, length and whether it came outside business
 * hours on the INQUIRY item) also in the calls' figures.
 */
function inquiryContributions(inquiry: Item, timezone: string): Contribution[] {
  const inboundCall = inquiry.source === 'CALL' && inquiry.callDirection !== 'AI_TO_LEAD' && typeof inquiry.callOutcome === 'string';
  const taken = inquiry.callOutcome === 'ANSWERED' || inquiry.callOutcome === 'TRANSFERRED';
  const source = String(inquiry.source);
  const byLead = startedByLead(inquiry);
  return on(inquiry.createdAt, timezone, [
    [`inquiries.bySource.${source}`, 1],
    [`inquiries.byTag.${String(inquiry.tag)}`, 1],
    [byLead ? `inquiries.startedByLead.bySource.${source}` : `inquiries.startedByBusiness.bySource.${source}`, 1],
    ...when(inquiry.startedBy === 'AUTOMATION', 'inquiries.startedByBusiness.byAutomation'),
    ...when(inboundCall && taken, 'calls.taken'),
    ...when(inboundCall && inquiry.callOutcome === 'MISSED', 'calls.missed'),
    ...when(inboundCall && inquiry.callOutcome === 'TRANSFERRED', 'calls.transferred'),
    ...when(inboundCall && inquiry.afterHours === true, 'calls.afterHours'),
    ...when(inboundCall && taken, 'calls.durationSeconds', typeof inquiry.callSeconds === 'number' ? inquiry.callSeconds : 0),
  ]);
}

/** A message counts on the day it was recorded, by its status now (so a receipt moves it from sent to delivered or failed). */
function smsContributions(message: Item, timezone: string): Contribution[] {
  const { direction, status } = message;
  return on(message.createdAt, timezone, [
    ...when(direction === 'OUTBOUND' && (status === 'SENT' || status === 'DELIVERED'), 'sms.sent'),
    ...when(direction === 'OUTBOUND' && status === 'DELIVERED', 'sms.delivered'),
    ...when(direction === 'OUTBOUND' && status === 'FAILED', 'sms.failed'),
    ...when(direction === 'INBOUND', 'sms.received'),
  ]);
}

/**
 * A booking counts on the day it was made; a cancellation on the day it was made (the appointment's `updatedAt`, which
 * an ended appointment never moves again), whenever the appointment was to start; completed and no-show, by its status
 * now, on the day it starts.
 */
function appointmentContributions(appointment: Item, timezone: string): Contribution[] {
  const { status } = appointment;
  return [
    ...on(appointment.createdAt, timezone, [['appointments.booked', 1], ...when(appointment.source === 'CALL', 'appointments.bookedFromCalls')]),
    ...(status === 'CANCELLED' ? on(appointment.updatedAt, timezone, [['appointments.cancelled', 1]]) : []),
    ...on(appointment.startsAt, timezone, [...when(status === 'COMPLETED', 'appointments.completed'), ...when(status === 'NO_SHOW', 'appointments.noShows')]),
  ];
}

/** A phone's opt-out counts while it stands (START deletes it, and so takes it back). */
const optOutContributions = (optOut: Item, timezone: string) => on(optOut.optedOutAt, timezone, [['sms.optOuts', 1]]);

/**
 * A run counts as started on the day it was made, and as completed or stopped by the lead's reply on the day it ended:
 * its `updatedAt`, which an ended run never moves again.
 */
function runContributions(run: Item, timezone: string): Contribution[] {
  const { status } = run;
  return [
    ...on(run.createdAt, timezone, [['automations.started', 1]]),
    ...on(run.updatedAt, timezone, [...when(status === 'COMPLETED', 'automations.completed'), ...when(status === 'STOPPED' && run.stoppedReason === 'lead.replied', 'automations.stoppedByReply')]),
  ];
}

/** The record kinds the reports count, by their items' `entity`; every other item (counters, claims, names, events, the reports' own) costs nothing. */
export const COUNTED: Readonly<Record<(typeof COUNTED_ENTITIES)[number], (item: Item, timezone: string) => Contribution[]>> = {
  LEAD: leadContributions,
  INQUIRY: inquiryContributions,
  SMS_MESSAGE: smsContributions,
  APPOINTMENT: appointmentContributions,
  SMS_OPT_OUT: optOutContributions,
  AUTOMATION_RUN: runContributions,
};

/** Whether the reports count items of this `entity`. */
export const isCounted = (entity: unknown): entity is (typeof COUNTED_ENTITIES)[number] => typeof entity === 'string' && Object.hasOwn(COUNTED, entity);

/** What a record contributes when it is in this state: nothing when absent (before an insert, after a remove). */
export function contributions(entity: string, item: Item | undefined, timezone: string): Contribution[] {
  return item && isCounted(entity) ? COUNTED[entity]!(item, timezone) : [];
}

/** `after − before`, summed per day and attribute, zeros left out: what a change moves. */
export function difference(after: Contribution[], before: Contribution[]): Contribution[] {
  const sums = new Map<string, Contribution>();
  const add = ({ day, attr: name, amount }: Contribution, sign: number) => {
    const key = `${day} ${name}`;
    const sum = sums.get(key) ?? { day, attr: name, amount: 0 };
    sum.amount += sign * amount;
    sums.set(key, sum);
  };
  after.forEach((contribution) => add(contribution, 1));
  before.forEach((contribution) => add(contribution, -1));
  return [...sums.values()].filter(({ amount }) => amount !== 0);
}
