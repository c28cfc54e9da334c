import * as v from 'valibot';
import { localTime } from '#shared/local-time';
import { Instant, integerString, PageQuery, pageSchema, PrefixedId, Timestamp } from '#shared/schema';

/** Slots start every this many minutes from the start of each working period, unless `step` says otherwise. */
export const DEFAULT_STEP_MINUTES = 15;
/** The longest window one availability request covers. */
export const MAX_WINDOW_DAYS = 14;
/** How long a hold keeps its slot from everyone else. */
export const HOLD_MINUTES = 5;

const WINDOW_RULE = `\`to\` must be after \`from\` and at most ${MAX_WINDOW_DAYS} days after it`;

export const AvailabilityQuery = v.pipe(
  v.object({
    serviceId: integerString('serviceId'),
    from: v.optional(Instant('from', 'Slots starting at or after this instant; now when left out. Slots never start in the past.')),
    to: v.optional(Instant('to', `Slots starting before this instant; \`from\` plus 7 days when left out. ${WINDOW_RULE}.`)),
    memberId: v.optional(integerString('memberId')),
    step: v.optional(integerString('step', { min: 5, max: 240 }), String(DEFAULT_STEP_MINUTES)),
  }),
  v.forward(
    v.check((query) => query.from === undefined || query.to === undefined || query.to > query.from, 'to must be after from'),
    ['to'],
  ),
  v.forward(
    v.check((query) => query.to === undefined || Date.parse(query.to) - (query.from === undefined ? Date.now() : Date.parse(query.from)) <= MAX_WINDOW_DAYS * 86_400_000, `to must be at most ${MAX_WINDOW_DAYS} days after from`),
    ['to'],
  ),
);
export type AvailabilityQuery = v.InferOutput<typeof AvailabilityQuery>;

/**
 * A slot's or hold's times in the organization's timezone, beside the UTC ones, for a voice agent to say
 * (docs/decisions/receptionist-and-appointments.md#times-are-answered-in-utc-and-in-the-organizations-local-time).
 */
const LocalTimes = {
  startsAtLocal: v.pipe(v.string(), v.description('startsAt in the organization’s timezone, with the offset in force then: `2026-12-01T09:00:00+11:00`.')),
  endsAtLocal: v.pipe(v.string(), v.description('endsAt in the organization’s timezone, with the offset in force then.')),
  startsAtLabel: v.pipe(v.string(), v.description('startsAt to say aloud, in the organization’s timezone: weekday, day, month and 12-hour time, `Tue 1 Dec, 9:00 am`.')),
};

/** The local fields of a time span, in `timezone`. */
export function localTimesOf(timezone: string, { startsAt, endsAt }: { startsAt: string; endsAt: string }) {
  const starts = localTime(timezone, startsAt);
  return { startsAtLocal: starts.local, endsAtLocal: localTime(timezone, endsAt).local, startsAtLabel: starts.label };
}

export const Slot = v.object({
  startsAt: Timestamp,
  endsAt: Timestamp,
  ...LocalTimes,
  /** The members free for the whole slot, by member id, ascending. */
  memberIds: v.array(v.pipe(v.number(), v.integer())),
});
export type Slot = v.InferOutput<typeof Slot>;

/** Why a window has no slots at all, whatever it spans: set up is missing, not booked out. */
export const AVAILABILITY_NOTICES = {
  NO_BUSINESS_HOURS: 'No slots: the organization has no business hours (PATCH /v1/organization `businessHours`) and no member who takes the service has working hours of their own.',
  NO_MEMBERS: 'No slots: no member takes the service (every member is disabled, or none of its `memberIds` is).',
} as const;
export type AvailabilityNotice = keyof typeof AVAILABILITY_NOTICES;

const Notice = v.pipe(
  v.nullable(v.object({ code: v.picklist(Object.keys(AVAILABILITY_NOTICES) as AvailabilityNotice[]), message: v.string() })),
  v.description('Why no window can have slots (set-up missing, not time booked out): `NO_BUSINESS_HOURS` or `NO_MEMBERS`, with a message. `null` otherwise.'),
);

export const AvailabilityResponse = v.object({
  /** Earliest first. */
  slots: v.array(Slot),
  /** The organization's IANA time zone, for saying the times aloud. */
  timezone: v.string(),
  /** The service's duration: each slot's length. */
  durationMinutes: v.pipe(v.number(), v.integer()),
  /** Minutes between one slot's start and the next within a working period. */
  step: v.pipe(v.number(), v.integer()),
  notice: Notice,
});
export type AvailabilityResponse = v.InferOutput<typeof AvailabilityResponse>;

export const CreateHoldBody = v.strictObject({
  serviceId: v.pipe(v.number('serviceId must be an integer'), v.integer('serviceId must be an integer'), v.minValue(1, 'serviceId must be at least 1'), v.maxValue(2_147_483_647, 'serviceId must be at most 2147483647')),
  startsAt: Instant('startsAt', 'The slot’s start, as GET /v1/availability answers it (any offset).'),
  memberId: v.optional(
    v.pipe(
      v.number('memberId must be an integer'),
      v.integer('memberId must be an integer'),
      v.minValue(1, 'memberId must be at least 1'),
      v.maxValue(2_147_483_647, 'memberId must be at most 2147483647'),
      v.description('The member to hold; without it, the first member free for the whole slot, by member id.'),
    ),
  ),
  leadId: v.optional(PrefixedId('lead', 'leadId')),
});
export type CreateHoldBody = v.InferOutput<typeof CreateHoldBody>;

export const Hold = v.object({
  id: v.string(),
  serviceId: v.pipe(v.number(), v.integer()),
  startsAt: Timestamp,
  endsAt: Timestamp,
  ...LocalTimes,
  memberId: v.pipe(v.number(), v.integer()),
  leadId: v.nullable(v.string()),
  /** Until then no one else can hold or book the member at this time; then the slot is free again. */
  expiresAt: Timestamp,
  createdAt: Timestamp,
});
export type Hold = v.InferOutput<typeof Hold>;

export const HoldResponse = v.object({ hold: Hold });

/** The live holds' list pages: a hold lasts minutes, so there is nothing to sync (no `updatedSince`). */
export const ListHoldsQuery = v.object({ page: PageQuery.entries.page, limit: PageQuery.entries.limit, cursor: PageQuery.entries.cursor });
export type ListHoldsQuery = v.InferOutput<typeof ListHoldsQuery>;
export const HoldPage = pageSchema('holds', Hold);
