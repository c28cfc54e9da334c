import * as v from 'valibot';
import { Hold, localTimesOf } from './availability-schema';
import type { Booking } from './entity';
import { TTL_ATTRIBUTE } from '#shared/table';
import { organizationPartition, SAMPLE_ORGANIZATION_ID, type Key, type KeySamples } from '#shared/store/keys';
import type { AuditedRecord } from '#shared/resource';

const org = organizationPartition;

/** How long a hold's record stays after it expires: an expired hold answers HOLD_EXPIRED, not 404, for a day. */
const HOLD_RECORD_DAYS = 1;

/** The live holds' partition of gsi1. */
const liveHoldsPartition = (o: string) => `${org(o)}#HOLDS`;

export const holdKeys = {
  hold: (o: string, holdId: string): Key => ({ pk: org(o), sk: `HOLD#${holdId}` }),
  /**
   * gsi1 of a hold not yet booked (GET /v1/availability/holds), by when it expires: the live ones are the key range from
   * now on, soonest first. Booking it removes it; an expired one stays until its record's TTL, out of every range read.
   */
  liveHold: (o: string, hold: { id: string; expiresAt: string }) => ({ gsi1pk: liveHoldsPartition(o), gsi1sk: `${hold.expiresAt}#${hold.id}` }),
  /** The live holds' list: their partition of gsi1. */
  liveHolds: (o: string) => ({ index: 'gsi1' as const, pk: liveHoldsPartition(o) }),
} as const;

export const holdKeySamples: KeySamples<typeof holdKeys> = {
  hold: () => holdKeys.hold(SAMPLE_ORGANIZATION_ID, 'hold_1'),
  liveHold: () => holdKeys.liveHold(SAMPLE_ORGANIZATION_ID, { id: 'hold_1', expiresAt: '2026-12-01T00:05:00.000Z' }),
  liveHolds: () => holdKeys.liveHolds(SAMPLE_ORGANIZATION_ID),
};

/** A hold as stored: what the API answers, the member's user (whose schedule it takes) and what books it. */
export const HoldRecord = v.object({
  ...Hold.entries,
  userId: v.string(),
  /** The service's name: the title of the appointment booked from the hold, unless one is sent. */
  serviceName: v.string(),
  /** The appointment that booked the hold, once one has. */
  appointmentId: v.optional(v.string()),
});
export type HoldRecord = v.InferOutput<typeof HoldRecord>;

/** When DynamoDB may delete what a hold wrote (its record, and its time on the member's schedule): a day after it expires. */
export const holdRemovedAt = (expiresAt: string) => ({ [TTL_ATTRIBUTE]: Math.floor(Date.parse(expiresAt) / 1000) + HOLD_RECORD_DAYS * 86_400 });

export function toHoldItem(organizationId: string, hold: HoldRecord) {
  // Written once, not booked yet: live until booked (which removes the index keys) or expired.
  return { ...holdKeys.hold(organizationId, hold.id), ...holdKeys.liveHold(organizationId, hold), entity: 'HOLD', organizationId, ...holdRemovedAt(hold.expiresAt), ...hold };
}

/** A hold written before holds carried their local times (a hold lives five minutes) is given them in UTC rather than refused. */
export const fromHoldItem = (item: Record<string, unknown>): HoldRecord => v.parse(HoldRecord, 'startsAtLocal' in item ? item : { ...item, ...localTimesOf('UTC', item as Pick<HoldRecord, 'startsAt' | 'endsAt'>) });

/** The hold as the API answers it. */
export const holdOf = (record: HoldRecord): Hold => v.parse(Hold, record);

/** A hold on a slot, as the audit log names it (GET /v1/audit-log). */
export const holdAudit: AuditedRecord = { entity: 'HOLD', resourceType: 'hold' };

/** The member's time the hold takes, on the member's schedule, until it expires. */
export const holdBookingOf = (hold: HoldRecord): Booking => ({ holdId: hold.id, startsAt: hold.startsAt, endsAt: hold.endsAt, expiresAt: hold.expiresAt });
