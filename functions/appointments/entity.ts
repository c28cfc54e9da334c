import * as v from 'valibot';
import { Appointment } from './schema';
import { keys } from '../../shared/store/keys';
import type { Versioned } from '../../shared/store/versioned-record';

export type VersionedAppointment = Versioned<Appointment>;

export function toAppointmentItem(organizationId: string, { value: appointment, version }: VersionedAppointment) {
  return { ...keys.appointment(organizationId, appointment.id), ...keys.appointmentIndexes(organizationId, appointment), entity: 'APPOINTMENT', organizationId, version, ...appointment };
}

export const fromAppointmentItem = (item: Record<string, unknown>): VersionedAppointment => ({ value: v.parse(Appointment, item), version: Number(item.version) });

/** One attendee's hold on the appointment's time. */
export const Booking = v.object({ appointmentId: v.string(), startsAt: v.string(), endsAt: v.string() });
export type Booking = v.InferOutput<typeof Booking>;

export function toBookingItem(organizationId: string, userId: string, booking: Booking) {
  return { ...keys.booking(organizationId, userId, booking.startsAt, booking.appointmentId), entity: 'BOOKING', userId, ...booking };
}

export const fromBookingItem = (item: Record<string, unknown>): Booking => v.parse(Booking, item);
