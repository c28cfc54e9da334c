import * as v from 'valibot';
import { bookedBy, isTaken, type Booking, type VersionedAppointment } from './entity';
import { defined } from '#shared/store/changes';
import { ApiError, ConflictError, NotFoundError, ValidationError } from '#shared/errors';
import { newId, now, requestTime } from '#shared/ids';
import { getAppointment, LeadNotFound, readSchedules, writeAppointment, type AppointmentWrite, type Schedule } from './store';
import { ACTIVITY_SEQUENCE } from '../leads/store';
import { bookHoldWrite, getHold, holdNotFound } from './hold-store';
import { holdBookingOf, type HoldRecord } from './hold-entity';
import { getOrganizationTimezone } from '../organization/store';
import { takeId } from '#shared/store/sequences';
import { retryOnStaleWrite } from '#shared/store/versioned';
import { Appointment, endsAtIssue, MAX_APPOINTMENT_MS, type AppointmentChanges, type CreateAppointmentBody } from './schema';
import type { LeadActivity } from '../leads/schema';

/** Two intervals overlap unless one ends at or before the other starts: back-to-back bookings are fine. */
export const overlaps = (a: { startsAt: string; endsAt: string }, b: { startsAt: string; endsAt: string }) => a.startsAt < b.endsAt && b.startsAt < a.endsAt;

/** The bookings of these members that can still be running at `startsAt`: none starts more than the longest appointment before it. */
export const bookingsWindowStart = (startsAt: string) => new Date(Date.parse(startsAt) - MAX_APPOINTMENT_MS).toISOString();

/** The booking of a schedule that takes the time of `slot` (not one of `own`'s), if any: holds count until they expire. */
export function clashOf(bookings: readonly Booking[], slot: { startsAt: string; endsAt: string }, own: ReadonlySet<string> = new Set(), at = new Date().toISOString()): Booking | undefined {
  return bookings.find((booking) => !own.has(bookedBy(booking)) && isTaken(booking, at) && overlaps(booking, slot));
}

const describeBooking = (booking: Booking) => (booking.appointmentId ? `appointment ${booking.appointmentId}` : `held until ${booking.expiresAt}`);

/**
 * The attendees' schedules around the appointment, failing with 409 when one is already booked at that time. `own`
 * are the bookings this write replaces (the appointment's own, the hold it books).
 */
async function checkedSchedules(organizationId: string, appointment: Appointment, own: ReadonlySet<string> = new Set([appointment.id])): Promise<Schedule[]> {
  const userIds = appointment.attendees.map((attendee) => attendee.userId);
  const schedules = await readSchedules(organizationId, userIds, bookingsWindowStart(appointment.startsAt), appointment.endsAt);
  for (const schedule of schedules) {
    const clash = clashOf(schedule.bookings, appointment, own);
    if (clash) throw new ConflictError(`Attendee ${schedule.userId} is already booked from ${clash.startsAt} to ${clash.endsAt} (${describeBooking(clash)})`);
  }
  return schedules;
}

const bookingOf = (appointment: Appointment): Booking => ({ appointmentId: appointment.id, startsAt: appointment.startsAt, endsAt: appointment.endsAt });
const bookingsOf = (appointment: Appointment) => appointment.attendees.map(({ userId }) => ({ userId, booking: bookingOf(appointment) }));

async function activity(organizationId: string, appointment: Appointment, event: string, data: string, at: string): Promise<LeadActivity> {
  return { id: await takeId(organizationId, ACTIVITY_SEQUENCE), event, data, referenceId: appointment.id, userId: null, leadId: appointment.leadId, createdAt: at, updatedAt: at };
}

const describeTime = (appointment: Appointment) => `${appointment.startsAt} to ${appointment.endsAt} (${appointment.timezone})`;

/** Runs `attempt` again while a schedule or the appointment changed between its read and its write. */
export const retryingStale = <T>(attempt: () => Promise<T>): Promise<T> =>
  retryOnStaleWrite(attempt, () => new ConflictError('The schedule was changed by another request at the same time; try again'));

/**
 * Books the appointment: no attendee may be booked at an overlapping time (409), the lead gets an
 * APPOINTMENT_BOOKED activity, all in one transaction that fails if an attendee's schedule changed meanwhile.
 * With `holdId`, the held slot is booked with its member, and the hold ends in the same transaction.
 */
export async function createAppointment(organizationId: string, body: CreateAppointmentBody, at = requestTime()): Promise<Appointment> {
  if (body.holdId !== undefined) return bookHold(organizationId, { ...body, holdId: body.holdId }, at);
  const timezone = body.timezone ?? (await getOrganizationTimezone(organizationId));
  return book(organizationId, { ...body, attendees: body.attendees ?? [], timezone }, at);
}

/**
 * Books a held slot: its times and member come from the hold, the title from its service unless one is sent. A hold
 * booked already or expired answers 409 HOLD_EXPIRED.
 */
async function bookHold(organizationId: string, body: CreateAppointmentBody & { holdId: string }, at: Date): Promise<Appointment> {
  const [hold, timezone] = await Promise.all([getHold(organizationId, body.holdId), body.timezone ? Promise.resolve(body.timezone) : getOrganizationTimezone(organizationId)]);
  if (!hold) throw holdNotFound();
  refuseEndedHold(hold, at);
  if (hold.leadId !== null && hold.leadId !== body.leadId) throw new ValidationError([{ path: 'leadId', message: `leadId must be the lead the hold was made for, ${hold.leadId}` }]);
  const fields = { ...body, title: body.title ?? hold.serviceName, startsAt: hold.startsAt, endsAt: hold.endsAt, attendees: [{ userId: hold.userId }], timezone };
  return book(organizationId, fields, at, hold).catch((error: unknown) => {
    // The attendee is the hold's member, not the caller's to name: one removed since is the slot's loss, as for a hold.
    if (error instanceof ValidationError && error.details?.some((detail) => detail.path === 'attendees')) throw new ApiError(409, 'The held member was removed meanwhile; ask for availability again', 'SLOT_TAKEN');
    throw error;
  });
}

/** A hold booked already or expired: 409 HOLD_EXPIRED for either, whichever request booked it. */
function refuseEndedHold(hold: HoldRecord, at: Date): void {
  if (hold.appointmentId) throw new ApiError(409, `The hold was booked already, as appointment ${hold.appointmentId}`, 'HOLD_EXPIRED');
  if (hold.expiresAt <= at.toISOString()) throw new ApiError(409, `The hold expired at ${hold.expiresAt}; hold a slot again`, 'HOLD_EXPIRED');
}

/**
 * Writes a new appointment of these fields with its APPOINTMENT_BOOKED activity, in one transaction that fails if an
 * attendee's schedule changed meanwhile. A held slot's hold is no clash for it: the transaction releases the hold's
 * time and marks the hold booked, on condition it is still unbooked and unexpired.
 */
async function book(organizationId: string, fields: Record<string, unknown>, at: Date, hold?: HoldRecord): Promise<Appointment> {
  const createdAt = at.toISOString();
  const appointment = v.parse(Appointment, { ...fields, id: newId('appointment', at), status: 'BOOKED', createdAt, updatedAt: createdAt });
  const booked = await activity(organizationId, appointment, 'APPOINTMENT_BOOKED', `Appointment "${appointment.title}" booked for ${describeTime(appointment)}`, createdAt);
  await retryingStale(async () => {
    const claimed = await checkedSchedules(organizationId, appointment, new Set([appointment.id, ...(hold ? [hold.id] : [])])).catch(async (error: unknown) => {
      // The slot taken by another request that booked this same hold meanwhile: HOLD_EXPIRED, as when it came first.
      if (hold) refuseEndedHold((await getHold(organizationId, hold.id)) ?? hold, at);
      throw error;
    });
    await writeAppointment(organizationId, {
      next: { value: appointment, version: 1 },
      claimed,
      released: hold ? [{ userId: hold.userId, booking: holdBookingOf(hold) }] : [],
      booked: bookingsOf(appointment),
      activities: [booked],
      also: hold ? [bookHoldWrite(organizationId, hold, appointment.id, now())] : [],
    });
  });
  return appointment;
}

/** The activity each ending records on the lead, and how it reads. */
const ENDED_AS = {
  CANCELLED: ['APPOINTMENT_CANCELLED', 'cancelled'],
  COMPLETED: ['APPOINTMENT_COMPLETED', 'completed'],
  NO_SHOW: ['APPOINTMENT_NO_SHOW', 'marked as a no-show'],
} as const;

/** Only a BOOKED appointment changes: an ended one (cancelled, completed, no-show) stays as it ended (409). */
function refuseEnded(appointment: Appointment): void {
  if (appointment.status === 'BOOKED') return;
  throw new ConflictError(`The appointment is ${appointment.status === 'NO_SHOW' ? 'marked as a no-show' : appointment.status.toLowerCase()} and can no longer be changed`);
}

/**
 * Changes a booked appointment. A new time or new attendees are checked against the attendees'
 * schedules and move the bookings; a new time records APPOINTMENT_RESCHEDULED, an ending its activity
 * (APPOINTMENT_CANCELLED, _COMPLETED, _NO_SHOW), and a cancellation frees the time. An ended appointment does not
 * change again (409); one whose lead was deleted can only be cancelled (otherwise 404 Lead not found).
 */
export async function updateAppointment(organizationId: string, appointmentId: string, changes: AppointmentChanges): Promise<Appointment> {
  return retryingStale(async () => {
    const current = await getAppointment(organizationId, appointmentId);
    if (!current) throw new NotFoundError('Appointment not found');
    refuseEnded(current.value);
    const next: VersionedAppointment = { value: v.parse(Appointment, { ...current.value, ...defined(changes), updatedAt: now() }), version: current.version + 1 };
    const timesIssue = endsAtIssue(next.value);
    if (timesIssue) throw new ValidationError([{ path: 'endsAt', message: timesIssue }]);
    const rescheduled = next.value.startsAt !== current.value.startsAt || next.value.endsAt !== current.value.endsAt;
    const cancelled = next.value.status === 'CANCELLED';
    const ended = next.value.status === 'BOOKED' ? undefined : ENDED_AS[next.value.status];
    const rebooked = !cancelled && (rescheduled || changes.attendees !== undefined);
    const activities = [
      ...(rescheduled ? [await activity(organizationId, next.value, 'APPOINTMENT_RESCHEDULED', `Appointment "${next.value.title}" moved to ${describeTime(next.value)}`, next.value.updatedAt)] : []),
      ...(ended ? [await activity(organizationId, next.value, ended[0], `Appointment "${next.value.title}" ${ended[1]}`, next.value.updatedAt)] : []),
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
