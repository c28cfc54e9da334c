/**
 * Which automation triggers an event stands for, what of its record a trigger's filter reads, and whether a filter
 * matches: pure functions over the events the stream consumer builds (functions/stream/record.ts). Triggers with no
 * event of their own are conditions on one: `lead.status_changed` is a `lead.updated` that moved `status`,
 * `appointment.booked` an `appointment.created` that starts after it was made, `appointment.cancelled` an
 * `appointment.updated` that moved `status` to CANCELLED, `call.missed` an
 * `inquiry.created` of a CALL whose `callOutcome` is MISSED (functions/inquiries/call-outcome.ts).
 */
import type { Event } from '../../events/schema';
import { TRIGGERS, TRIGGER_NAMES, type TriggerName } from '../catalog';

type Data = Record<string, unknown>;

/** One trigger an event fires: the lead (and appointment) a run would be about, and the values its filter is held to. */
export interface Triggered {
  trigger: TriggerName;
  leadId: string;
  appointmentId?: string;
  /** The filter's fields (the catalog's `filter`) with the event's values; a field the record lacks is absent. */
  fields: Readonly<Record<string, string>>;
}

export type TriggerFilter = Readonly<Record<string, string | readonly string[]>>;

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The fields an update changed, each with its value before; empty for other events. */
export const previousOf = (event: Event): Data => ('previousAttributes' in event ? event.previousAttributes : {});
/** Whether an update changed this field. */
export const changed = (event: Event, field: string) => Object.hasOwn(previousOf(event), field);

/** The lead and appointment a run on this trigger is about, by the record the catalog says the trigger has. */
function recordOf(trigger: TriggerName, data: Data): Pick<Triggered, 'leadId' | 'appointmentId'> | undefined {
  const record = TRIGGERS[trigger].record;
  const leadId = text(record === 'lead' && trigger !== 'sms.received' ? data.id : data.leadId);
  if (!leadId) return undefined;
  if (record !== 'appointment') return { leadId };
  const appointmentId = text(data.id);
  return appointmentId ? { leadId, appointmentId } : undefined;
}

/**
 * Each trigger's condition on an event of its `from` type: the filter's values when it fires, undefined when it does
 * not. Only the catalog's filter fields are answered, so a filter can read nothing else.
 */
const CONDITIONS: Record<TriggerName, (event: Event, data: Data) => Record<string, unknown> | undefined> = {
  'call.missed': (_, data) => (data.source === 'CALL' && data.callOutcome === 'MISSED' ? { tag: data.tag } : undefined),
  'inquiry.created': (_, data) => ({ source: data.source, tag: data.tag }),
  'lead.created': (_, data) => ({ status: data.status }),
  'lead.status_changed': (event, data) => (changed(event, 'status') ? { from: previousOf(event).status, to: data.status } : undefined),
  // A booking recorded after its start (a job logged once done) is no booking to confirm or remind of.
  'appointment.booked': (event, data) => (startsAfter(data, event.occurredAt) ? {} : undefined),
  'appointment.cancelled': (event, data) => (isCancellation(event, data) ? {} : undefined),
  'appointment.completed': () => ({}),
  'sms.received': () => ({}),
};

/** Whether the appointment starts after `at` (its start unknown: it does not). */
function startsAfter(data: Data, at: string): boolean {
  const startsAt = typeof data.startsAt === 'string' ? Date.parse(data.startsAt) : NaN;
  return startsAt > Date.parse(at);
}

/** An appointment's update that cancelled it (a cancellation has no event type of its own: it is an `appointment.updated`). */
export function isCancellation(event: Event, data: Data = event.data): boolean {
  return event.type === 'appointment.updated' && data.status === 'CANCELLED' && changed(event, 'status');
}

/** The triggers an event fires, each with its run's lead (and appointment) and its filter's values. */
export function triggersOf(event: Event): Triggered[] {
  const data = event.data as Data;
  return TRIGGER_NAMES.flatMap((trigger) => {
    if (TRIGGERS[trigger].from !== event.type) return [];
    const values = CONDITIONS[trigger](event, data);
    const record = values && recordOf(trigger, data);
    if (!values || !record) return [];
    const fields = Object.fromEntries(Object.entries(values).flatMap(([field, value]) => (typeof value === 'string' ? [[field, value]] : [])));
    return [{ trigger, ...record, fields }];
  });
}

/** Whether every field the filter names holds one of its values (a value or a list of them); an empty filter matches all. */
export function filterMatches(filter: TriggerFilter, fields: Readonly<Record<string, string>>): boolean {
  return Object.entries(filter).every(([field, wanted]) => {
    const value = fields[field];
    return value !== undefined && (typeof wanted === 'string' ? wanted === value : wanted.includes(value));
  });
}
