import * as v from 'valibot';
import { createAppointment, updateAppointment } from './rules';
import { CreateAppointmentBody, type Appointment } from './schema';
import type { Lead } from '../leads/schema';
import type { Member } from '../organization/member-schema';
import type { DemoSeed } from '#shared/resource';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** Visits in the coming days, by lead and attendee index into the seeded leads and members (newest first). */
const DEMO_APPOINTMENTS = [
  { lead: 0, attendee: 2, title: 'Blocked drain inspection', inHours: 20, hours: 1, location: '14 Church St, Parramatta NSW 2150', notes: 'Side gate is unlocked; dog is friendly.' },
  { lead: 2, attendee: 2, title: 'Hot water system quote', inHours: 22, hours: 1, location: '3/41 Campbell Pde, Bondi Beach NSW 2026', notes: null },
  { lead: 4, attendee: 1, title: 'Strata switchboard walkthrough', inHours: 44, hours: 2, location: '22 Ben Boyd Rd, Neutral Bay NSW 2089', notes: 'Keys in the level 1 lockbox.' },
];

/**
 * Visits of the last weeks, each booked a few days before it and ended since, most booked on the lead's call (the
 * reports' bookings from calls): by lead and attendee index as above.
 */
const DEMO_PAST_APPOINTMENTS = [
  { lead: 8, attendee: 1, title: 'Cafe switchboard upgrade quote', bookedDaysAgo: 56, daysAgo: 52, hours: 1, source: 'CALL', ending: 'COMPLETED' },
  { lead: 7, attendee: 3, title: 'Burst pipe repair', bookedDaysAgo: 27.9, daysAgo: 27, hours: 2, source: 'CALL', ending: 'CANCELLED' },
  { lead: 6, attendee: 2, title: 'Hot water system replacement', bookedDaysAgo: 19, daysAgo: 15, hours: 3, source: 'WEB', ending: 'COMPLETED' },
  { lead: 5, attendee: 1, title: 'Strata roof leak inspection', bookedDaysAgo: 10, daysAgo: 8, hours: 1, source: 'CALL', ending: 'NO_SHOW' },
] as const;

/** The past visits, booked on their days and ended as they went. */
async function seedPastAppointments(organizationId: string, leads: Lead[], members: Member[], at: number): Promise<Appointment[]> {
  const appointments: Appointment[] = [];
  for (const demo of DEMO_PAST_APPOINTMENTS) {
    const startsAt = Math.floor((at - demo.daysAgo * DAY) / HOUR) * HOUR;
    const body = v.parse(CreateAppointmentBody, {
      leadId: leads[demo.lead % leads.length]!.id,
      title: demo.title,
      startsAt: new Date(startsAt).toISOString(),
      endsAt: new Date(startsAt + demo.hours * HOUR).toISOString(),
      attendees: [{ userId: members[demo.attendee % members.length]!.user.id }],
      source: demo.source,
    });
    const booked = await createAppointment(organizationId, body, new Date(at - demo.bookedDaysAgo * DAY));
    appointments.push(await updateAppointment(organizationId, booked.id, { status: demo.ending }));
  }
  return appointments;
}

/** A few booked visits for the demo leads, with the demo members attending. */
export async function seedAppointments(organizationId: string, leads: Lead[], members: Member[], at = Date.now()): Promise<Appointment[]> {
  const start = Math.ceil(at / HOUR) * HOUR;
  const appointments: Appointment[] = [];
  for (const demo of DEMO_APPOINTMENTS) {
    const lead = leads[demo.lead % leads.length]!;
    const member = members[demo.attendee % members.length]!;
    const body = v.parse(CreateAppointmentBody, {
      leadId: lead.id,
      title: demo.title,
      startsAt: new Date(start + demo.inHours * HOUR).toISOString(),
      endsAt: new Date(start + (demo.inHours + demo.hours) * HOUR).toISOString(),
      location: demo.location,
      notes: demo.notes,
      attendees: [{ userId: member.user.id }],
    });
    appointments.push(await createAppointment(organizationId, body));
  }
  return appointments;
}

/** This resource's part of the demo organization (infra/demo reads it by the list of resources). */
export const demoSeed: DemoSeed = {
  after: ['leads', 'organization', 'companies'],
  run: async (organizationId, demo) => {
    const appointments = await seedAppointments(organizationId, demo.leads as Lead[], demo.members as Member[]);
    // The visits to come first: examples change and cancel the first, which an ended one refuses.
    const past = await seedPastAppointments(organizationId, demo.leads as Lead[], demo.members as Member[], Date.now());
    return { appointmentIds: [...appointments, ...past].map((appointment) => appointment.id) };
  },
};
