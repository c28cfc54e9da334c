import * as v from 'valibot';
import { Instant, PageQuery, PrefixedId, pageSchema, partialUpdateBody } from '#shared/schema';
import { appointmentEntity } from './attributes';

export { APPOINTMENT_ENDINGS, APPOINTMENT_STATUSES, Attendee, unknownAttendee } from './attributes';

/** The longest appointment: a job of a few days. Bounds how far back an overlapping booking can start. */
export const MAX_APPOINTMENT_MS = 7 * 24 * 60 * 60 * 1000;

export const Appointment = appointmentEntity.Record;
export type Appointment = v.InferOutput<typeof Appointment>;

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

// The create takes the hold right after the lead it is booked for.
const { leadId, ...ownFields } = appointmentEntity.create;

/**
 * Either a booking of a held slot (`holdId`: its times and member come from the hold, its title from the service
 * unless one is sent) or a booking of times of one's own (`title`, `startsAt`, `endsAt`, `attendees`).
 */
const CreateAppointmentFields = v.strictObject({
  leadId,
  holdId: v.optional(v.pipe(PrefixedId('hold', 'holdId'), v.description('A hold from POST /v1/availability/holds: books its slot and member, and ends the hold. With it, send no startsAt, endsAt or attendees (the hold decides them); title defaults to the service’s name.'))),
  ...ownFields,
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

/** Any subset of the fields; `status` may only become CANCELLED, COMPLETED or NO_SHOW. Times are checked again on the merged appointment. */
export const UpdateAppointmentBody = v.pipe(
  partialUpdateBody(appointmentEntity.change),
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
