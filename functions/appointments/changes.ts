import { lifecycleEvents, type EventSource, type ResourceChanges } from '#shared/resource';
import { appointmentAudit, fromAppointmentItem } from './entity';
import { fromHoldItem, holdAudit, holdOf } from './hold-entity';

const lifecycle = lifecycleEvents({ entity: 'APPOINTMENT', data: 'Appointment', toData: (item) => fromAppointmentItem(item).value, created: 'appointment.created', updated: 'appointment.updated' });

/** The endings with an event of their own (a cancellation is an `appointment.updated`, as it always was). */
const OUTCOME_EVENTS: Partial<Record<string, string>> = { COMPLETED: 'appointment.completed', NO_SHOW: 'appointment.no_show' };

/**
 * An appointment's create and changes are its lifecycle events, but the change that completes it or marks it a no-show
 * is `appointment.completed` or `appointment.no_show` instead of `appointment.updated`: one stream record is one
 * event (its id is the record's), and a subscriber to outcomes need not read every update.
 */
const appointmentEvents: EventSource = {
  ...lifecycle,
  types: [...lifecycle.types, ...(Object.values(OUTCOME_EVENTS) as string[])],
  eventsOf: (change) => {
    const { oldItem, newItem } = change;
    const type = change.kind === 'MODIFY' && newItem && newItem.status !== oldItem?.status ? OUTCOME_EVENTS[String(newItem.status)] : undefined;
    return type ? [{ type, data: fromAppointmentItem(newItem!).value }] : lifecycle.eventsOf(change);
  },
};

/** What the stream consumer reads of this resource, apart from its routes (functions/resource-changes.ts): its events and the records the audit log attributes. */
export const changes: ResourceChanges = {
  events: [appointmentEvents, lifecycleEvents({ entity: 'HOLD', data: 'Hold', toData: (item) => holdOf(fromHoldItem(item)), created: 'hold.created' })],
  audited: [appointmentAudit, holdAudit],
};
