import * as v from 'valibot';
import { ValidationError } from '../../shared/errors';
import { Instant, NonEmptyString, PageQuery, PrefixedId, Timestamp, pageSchema } from '../../shared/schema';
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

/** The fields a held slot decides: a booking of a hold sends none of them. */
const HELD_FIELDS = ['startsAt', 'endsAt', 'attendees'] as const;

/**
 * Either a booking of a held slot (`holdId`: its times and member come from the hold, its title from the service
 * unless one is sent) or a booking of times of one's own (`title`, `startsAt`, `endsAt`, `attendees`).
 */
const CreateAppointmentFields = v.strictObject({
  leadId: PrefixedId('lead', 'leadId'),
  holdId: v.optional(v.pipe(PrefixedId('hold', 'holdId'), v.description('A hold from POST /v1/availability/holds: books its slot and member, and ends the hold. With it, send no startsAt, endsAt or attendees (the hold decides them); title defaults to the service’s name.'))),
  title: v.optional(appointmentFields.title),
  startsAt: v.optional(appointmentFields.startsAt),
  endsAt: v.optional(appointmentFields.endsAt),
  timezone: v.optional(appointmentFields.timezone),
  location: v.optional(appointmentFields.location, null),
  attendees: v.optional(appointmentFields.attendees),
  notes: v.optional(appointmentFields.notes, null),
});
type CreateAppointmentFields = v.InferOutput<typeof CreateAppointmentFields>;

/** A field the hold decides: left out when booking a hold. */
const heldField = (field: (typeof HELD_FIELDS)[number]) =>
  v.forward(v.check((body: CreateAppointmentFields) => body.holdId === undefined || body[field] === undefined, `${field} comes from the hold: send holdId or ${field}, not both`), [field]);

/** A field a booking of one's own times must send. */
const ownTimesField = (field: 'title' | 'startsAt' | 'endsAt') =>
  v.forward(v.check((body: CreateAppointmentFields) => body.holdId !== undefined || body[field] !== undefined, `${field} is required unless holdId is given`), [field]);

export const CreateAppointmentBody = v.pipe(
  CreateAppointmentFields,
  heldField('startsAt'),
  heldField('endsAt'),
  heldField('attendees'),
  ownTimesField('title'),
  ownTimesField('startsAt'),
  ownTimesField('endsAt'),
  v.forward(v.check((body) => endsAtIssue(body) === undefined, endsAtMessage), ['endsAt']),
  // Which fields go together, as far as JSON Schema says it simply; the description of holdId says the rest.
  v.metadata({ jsonSchema: { oneOf: [{ required: ['holdId'] }, { required: ['title', 'startsAt', 'endsAt'] }] } }),
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
