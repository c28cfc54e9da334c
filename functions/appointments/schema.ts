import * as v from 'valibot';
import { ValidationError } from '../../shared/errors';
import { NonEmptyString, PageQuery, PrefixedId, Timestamp, pageSchema } from '../../shared/schema';
import { TimeZone } from '../organization/schema';

/** What an attendee who is no member of the organization is answered (functions/appointments/store.ts). */
export const unknownAttendee = (userId: unknown) => new ValidationError([{ path: 'attendees', message: `attendee ${String(userId)} is not a member of the organization` }]);

export const APPOINTMENT_STATUSES = ['BOOKED', 'CANCELLED'] as const;

/** The longest appointment: a job of a few days. Bounds how far back an overlapping booking can start. */
export const MAX_APPOINTMENT_MS = 7 * 24 * 60 * 60 * 1000;

export const Attendee = v.object({ userId: v.string() });

export const Appointment = v.object({
  id: v.string(),
  leadId: v.string(),
  title: v.string(),
  /** UTC, whatever offset it was sent with. */
  startsAt: Timestamp,
  endsAt: Timestamp,
  /** The IANA zone the appointment is shown in. */
  timezone: v.string(),
  location: v.nullable(v.string()),
  attendees: v.array(Attendee),
  notes: v.nullable(v.string()),
  status: v.picklist(APPOINTMENT_STATUSES),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Appointment = v.InferOutput<typeof Appointment>;

/**
 * An ISO 8601 date-time with an offset (Z or ±hh:mm), stored as the same instant in UTC. The description
 * is stated on both sides of the transform: a body is documented as sent, a query value as parsed.
 */
const Instant = (name: string, description: string) =>
  v.pipe(
    v.string(`${name} must be a string`),
    v.isoTimestamp(`${name} must be an ISO 8601 date-time with an offset, e.g. 2026-12-01T09:00:00+11:00`),
    v.description(description),
    v.transform((at) => new Date(at).toISOString()),
    // Declares the output type, so the document describes the parsed value.
    v.string(),
    v.isoTimestamp(),
    v.description(description),
  );

const appointmentFields = {
  title: NonEmptyString('title', 200),
  startsAt: Instant('startsAt', 'When it starts, with an offset; answered in UTC.'),
  endsAt: Instant('endsAt', 'When it ends: after startsAt, and at most 7 days after it.'),
  timezone: TimeZone,
  location: v.nullable(NonEmptyString('location', 500)),
  attendees: v.pipe(
    v.array(v.strictObject({ userId: PrefixedId('user', 'userId', { unknown: unknownAttendee }) }, 'each attendee must be {userId}'), 'attendees must be an array of {userId}'),
    v.maxLength(20, 'attendees may have at most 20 entries'),
    v.check((attendees) => new Set(attendees.map((attendee) => attendee.userId)).size === attendees.length, 'attendees must not repeat a userId'),
    v.description('Members of the organization, each named once.'),
  ),
  notes: v.nullable(NonEmptyString('notes', 5000)),
};

/**
 * What is wrong with an appointment's times, if anything: it ends after it starts and lasts at most
 * MAX_APPOINTMENT_MS (the overlap check looks back no further). Either time absent: nothing to compare.
 */
export function endsAtIssue({ startsAt, endsAt }: { startsAt?: string; endsAt?: string }): string | undefined {
  if (startsAt === undefined || endsAt === undefined) return undefined;
  if (endsAt <= startsAt) return 'endsAt must be after startsAt';
  if (Date.parse(endsAt) - Date.parse(startsAt) > MAX_APPOINTMENT_MS) return 'endsAt must be at most 7 days after startsAt';
  return undefined;
}

/** The message of a failed endsAt check: the issue's input is the body checked. */
const endsAtMessage = (issue: { input: { startsAt?: string; endsAt?: string } }) => endsAtIssue(issue.input) ?? 'endsAt is invalid';

/** The field map with what a create may leave out and its default (the same pattern for every resource, by design). */
export const CreateAppointmentBody = v.pipe(
  v.strictObject({
    leadId: PrefixedId('lead', 'leadId'),
    ...appointmentFields,
    timezone: v.optional(appointmentFields.timezone),
    location: v.optional(appointmentFields.location, null),
    attendees: v.optional(appointmentFields.attendees, []),
    notes: v.optional(appointmentFields.notes, null),
  }),
  v.forward(v.check((body) => endsAtIssue(body) === undefined, endsAtMessage), ['endsAt']),
);
export type CreateAppointmentBody = v.InferOutput<typeof CreateAppointmentBody>;

/** Any subset of the fields; `status` may only become CANCELLED. Times are checked again on the merged appointment. */
export const UpdateAppointmentBody = v.pipe(
  v.strictObject({
    title: v.optional(appointmentFields.title),
    startsAt: v.optional(appointmentFields.startsAt),
    endsAt: v.optional(appointmentFields.endsAt),
    timezone: v.optional(appointmentFields.timezone),
    location: v.optional(appointmentFields.location),
    attendees: v.optional(appointmentFields.attendees),
    notes: v.optional(appointmentFields.notes),
    status: v.optional(v.picklist(['CANCELLED'] as const, 'status may only be set to CANCELLED')),
  }),
  v.check((body) => Object.keys(body).length > 0, 'body must contain at least one field to change'),
  v.metadata({ jsonSchema: { minProperties: 1 } }),
  v.forward(v.check((body) => endsAtIssue(body) === undefined, endsAtMessage), ['endsAt']),
);
export type AppointmentChanges = v.InferOutput<typeof UpdateAppointmentBody>;

export const ListAppointmentsQuery = v.pipe(
  v.object({
    ...PageQuery.entries,
    leadId: v.optional(PrefixedId('lead', 'leadId')),
    from: v.optional(Instant('from', 'Only appointments starting at or after this instant.')),
    to: v.optional(Instant('to', 'Only appointments starting before this instant; after `from` when both are given.')),
  }),
  v.forward(
    v.check((query) => query.from === undefined || query.to === undefined || query.to > query.from, 'to must be after from'),
    ['to'],
  ),
);
export type ListAppointmentsQuery = v.InferOutput<typeof ListAppointmentsQuery>;

export const AppointmentIdPath = v.object({ appointmentId: PrefixedId('appointment', 'appointmentId') });
export const AppointmentResponse = v.object({ appointment: Appointment });
export const AppointmentPage = pageSchema('appointments', Appointment);
