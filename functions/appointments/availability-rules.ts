import { ApiError, NotFoundError, ValidationError } from '#shared/errors';
import { newId, requestTime } from '#shared/ids';
import { LATEST_INSTANT } from '#shared/schema';
import { intersectIntervals, openIntervals, type Interval } from '#shared/schedule';
import { bookingsWindowStart, clashOf, retryingStale } from './rules';
import { isTaken } from './entity';
import { readBookings, readSchedules } from './store';
import { getOrganizationHours } from '../organization/store';
import { listAllMembers } from '../organization/member-store';
import type { Member } from '../organization/member-schema';
import type { Organization } from '../organization/schema';
import type { Service } from '../services/schema';
import { getService } from '../services/store';
import { holdOf, type HoldRecord } from './hold-entity';
import { AVAILABILITY_NOTICES, HOLD_MINUTES, localTimesOf, type AvailabilityNotice, type AvailabilityQuery, type AvailabilityResponse, type CreateHoldBody, type Hold, type Slot } from './availability-schema';
import { MAX_APPOINTMENT_MS } from './schema';
import { insertHold } from './hold-store';

const MINUTE = 60_000;
const DAY = 86_400_000;
const DEFAULT_WINDOW_DAYS = 7;
/**
 * Every slot of this length starts before it, so it ends before the last instant the service records, which a hold or
 * an appointment could not take.
 */
const slotStartLimit = (durationMs: number) => Date.parse(LATEST_INSTANT) - durationMs;
const MINUTES_PER_UNIT = { MINUTES: 1, HOURS: 60, DAYS: 1440 } as const;

export const durationMinutesOf = (service: Pick<Service, 'duration' | 'durationUnit'>) => service.duration * MINUTES_PER_UNIT[service.durationUnit];
const iso = (ms: number) => new Date(ms).toISOString();

/** A member and the spans it works, each a stretch of time a slot must fit in whole. */
interface Staff {
  member: Member;
  windows: Interval[];
}

/**
 * When each member works between the two instants: the business's hours and closed dates, narrowed by the member's
 * own working hours. With no business hours set, a member's own hours alone; with neither, never.
 */
function workingWindows({ businessHours, closedDates, timezone }: Pick<Organization, 'businessHours' | 'closedDates' | 'timezone'>, members: Member[], fromMs: number, toMs: number): Staff[] {
  const business = businessHours ? openIntervals({ hours: businessHours, closedDates, timezone }, fromMs, toMs) : undefined;
  return members.map((member) => {
    const own = member.workingHours ? openIntervals({ hours: member.workingHours, closedDates, timezone }, fromMs, toMs) : undefined;
    return { member, windows: business && own ? intersectIntervals(business, own) : (business ?? own ?? []) };
  });
}

/**
 * What a slot of the service needs, in one round trip: the organization's hours, the service's duration, and the
 * members who may take it (the one asked for, or every member not disabled).
 */
async function bookingInputs(organizationId: string, serviceId: number, memberId: number | undefined) {
  const [organization, service, members] = await Promise.all([getOrganizationHours(organizationId), getService(organizationId, serviceId), listAllMembers(organizationId)]);
  if (memberId !== undefined && !members.some((member) => member.id === memberId)) throw new NotFoundError('Member not found');
  // A service with memberIds is taken by those members only; one with none, by every member.
  const assigned = (id: number) => !service.memberIds.length || service.memberIds.includes(id);
  if (memberId !== undefined && !assigned(memberId)) throw new ValidationError([{ path: 'memberId', message: `memberId ${memberId} is not one of the service's memberIds` }]);
  const staff = members.filter((member) => !member.isDisabled && assigned(member.id) && (memberId === undefined || member.id === memberId));
  const durationMs = durationMinutesOf(service) * MINUTE;
  // A slot is booked as one appointment, which lasts at most 7 days (the overlap check looks no further back).
  if (durationMs > MAX_APPOINTMENT_MS) throw new ValidationError([{ path: 'serviceId', message: `serviceId names a service of ${service.duration} ${service.durationUnit.toLowerCase()}: an appointment lasts at most 7 days, so it has no slots` }]);
  return { organization, durationMs, service, staff };
}

/**
 * Slots of `durationMs` starting every `stepMs` from the start of each working window, that start in [fromMs, toMs),
 * end within their window, and overlap none of the member's busy times; each with the members free for all of it.
 */
export function freeSlots(staff: { memberId: number; windows: Interval[]; busy: Interval[] }[], { durationMs, stepMs, fromMs, toMs, timezone }: { durationMs: number; stepMs: number; fromMs: number; toMs: number; timezone: string }): Slot[] {
  const membersAt = new Map<number, number[]>();
  for (const { memberId, windows, busy } of staff) {
    for (const window of windows) {
      const skipped = window.start < fromMs ? Math.ceil((fromMs - window.start) / stepMs) : 0;
      for (let start = window.start + skipped * stepMs; start < toMs && start + durationMs <= window.end; start += stepMs) {
        if (busy.some((taken) => taken.start < start + durationMs && start < taken.end)) continue;
        const members = membersAt.get(start) ?? [];
        if (!members.length) membersAt.set(start, members);
        members.push(memberId);
      }
    }
  }
  return [...membersAt]
    .sort(([a], [b]) => a - b)
    .map(([start, memberIds]) => {
      const times = { startsAt: iso(start), endsAt: iso(start + durationMs) };
      return { ...times, ...localTimesOf(timezone, times), memberIds: memberIds.sort((a, b) => a - b) };
    });
}

/** What keeps every window empty, if anything: no member to take the service, or no hours for any of them to work. */
function noticeOf(organization: Pick<Organization, 'businessHours'>, staff: Member[]): AvailabilityNotice | undefined {
  // Hours first: a new organization lacks them before anything else.
  if (!organization.businessHours && !staff.some((member) => member.workingHours)) return 'NO_BUSINESS_HOURS';
  return staff.length ? undefined : 'NO_MEMBERS';
}

/**
 * The service's free slots in the window, in two round trips: the organization, the service and the members; then
 * each working member's bookings and holds. Slots never start before now.
 */
export async function findAvailability(organizationId: string, query: AvailabilityQuery, now = Date.now()): Promise<AvailabilityResponse> {
  const requestedFrom = query.from === undefined ? now : Date.parse(query.from);
  const fromMs = Math.max(requestedFrom, now);
  const { organization, durationMs, staff } = await bookingInputs(organizationId, query.serviceId, query.memberId);
  const toMs = Math.min(query.to === undefined ? requestedFrom + DEFAULT_WINDOW_DAYS * DAY : Date.parse(query.to), slotStartLimit(durationMs));
  const notice = noticeOf(organization, staff);
  const answer = { timezone: organization.timezone, durationMinutes: durationMs / MINUTE, step: query.step, notice: notice ? { code: notice, message: AVAILABILITY_NOTICES[notice] } : null };
  if (fromMs >= toMs) return { slots: [], ...answer };
  // A slot starting just before `to` ends up to one duration after it.
  const working = workingWindows(organization, staff, fromMs, toMs + durationMs).filter(({ windows }) => windows.length);
  const bookings = await readBookings(organizationId, working.map(({ member }) => member.user.id), bookingsWindowStart(iso(fromMs)), iso(toMs + durationMs));
  const at = iso(now);
  const staffTimes = working.map(({ member, windows }, i) => ({
    memberId: member.id,
    windows,
    busy: bookings[i]!.filter((booking) => isTaken(booking, at)).map((booking) => ({ start: Date.parse(booking.startsAt), end: Date.parse(booking.endsAt) })),
  }));
  return { slots: freeSlots(staffTimes, { durationMs, stepMs: query.step * MINUTE, fromMs, toMs, timezone: organization.timezone }), ...answer };
}

const slotUnavailable = (message: string) => new ApiError(409, message, 'SLOT_UNAVAILABLE');

/**
 * Holds a slot for HOLD_MINUTES: the member asked for, or the first free one by id, must work for the whole slot
 * (409 SLOT_UNAVAILABLE otherwise) and have no booking or live hold overlapping it (409 SLOT_TAKEN). The hold and
 * the member's schedule claim are one transaction, so of two holds of one member's time only one is written.
 */
export async function createHold(organizationId: string, body: CreateHoldBody, at = requestTime()): Promise<Hold> {
  const startsMs = Date.parse(body.startsAt);
  if (startsMs <= at.getTime()) throw slotUnavailable('startsAt is in the past');
  const { organization, durationMs, service, staff } = await bookingInputs(organizationId, body.serviceId, body.memberId);
  if (startsMs >= slotStartLimit(durationMs)) {
    throw new ValidationError([{ path: 'startsAt', message: `startsAt plus the service’s ${durationMs / MINUTE} minutes must end before ${LATEST_INSTANT}` }]);
  }
  const slot = { startsAt: iso(startsMs), endsAt: iso(startsMs + durationMs) };
  const working = workingWindows(organization, staff, startsMs, startsMs + durationMs)
    .filter(({ windows }) => windows.some((window) => window.start <= startsMs && startsMs + durationMs <= window.end))
    .map(({ member }) => member);
  if (!working.length) throw slotUnavailable(`No member${body.memberId === undefined ? '' : ` ${body.memberId}`} works the whole slot from ${slot.startsAt} to ${slot.endsAt}; ask GET /v1/availability for slots`);
  return retryingStale(async () => {
    const schedules = await readSchedules(organizationId, working.map((member) => member.user.id), bookingsWindowStart(slot.startsAt), slot.endsAt);
    const createdAt = requestTime();
    const free = schedules.findIndex((schedule) => !clashOf(schedule.bookings, slot, new Set(), createdAt.toISOString()));
    if (free < 0) throw new ApiError(409, `The slot from ${slot.startsAt} to ${slot.endsAt} is booked or held; ask GET /v1/availability for free slots`, 'SLOT_TAKEN');
    const member = working[free]!;
    const hold: HoldRecord = {
      id: newId('hold', createdAt),
      serviceId: service.id,
      ...slot,
      ...localTimesOf(organization.timezone, slot),
      memberId: member.id,
      leadId: body.leadId ?? null,
      expiresAt: iso(createdAt.getTime() + HOLD_MINUTES * MINUTE),
      createdAt: createdAt.toISOString(),
      userId: member.user.id,
      serviceName: service.name,
    };
    await insertHold(organizationId, hold, schedules[free]!);
    return holdOf(hold);
  });
}
