import { defineResource, lifecycleEvents } from '../../shared/resource';
import { appointmentKeys, appointmentKeySamples, fromAppointmentItem } from './entity';
import { appointment } from './examples';
import { appointmentRoutes } from './routes';
import { Appointment } from './schema';

export const appointments = defineResource({
  name: 'appointments',
  tags: { Appointments: 'Visits and calls booked with leads, with the members attending; no member is booked twice at once.' },
  routes: appointmentRoutes,
  components: { Appointment: { schema: Appointment, example: appointment } },
  events: [lifecycleEvents({ entity: 'APPOINTMENT', toData: (item) => fromAppointmentItem(item).value, created: 'appointment.created', updated: 'appointment.updated' })],
  keys: [{ builders: appointmentKeys, samples: appointmentKeySamples }],
});
