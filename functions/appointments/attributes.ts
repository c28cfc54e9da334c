import * as v from 'valibot';
import { ValidationError } from '#shared/errors';
import { Instant, NonEmptyString, PrefixedId, Timestamp } from '#shared/schema';
import { defineEntity, RECORD_TIMES } from '#shared/store/entity';
import { organizationPartition as org } from '#shared/store/keys';
import { TimeZone } from '../organization/schema';

/** What an attendee who is no member of the organization is answered (functions/appointments/store.ts). */
export const unknownAttendee = (userId: unknown) => new ValidationError([{ path: 'attendees', message: `attendee ${String(userId)} is not a member of the organization` }]);

export const APPOINTMENT_STATUSES = ['BOOKED', 'CANCELLED', 'COMPLETED', 'NO_SHOW'] as const;

/** What a change may move a BOOKED appointment to; each of them is final. */
export const APPOINTMENT_ENDINGS = ['CANCELLED', 'COMPLETED', 'NO_SHOW'] as const;

const AppointmentEnding = v.pipe(
  v.picklist(APPOINTMENT_ENDINGS, `status may only be set to ${APPOINTMENT_ENDINGS.join(', ')}`),
  v.description(
    'How a BOOKED appointment ended: `CANCELLED` (frees the attendees’ time), `COMPLETED` (the job was done) or `NO_SHOW` (the lead was not there). Each is final: an appointment that has one can no longer be changed (409), so a completed one cannot be cancelled.',
  ),
);

export const Attendee = v.object({ userId: v.string() });

/** Where a booking was made; the reports count those made on a call as booked from calls. */
export const APPOINTMENT_SOURCES = ['CALL', 'WEB', 'MANUAL', 'OTHER'] as const;

const AppointmentSource = v.pipe(
  v.picklist(APPOINTMENT_SOURCES, `source must be one of ${APPOINTMENT_SOURCES.join(', ')}`),
  v.description(
    'Where it was booked: `CALL` on a phone call (the receptionist’s book_appointment sends it), `WEB`, `MANUAL` or `OTHER`. Create only; answered when given. The reports count CALL as booked from calls.',
  ),
);

const Attendees = v.pipe(
  v.array(v.strictObject({ userId: PrefixedId('user', 'userId', { unknown: unknownAttendee }) }, 'each attendee must be {userId}'), 'attendees must be an array of {userId}'),
  v.maxLength(20, 'attendees may have at most 20 entries'),
  v.check((attendees) => new Set(attendees.map((attendee) => attendee.userId)).size === attendees.length, 'attendees must not repeat a userId'),
  v.description('Members of the organization, each named once.'),
);

/**
 * An appointment's fields, in the order the bodies take them. A create needs title and times unless it books a hold
 * (schema.ts); a change may end it (cancelled, completed, no-show) but not book it again.
 */
const attributes = {
  id: { type: v.string() },
  leadId: { type: v.string(), rule: PrefixedId('lead', 'leadId'), required: true, createOnly: true },
  title: { type: v.string(), rule: NonEmptyString('title', 200) },
  /** UTC, whatever offset it was sent with. */
  startsAt: { type: Timestamp, rule: Instant('startsAt', 'When it starts, with an offset; answered in UTC.') },
  endsAt: { type: Timestamp, rule: Instant('endsAt', 'When it ends: after startsAt, and at most 7 days after it.') },
  /** The IANA zone the appointment is shown in. */
  timezone: { type: v.string(), rule: TimeZone },
  location: { type: v.nullable(v.string()), rule: NonEmptyString('location', 500), nullable: true, defaultInBody: true },
  attendees: { type: v.array(Attendee), rule: Attendees },
  notes: { type: v.nullable(v.string()), rule: NonEmptyString('notes', 5000), nullable: true, defaultInBody: true },
  /** Absent unless the create named it: answered only then, so bookings made before it existed read as they did. */
  source: { type: v.optional(v.picklist(APPOINTMENT_SOURCES)), rule: AppointmentSource, createOnly: true },
  status: { type: v.picklist(APPOINTMENT_STATUSES), rule: AppointmentEnding, default: 'BOOKED', changeOnly: true },
  ...RECORD_TIMES,
} as const;

/**
 * An appointment: its attributes, its item (`APPOINTMENT#<id>`) and its lists by start time, all (gsi1) and one
 * lead's (gsi2), sort key startsAt#id.
 */
export const appointmentEntity = defineEntity({
  entity: 'APPOINTMENT',
  attributes,
  key: (o, appointmentId) => ({ pk: org(o), sk: `APPOINTMENT#${appointmentId}` }),
  indexes: {
    gsi1: { fields: ['startsAt'], keys: (o, appointment) => ({ pk: `${org(o)}#APPOINTMENTS`, sk: `${appointment.startsAt}#${appointment.id}` }) },
    gsi2: { fields: ['leadId', 'startsAt'], keys: (o, appointment) => ({ pk: `${org(o)}#APPOINTMENTS#LEAD#${appointment.leadId}`, sk: `${appointment.startsAt}#${appointment.id}` }) },
  },
  changes: 'APPOINTMENTS',
});
