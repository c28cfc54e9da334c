import * as v from 'valibot';
import type { Appointment } from './schema';
import { appointmentEntity } from './attributes';
import { organizationPartition, type Key, keySamplesOf } from '#shared/store/keys';
import type { Versioned } from '#shared/store/versioned-record';
import type { AuditedRecord } from '#shared/resource';
import { holdRemovedAt } from './hold-entity';

export type VersionedAppointment = Versioned<Appointment>;

const org = organizationPartition;

export const appointmentKeys = {
  appointment: appointmentEntity.key,
  /** The appointment lists by start time (`appointmentEntity.indexes`), whose keys read only its id, lead and start. */
  appointmentIndexes: (o: string, appointment: { id: string; leadId: string; startsAt: string }) =>
    appointmentEntity.indexKeys(o, appointment as Appointment) as { gsi1pk: string; gsi1sk: string; gsi2pk: string; gsi2sk: string },
  /**
   * A member's schedule: one BOOKING item per booked appointment or hold, sorted by start, and a HEAD item whose
   * version every booking of the member moves, so two overlapping bookings cannot both pass the check.
   */
  booking: (o: string, userId: string, startsAt: string, bookedBy: string): Key => ({ pk: `${org(o)}#SCHEDULE#${userId}`, sk: `BOOKING#${startsAt}#${bookedBy}` }),
  bookingsStartingBetween: (o: string, userId: string, from: string, to: string) => ({ pk: `${org(o)}#SCHEDULE#${userId}`, skBetween: [`BOOKING#${from}`, `BOOKING#${to}`] as [string, string] }),
  scheduleHead: (o: string, userId: string): Key => ({ pk: `${org(o)}#SCHEDULE#${userId}`, sk: 'HEAD' }),
} as const;

/** The names of the appointments' counter items (`COUNT#<name>`). */
export const appointmentCounterNames = {
  /** Every appointment, and those of one lead. */
  appointments: ({ leadId }: { leadId?: string } = {}) => (leadId ? `APPOINTMENTS#LEAD#${leadId}` : 'APPOINTMENTS'),
} as const;

/** The appointments' change log (updatedSince). */
export const APPOINTMENT_CHANGES = appointmentEntity.changes;

const STARTS_AT = '2026-12-01T00:00:00.000Z';

export const appointmentKeySamples = keySamplesOf(appointmentKeys, {
  appointment: ['appointment_1'],
  appointmentIndexes: [{ id: 'appointment_1', leadId: 'lead_1', startsAt: STARTS_AT }],
  booking: ['user_1', STARTS_AT, 'appointment_1'],
  bookingsStartingBetween: ['user_1', 'a', 'b'],
  scheduleHead: ['user_1'],
});

export function toAppointmentItem(organizationId: string, { value: appointment, version }: VersionedAppointment) {
  return { ...appointmentEntity.toItem(organizationId, appointment), organizationId, version };
}

export const fromAppointmentItem = (item: Record<string, unknown>): VersionedAppointment => ({ value: appointmentEntity.fromItem(item), version: Number(item.version) });

/**
 * A member's time taken: by a booked appointment, or by a hold on a slot (`holdId`), which frees it at `expiresAt`
 * unless an appointment books it first.
 */
export const Booking = v.object({ appointmentId: v.optional(v.string()), holdId: v.optional(v.string()), startsAt: v.string(), endsAt: v.string(), expiresAt: v.optional(v.string()) });
export type Booking = v.InferOutput<typeof Booking>;

/** The appointment or the hold that takes the time. */
export const bookedBy = (booking: Booking): string => (booking.appointmentId ?? booking.holdId)!;

/** Whether the booking still takes its time at `at` (ISO): an appointment's always, a hold's until it expires. */
export const isTaken = (booking: Booking, at: string): boolean => booking.expiresAt === undefined || booking.expiresAt > at;

/**
 * A hold's time goes from the schedule by itself once the hold has expired (a day after, with its record): an
 * expired hold frees its time already, but its item would stay in every later read of that stretch of the schedule.
 */
export function toBookingItem(organizationId: string, userId: string, booking: Booking) {
  return { ...appointmentKeys.booking(organizationId, userId, booking.startsAt, bookedBy(booking)), entity: 'BOOKING', userId, ...booking, ...(booking.expiresAt ? holdRemovedAt(booking.expiresAt) : {}) };
}

export const fromBookingItem = (item: Record<string, unknown>): Booking => v.parse(Booking, item);

/** An appointment, as the audit log names it (GET /v1/audit-log). */
export const appointmentAudit: AuditedRecord = { entity: 'APPOINTMENT', resourceType: 'appointment' };
