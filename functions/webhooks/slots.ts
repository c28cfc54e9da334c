import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '#shared/clock';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { conditionNotHeld, writeAloneWhereHolds } from '#shared/store/transact';
import { WEBHOOK_LIMITS } from './limits';
import { webhookKeys } from './entity';

/** The longest an attempt holds its slot: the receiver's timeout and its own calls. A worker that died holding one frees it then. */
export const SLOT_LEASE_MS = WEBHOOK_LIMITS.timeoutMs + 5_000;

const SLOT_NAMES = Array.from({ length: WEBHOOK_LIMITS.maxInFlightPerOrganization }, (_, i) => `slot${i}`);

/** A delivery slot held for one attempt; released after it, or free anyway once its lease ends. */
export interface DeliverySlot {
  release: () => Promise<void>;
}

/**
 * One of the organization's delivery slots, or undefined while every one is held by an attempt under way: a lease
 * (`{holder, until}`) in one attribute of the organization's slots item, taken on condition that it is absent or
 * ended. One consistent read finds the free ones; a write that loses its race tries the next.
 */
export async function takeDeliverySlot(organizationId: string): Promise<DeliverySlot | undefined> {
  const Key = webhookKeys.deliverySlots(organizationId);
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key, ConsistentRead: true }));
  // The clock work is scheduled by (a test's manual one too), so a lease's end is tested without waiting it out.
  const now = clock.now();
  const free = SLOT_NAMES.filter((name) => ((Item?.[name] as { until?: number } | undefined)?.until ?? 0) <= now);
  // From a random one on, so attempts starting together do not all race for the first.
  const start = Math.floor(Math.random() * free.length);
  const holder = randomUUID();
  for (const name of [...free.slice(start), ...free.slice(0, start)]) {
    const taken = await writeAloneWhereHolds({
      item: {
        Update: {
          TableName: config.tableName,
          Key,
          UpdateExpression: 'SET #slot = :lease',
          ConditionExpression: 'attribute_not_exists(#slot) OR #slot.#until <= :now',
          ExpressionAttributeNames: { '#slot': name, '#until': 'until' },
          ExpressionAttributeValues: { ':lease': { holder, until: now + SLOT_LEASE_MS }, ':now': now },
        },
      },
      onConditionFailed: conditionNotHeld,
    });
    if (!taken) continue;
    return {
      // Only while it is still this attempt's: a lease that ended may already be another's.
      release: async () => {
        await writeAloneWhereHolds({
          item: { Update: { TableName: config.tableName, Key, UpdateExpression: 'REMOVE #slot', ConditionExpression: '#slot.#holder = :holder', ExpressionAttributeNames: { '#slot': name, '#holder': 'holder' }, ExpressionAttributeValues: { ':holder': holder } } },
          onConditionFailed: conditionNotHeld,
        });
      },
    };
  }
  return undefined;
}
