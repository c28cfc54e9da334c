import { defineResource, namedComponents } from '#shared/resource';
import { appointmentKeys, appointmentKeySamples } from './entity';
import * as examples from './examples';
import { holdKeys, holdKeySamples } from './hold-entity';
import { appointmentRoutes } from './routes';
import { Hold, Slot } from './availability-schema';
import { Appointment } from './schema';
import { changes } from './changes';

/** The schedule: appointments, the free slots their members' hours and bookings leave, and short holds on a slot. */
export const appointments = defineResource({
  name: 'appointments',
  tags: {
    Appointments: 'Visits and calls booked with leads, with the members attending; no member is booked twice at once.',
    Availability: 'When a service can be booked: free slots from business and working hours, bookings and holds, and short holds on a slot while a caller confirms.',
  },
  // Members book, move and cancel the appointments of the leads they work.
  sessionRoles: { write: 'MEMBER' },
  routes: appointmentRoutes,
  components: namedComponents({ Appointment, Slot, Hold }, examples),
  ...changes,
  keys: [
    { builders: appointmentKeys, samples: appointmentKeySamples },
    { builders: holdKeys, samples: holdKeySamples },
  ],
  zapier: {
    triggers: [
      { key: 'appointment_booked', noun: 'Appointment', label: 'Appointment Booked', description: 'Triggers when an appointment is booked.', eventType: 'appointment.created' },
      { key: 'appointment_cancelled', noun: 'Appointment', label: 'Appointment Cancelled', description: 'Triggers when an appointment is cancelled.', eventType: 'appointment.updated', filter: { where: { status: 'CANCELLED' }, changed: ['status'] } },
    ],
    creates: [{ key: 'book_appointment', noun: 'Appointment', label: 'Book Appointment', description: 'Books an appointment for a lead, at a time given or in a slot held before.', tool: 'create_appointment' }],
  },
});
