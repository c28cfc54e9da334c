import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Page, PageRequest } from '#shared/pagination';
import { now } from '#shared/ids';
import { rangePage, type PageSource } from '#shared/store/query-page';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { ApiError, NotFoundError } from '#shared/errors';
import { insertIfAbsent, requireExisting, transact, type TransactWrite } from '#shared/store/transact';
import { claimSchedule, LeadNotFound, type Schedule } from './store';
import { toBookingItem } from './entity';
import { leadKeys } from '../leads/entity';
import { memberKeys } from '../organization/member-entity';
import { fromHoldItem, holdBookingOf, holdKeys, holdOf, toHoldItem, type HoldRecord } from './hold-entity';
import type { Hold } from './availability-schema';

export const holdNotFound = () => new NotFoundError('Hold not found');
const memberGone = () => new ApiError(409, 'The member was removed meanwhile; ask for availability again', 'SLOT_TAKEN');

/** The hold, consistently: a hold just made is booked at once. */
export async function getHold(organizationId: string, holdId: string): Promise<HoldRecord | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: holdKeys.hold(organizationId, holdId), ConsistentRead: true }));
  return Item && fromHoldItem(Item);
}

/**
 * The hold, the member's time taken until it expires, the member's schedule claimed at the version read (so a
 * concurrent hold or booking of the member fails the whole transaction), and the member and the lead checked.
 */
export async function insertHold(organizationId: string, hold: HoldRecord, schedule: Schedule): Promise<void> {
  await transact([
    insertIfAbsent(toHoldItem(organizationId, hold)),
    { item: { Put: { TableName: config.tableName, Item: toBookingItem(organizationId, hold.userId, holdBookingOf(hold)) } } },
    claimSchedule(organizationId, schedule),
    requireExisting(memberKeys.user(organizationId, hold.userId), memberGone),
    ...(hold.leadId ? [requireExisting(leadKeys.lead(organizationId, hold.leadId), () => new LeadNotFound())] : []),
  ]);
}

/** Marks the hold booked by the appointment, on condition it is neither booked nor expired at `at`: a write of the appointment's transaction. */
export function bookHoldWrite(organizationId: string, hold: HoldRecord, appointmentId: string, at: string): TransactWrite {
  return {
    item: {
      Update: {
        TableName: config.tableName,
        Key: holdKeys.hold(organizationId, hold.id),
        // Booked, it leaves the live holds' list.
        UpdateExpression: 'SET appointmentId = :appointmentId REMOVE gsi1pk, gsi1sk',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(appointmentId) AND expiresAt > :at',
        ExpressionAttributeValues: { ':appointmentId': appointmentId, ':at': at },
      },
    },
    onConditionFailed: () => new ApiError(409, 'The hold expired or was booked by another request meanwhile; hold a slot again', 'HOLD_EXPIRED'),
  };
}

/**
 * The holds neither booked nor expired, soonest to expire first: the live holds' index after now (one expiring this
 * millisecond has expired, as booking sees it; a booked one is out of the index), and its count over the same range.
 * The range starts at the clock, so a cursor outlives the holds expired since its page was read.
 */
export async function listLiveHoldsPage(organizationId: string, { page, limit, cursor }: PageRequest): Promise<Page<Hold>> {
  const live: PageSource = { ...holdKeys.liveHolds(organizationId), skBetween: [`${now()}#~`, '~'], movingStart: true, ascending: true };
  const found = await rangePage(live, { page, limit, cursor });
  return { items: found.items.map((item) => holdOf(fromHoldItem(item))), totalCount: found.totalCount, page, limit, nextCursor: found.nextCursor };
}
