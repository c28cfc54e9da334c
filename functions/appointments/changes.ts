import { lifecycleEvents, type ResourceChanges } from '../../shared/resource';
import { appointmentAudit, fromAppointmentItem } from './entity';
import { fromHoldItem, holdAudit, holdOf } from './hold-entity';

/** What the stream consumer reads of this resource, apart from its routes (functions/resource-changes.ts): its events and the records the audit log attributes. */
export const changes: ResourceChanges = {
  events: [
    lifecycleEvents({ entity: 'APPOINTMENT', data: 'Appointment', toData: (item) => fromAppointmentItem(item).value, created: 'appointment.created', updated: 'appointment.updated' }),
    lifecycleEvents({ entity: 'HOLD', data: 'Hold', toData: (item) => holdOf(fromHoldItem(item)), created: 'hold.created' }),
  ],
  audited: [appointmentAudit, holdAudit],
};
