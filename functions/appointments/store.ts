import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { APPOINTMENT_CHANGES, appointmentCounterNames, appointmentKeys, bookedBy, fromAppointmentItem, fromBookingItem, toAppointmentItem, toBookingItem, type Booking, type VersionedAppointment } from './entity';
import { leadCounterNames, leadKeys, toActivityItem } from '../leads/entity';
import { memberKeys } from '../organization/member-entity';
import { NotFoundError, ValidationError } from '#shared/errors';
import type { Page } from '#shared/pagination';
import { unknownAttendee, type ListAppointmentsQuery } from './schema';
import type { LeadActivity } from '../leads/schema';
import { batchGetItems } from '#shared/store/batch-get';
import { counterUpdate } from '#shared/store/counters';
import { countedPage, queryAll, rangePage, type PageSource } from '#shared/store/query-page';
import { changeLogKey, changesPage } from '#shared/store/change-log';
import { deleteItem, insertIfAbsent, requireExisting, transact, type TransactWrite } from '#shared/store/transact';
import { putIfVersion, StaleWrite } from '#shared/store/versioned';

/** What one member's schedule holds around a time window, and the version a booking must find unchanged. */
export interface Schedule {
  userId: string;
  version: number;
  bookings: Booking[];
}

/**
 * The members' bookings starting in [from, to), and their schedule versions: one BatchGetItem, then one
 * Query each. The heads are read first and both reads are consistent: a booking written after the head
 * read moves the head past the version read, so the claim fails; one written before is in the Query.
 * Read together, a booking could commit between the two reads, missed by the Query yet counted in the
 * version, and two overlapping bookings could both pass.
 */
export async function readSchedules(organizationId: string, userIds: string[], from: string, to: string): Promise<Schedule[]> {
  if (!userIds.length) return [];
  const heads = await batchGetItems(userIds.map((userId) => appointmentKeys.scheduleHead(organizationId, userId)), { consistentRead: true });
  const bookings = await readBookings(organizationId, userIds, from, to, { consistentRead: true });
  const versions = new Map(heads.map((head) => [head.pk as string, Number(head.version)]));
  return userIds.map((userId, i) => ({
    userId,
    version: versions.get(appointmentKeys.scheduleHead(organizationId, userId).pk) ?? 0,
    bookings: bookings[i]!,
  }));
}

/** Each member's bookings (appointments and holds, expired or not) starting in [from, to): one Query each, in parallel. */
export async function readBookings(organizationId: string, userIds: string[], from: string, to: string, { consistentRead = false } = {}): Promise<Booking[][]> {
  const items = await Promise.all(userIds.map((userId) => queryAll({ ...appointmentKeys.bookingsStartingBetween(organizationId, userId, from, to), consistentRead })));
  return items.map((bookings) => bookings.map(fromBookingItem));
}

/** Moves a member's schedule version on condition it is still the one read: a concurrent booking makes this a StaleWrite. */
export function claimSchedule(organizationId: string, { userId, version }: Schedule): TransactWrite {
  return {
    item: {
      Put: {
        TableName: config.tableName,
        Item: { ...appointmentKeys.scheduleHead(organizationId, userId), entity: 'SCHEDULE', userId, version: version + 1 },
        ConditionExpression: 'attribute_not_exists(pk) OR #version = :version',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':version': version },
      },
    },
    onConditionFailed: () => new StaleWrite(),
  };
}

/** Each attendee must be a member's user of the organization. */
function attendeeChecks(organizationId: string, userIds: string[]): TransactWrite[] {
  return userIds.map((userId) =>
    requireExisting(memberKeys.user(organizationId, userId), () => unknownAttendee(userId)),
  );
}

/** The appointment's lead does not exist: never did (a create), or was deleted since the booking. */
export class LeadNotFound extends NotFoundError {
  constructor() {
    super('Lead not found');
  }
}

/** The lead's activities and their counter, on condition the lead exists; no writes at all for a deleted lead. */
function leadWrites(organizationId: string, leadId: string, activities: LeadActivity[], leadDeleted: boolean): TransactWrite[] {
  if (leadDeleted) return [];
  return [
    requireExisting(leadKeys.lead(organizationId, leadId), () => new LeadNotFound()),
    ...activities.map((activity) => insertIfAbsent(toActivityItem(organizationId, activity))),
    ...(activities.length ? [counterUpdate(organizationId, leadCounterNames.activities(leadId), activities.length)] : []),
  ];
}

export interface AppointmentWrite {
  /** The appointment as it will be; `current` is the version read, absent for a new one. */
  next: VersionedAppointment;
  current?: VersionedAppointment;
  /** The schedules read for the bookings being added; each must still be at the version read. */
  claimed: Schedule[];
  /** Attendees whose bookings of this appointment go, and those that are written. */
  released: { userId: string; booking: Booking }[];
  booked: { userId: string; booking: Booking }[];
  activities: LeadActivity[];
  /** The lead was deleted (LeadNotFound on a write that checked it): nothing checks it or records an activity on it. */
  leadDeleted?: boolean;
  /** Other writes that stand or fall with the appointment's (the hold it books). */
  also?: TransactWrite[];
}

/**
 * The appointment, its bookings, the schedule claims, attendee checks, the lead check and the lead's
 * activities, in one transaction. Throws StaleWrite when the appointment or a schedule changed since it
 * was read, and LeadNotFound when the lead does not exist.
 */
export async function writeAppointment(organizationId: string, { next, current, claimed, released, booked, activities, leadDeleted = false, also = [] }: AppointmentWrite): Promise<void> {
  const appointment = current ? putIfVersion(toAppointmentItem(organizationId, next), current.version) : insertIfAbsent(toAppointmentItem(organizationId, next));
  const isNew = !current;
  // A booking kept under the same key is overwritten by its new version, not deleted and written again.
  const bookingKey = ({ userId, booking }: { userId: string; booking: Booking }) => `${userId}|${booking.startsAt}|${bookedBy(booking)}`;
  const kept = new Set(booked.map(bookingKey));
  await transact([
    appointment,
    ...(isNew
      ? [counterUpdate(organizationId, appointmentCounterNames.appointments(), 1), counterUpdate(organizationId, appointmentCounterNames.appointments({ leadId: next.value.leadId }), 1)]
      : []),
    ...released.filter((release) => !kept.has(bookingKey(release))).map(({ userId, booking }) => deleteItem(appointmentKeys.booking(organizationId, userId, booking.startsAt, bookedBy(booking)))),
    ...booked.map(({ userId, booking }) => ({ item: { Put: { TableName: config.tableName, Item: toBookingItem(organizationId, userId, booking) } } })),
    ...attendeeChecks(organizationId, [...new Set(booked.map(({ userId }) => userId))]),
    ...claimed.map((schedule) => claimSchedule(organizationId, schedule)),
    ...leadWrites(organizationId, next.value.leadId, activities, leadDeleted),
    ...also,
  ]);
}

export async function getAppointment(organizationId: string, appointmentId: string): Promise<VersionedAppointment | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: appointmentKeys.appointment(organizationId, appointmentId), ConsistentRead: true }));
  return Item && fromAppointmentItem(Item);
}

/** The appointments by start time, earliest first: all of them or one lead's, optionally in a window of start times. */
export async function listAppointmentsPage(organizationId: string, { page, limit, cursor, leadId, from, to, updatedSince }: ListAppointmentsQuery): Promise<Page<VersionedAppointment['value']>> {
  if (updatedSince !== undefined) {
    const log = { partition: changeLogKey(organizationId, APPOINTMENT_CHANGES).gsi6pk, filters: { leadId, from, to } };
    const { items, totalCount, nextCursor } = await changesPage(updatedSince, log, { page, limit, cursor });
    return { items: items.map((item) => fromAppointmentItem(item).value), totalCount: totalCount ?? 0, page, limit, nextCursor };
  }
  const partition = appointmentKeys.appointmentIndexes(organizationId, { id: '', leadId: leadId ?? '', startsAt: '' });
  const base: PageSource = leadId ? { index: 'gsi2', pk: partition.gsi2pk, ascending: true } : { index: 'gsi1', pk: partition.gsi1pk, ascending: true };
  if (from === undefined && to === undefined) {
    const { items, totalCount, nextCursor } = await countedPage(base, organizationId, appointmentCounterNames.appointments({ leadId }), { page, limit, cursor });
    return { items: items.map((item) => fromAppointmentItem(item).value), totalCount: totalCount ?? 0, page, limit, nextCursor };
  }
  // Sort keys are `<startsAt>#<id>`: `<from>` sorts before every key starting then, `<to>#` before every key
  // starting at `to` itself, which the window leaves out. '0' and '~' sort before and after every instant.
  const { items, totalCount, nextCursor } = await rangePage({ ...base, skBetween: [from ?? '0', to === undefined ? '~' : `${to}#`] }, { page, limit, cursor });
  return { items: items.map((item) => fromAppointmentItem(item).value), totalCount, page, limit, nextCursor };
}
