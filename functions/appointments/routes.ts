import { AvailabilityQuery, AvailabilityResponse, CreateHoldBody, DEFAULT_STEP_MINUTES, HOLD_MINUTES, HoldPage, HoldResponse, ListHoldsQuery, MAX_WINDOW_DAYS } from './availability-schema';
import { defineRoute } from '#shared/routes/route';
import { createRow, listRow } from '#shared/routes/rows';
import * as schema from './schema';
import { recordRows } from '#shared/routes/record-rows';
import { prose } from '#shared/prose';

const appointment = recordRows(schema, { tag: 'Appointments', names: { one: 'Appointment', many: 'Appointments' }, path: '/v1/appointments', changeLog: true });

export const createAppointment = appointment.create({
  summary: 'Book an appointment with a lead',
  description: prose`
    Books a visit or call for a lead, with members of the organization as attendees, and records an
    APPOINTMENT_BOOKED activity on the lead in the same transaction. Times are ISO 8601 with an offset and are
    answered in UTC; an appointment lasts at most 7 days; \`timezone\` (IANA) defaults to the organization’s. An
    attendee already booked at an overlapping time answers 409; back-to-back appointments are fine. A \`holdId\`
    books the held slot: a hold booked already or expired answers 409 HOLD_EXPIRED, and one whose member was removed
    since, 409 SLOT_TAKEN.
  `,
  dynamodb: ['GetItem', 'UpdateItem', 'PutItem', 'ConditionCheckItem', 'Query', 'BatchGetItem'],
  errors: [404, 409],
});

export const listAppointments = appointment.list({
  summary: 'List appointments by start time, earliest first',
  description: prose`
    Every appointment, or one lead’s with \`leadId\`, ordered by \`startsAt\`. \`from\` and \`to\` keep those
    starting in [from, to); \`to\` must be after \`from\`. Cancelled appointments are listed with their status.
    \`totalCount\` is exact: from a counter, or counted over the window when \`from\` or \`to\` is given.
  `,
  indexes: ['gsi1', 'gsi2'],
});

export const getAppointment = appointment.get({ summary: 'Read an appointment', description: 'One appointment of the organization; another organization’s answers 404.' });

export const updateAppointment = appointment.update({
  summary: 'Reschedule, change or cancel an appointment, or record how it went',
  description: prose`
    Fields left out keep their values; the merged times keep the create’s rules (\`endsAt\` after \`startsAt\`, an
    appointment lasts at most 7 days). A new time records APPOINTMENT_RESCHEDULED on the lead; \`status:
    "CANCELLED"\` records APPOINTMENT_CANCELLED and frees the attendees’ time; \`status: "COMPLETED"\` records
    APPOINTMENT_COMPLETED and \`status: "NO_SHOW"\` APPOINTMENT_NO_SHOW, keeping the time booked (it was spent), and
    their events are \`appointment.completed\` and \`appointment.no_show\` rather than \`appointment.updated\`. A
    new time or new attendees are checked for overlaps (409). Only a BOOKED appointment changes: a cancelled,
    completed or no-show one can no longer be changed (409), so a completed one cannot be cancelled. One whose lead
    was deleted can still be cancelled, recording no activity; any other change of it answers 404.
  `,
  dynamodb: ['GetItem', 'UpdateItem', 'PutItem', 'DeleteItem', 'ConditionCheckItem', 'Query', 'BatchGetItem'],
  errors: [409],
});

/** What GET /v1/availability answers. */
const AVAILABILITY_DESCRIPTION = prose`
  Slots of the service’s duration that start in [from, to) (now and 7 days on by default; at most ${MAX_WINDOW_DAYS}
  days; a service longer than 7 days, more than an appointment lasts, answers 400 naming serviceId), every \`step\`
  minutes (${DEFAULT_STEP_MINUTES} by default) from the start of each working period. A slot lies wholly inside the
  business hours, outside its closed dates, and inside each listed member’s own working hours (the business’s when the
  member has none), and overlaps none of that member’s booked appointments or live holds. Each slot gives its times in
  UTC and in the organization’s timezone (\`startsAtLocal\`, \`endsAtLocal\`, with the offset in force then) and
  \`startsAtLabel\` to say aloud. With no business hours and no member’s own working hours there are no slots, and
  \`notice\` says so (\`NO_BUSINESS_HOURS\`); with no member to take the service, \`NO_MEMBERS\`. Disabled members are
  never listed, nor, for a service with \`memberIds\`, members not among them; \`memberId\` keeps one member (one not
  among the service’s \`memberIds\` answers 400). Two DynamoDB round trips: the organization, the service and the
  members; then each working member’s bookings.
`;

export const findAvailability = defineRoute({
  operationId: 'findAvailability',
  method: 'GET',
  path: '/v1/availability',
  summary: 'Free slots for a service: when it can come, and who',
  description: AVAILABILITY_DESCRIPTION,
  tag: 'Availability',
  dynamodb: ['GetItem', 'Query'],
  status: 200,
  request: { query: AvailabilityQuery },
  response: AvailabilityResponse,
  errors: [400, 404],
});

export const createHold = createRow({
  operationId: 'createHold',
  path: '/v1/availability/holds',
  summary: `Hold a slot for ${HOLD_MINUTES} minutes while the caller confirms`,
  description: prose`
    Takes the slot for everyone else until \`expiresAt\` (${HOLD_MINUTES} minutes): no other hold or appointment can
    take the member at that time. Book it with POST /v1/appointments and \`holdId\`; left alone, it frees itself. The
    member is \`memberId\`, or the first member by id who works the whole slot and is free, among the service’s
    \`memberIds\` when it has some (another \`memberId\` answers 400). A slot no member works (outside hours, a closed
    date, in the past) answers 409 SLOT_UNAVAILABLE; one booked or held already, 409 SLOT_TAKEN: of two holds of the
    same slot and member at the same moment, one is created and the other answers SLOT_TAKEN. Records
    \`hold.created\`.
  `,
  tag: 'Availability',
  dynamodb: ['BatchGetItem', 'GetItem', 'Query', 'PutItem', 'ConditionCheckItem'],
  request: { body: CreateHoldBody },
  response: HoldResponse,
  errors: [404, 409],
});

export const listHolds = listRow({
  operationId: 'listHolds',
  path: '/v1/availability/holds',
  summary: 'List the holds not yet booked or expired, soonest to expire first',
  description: prose`
    The slots held right now (POST /v1/availability/holds) that no appointment has booked, the one to expire first
    first: what a caller is being offered at this moment. A hold leaves the list when it is booked and at its
    \`expiresAt\`. The one list without \`updatedSince\`: a hold lives ${HOLD_MINUTES} minutes, and each new one is a
    \`hold.created\` event.
  `,
  tag: 'Availability',
  dynamodb: ['Query'],
  indexes: ['gsi1'],
  request: { query: ListHoldsQuery },
  response: HoldPage,
});

export const appointmentRoutes = [createAppointment, listAppointments, getAppointment, updateAppointment, findAvailability, createHold, listHolds];
