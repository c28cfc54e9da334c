import * as v from 'valibot';
import type { Booking, VersionedAppointment } from './entity';
import { defined } from '../../shared/store/changes';
import { ConflictError, NotFoundError, ValidationError } from '../../shared/errors';
import { newId, now } from '../../shared/ids';
import { getAppointment, LeadNotFound, readSchedules, writeAppointment, type AppointmentWrite, type Schedule } from './store';
import { ACTIVITY_SEQUENCE } from '../leads/store';
import { getOrganizationTimezone } from '../organization/store';
import { reserveIds } from '../../shared/store/sequences';
import { retryOnStaleWrite } from '../../shared/store/versioned';
import { Appointment, endsAtIssue, MAX_APPOINTMENT_MS, type AppointmentChanges, type CreateAppointmentBody } from './schema';
import type { LeadActivity } from '../leads/schema';

/** Two intervals overlap unless one ends at or before the other starts: back-to-back bookings are fine. */
const overlaps = (a: { startsAt: string; endsAt: string }, b: { startsAt: string; endsAt: string }) => a.startsAt < b.endsAt && b.startsAt < a.endsAt;

/** The attendees' schedules around the appointment, failing with 409 when one is already booked at that time. */
async function checkedSchedules(organizationId: string, appointment: Appointment): Promise<Schedule[]> {
  const userIds = appointment.attendees.map((attendee) => attendee.userId);
  // Only a booking starting less than the longest appointment before this one can still be running.
  const from = new Date(new Date(appointment.startsAt).getTime() - MAX_APPOINTMENT_MS).toISOString();
  const schedules = await readSchedules(organizationId, userIds, from, appointment.endsAt);
  for (const schedule of schedules) {
    const clash = schedule.bookings.find((booking) => booking.appointmentId !== appointment.id && overlaps(booking, appointment));
    if (clash) {
      throw new ConflictError(`Attendee ${schedule.userId} is already booked from ${clash.startsAt} to ${clash.endsAt} (appointment ${clash.appointmentId})`);
    }
  }
  return schedules;
}

const bookingOf = (appointment: Appointment): Booking => ({ appointmentId: appointment.id, startsAt: appointment.startsAt, endsAt: appointment.endsAt });
const bookingsOf = (appointment: Appointment) => appointment.attendees.map(({ userId }) => ({ userId, booking: bookingOf(appointment) }));

async function activity(organizationId: string, appointment: Appointment, event: string, data: string, at: string): Promise<LeadActivity> {
  return { id: await reserveIds(organizationId, ACTIVITY_SEQUENCE), event, data, referenceId: appointment.id, userId: null, leadId: appointment.leadId, createdAt: at, updatedAt: at };
}

const describeTime = (appointment: Appointment) => `${appointment.startsAt} to ${appointment.endsAt} (${appointment.timezone})`;

/** Runs `attempt` again while a schedule or the appointment changed between its read and its write. */
const retryingStale = <T>(attempt: () => Promise<T>): Promise<T> =>
  retryOnStaleWrite(attempt, () => new ConflictError('The schedule was changed by another request at the same time; try again'));

/**
 * Books the appointment: no attendee may be booked at an overlapping time (409), the lead gets an
 * APPOINTMENT_BOOKED activity, all in one transaction that fails if an attendee's schedule changed meanwhile.
 */
export async function createAppointment(organizationId: string, body: CreateAppointmentBody, at = new Date()): Promise<Appointment> {
  const timezone = body.timezone ?? (await getOrganizationTimezone(organizationId));
  const createdAt = at.toISOString();
  const appointment = v.parse(Appointment, { ...body, timezone, id: newId('appointment', at), status: 'BOOKED', createdAt, updatedAt: createdAt });
  const booked = await activity(organizationId, appointment, 'APPOINTMENT_BOOKED', `Appointment "${appointment.title}" booked for ${describeTime(appointment)}`, createdAt);
  await retryingStale(async () => {
    const claimed = await checkedSchedules(organizationId, appointment);
    await writeAppointment(organizationId, { next: { value: appointment, version: 1 }, claimed, released: [], booked: bookingsOf(appointment), activities: [booked] });
  });
  return appointment;
}

/**
 * Changes a booked appointment. A new time or new attendees are checked against the attendees'
 * schedules and move the bookings; a new time records APPOINTMENT_RESCHEDULED, a cancellation
 * APPOINTMENT_CANCELLED and frees the time. A cancelled appointment does not change again (409);
 * one whose lead was deleted can only be cancelled (otherwise 404 Lead not found).
 */
export async function updateAppointment(organizationId: string, appointmentId: string, changes: AppointmentChanges): Promise<Appointment> {
  return retryingStale(async () => {
    const current = await getAppointment(organizationId, appointmentId);
    if (!current) throw new NotFoundError('Appointment not found');
    if (current.value.status === 'CANCELLED') throw new ConflictError('The appointment is cancelled and can no longer be changed');
    const next: VersionedAppointment = { value: v.parse(Appointment, { ...current.value, ...defined(changes), updatedAt: now() }), version: current.version + 1 };
    const timesIssue = endsAtIssue(next.value);
    if (timesIssue) throw new ValidationError([{ path: 'endsAt', message: timesIssue }]);
    const rescheduled = next.value.startsAt !== current.value.startsAt || next.value.endsAt !== current.value.endsAt;
    const cancelled = next.value.status === 'CANCELLED';
    const rebooked = !cancelled && (rescheduled || changes.attendees !== undefined);
    const activities = [
      ...(rescheduled ? [await activity(organizationId, next.value, 'APPOINTMENT_RESCHEDULED', `Appointment "${next.value.title}" moved to ${describeTime(next.value)}`, next.value.updatedAt)] : []),
      ...(cancelled ? [await activity(organizationId, next.value, 'APPOINTMENT_CANCELLED', `Appointment "${next.value.title}" cancelled`, next.value.updatedAt)] : []),
    ];
    const claimed = rebooked ? await checkedSchedules(organizationId, next.value) : [];
    const write: AppointmentWrite = {
      next,
      current,
      claimed,
      released: cancelled || rebooked ? bookingsOf(current.value) : [],
      booked: rebooked ? bookingsOf(next.value) : [],
      activities,
    };
    try {
      await writeAppointment(organizationId, write);
    } catch (error) {
      // A deleted lead's appointment can still be cancelled, so its attendees' time is freed; the
      // cancellation has no lead to be recorded on. Any other change answers 404 Lead not found.
      if (!(error instanceof LeadNotFound && cancelled)) throw error;
      await writeAppointment(organizationId, { ...write, activities: [], leadDeleted: true });
    }
    return next.value;
  });
}

export async function readAppointment(organizationId: string, appointmentId: string): Promise<Appointment> {
  const appointment = await getAppointment(organizationId, appointmentId);
  if (!appointment) throw new NotFoundError('Appointment not found');
  return appointment.value;
}
