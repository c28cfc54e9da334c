import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { dynamo } from '../dynamo';
import { keys, type Key } from './keys';
import { batchGetItems } from './batch-get';
import { counterShards, isShardable } from './counter-shards';
import type { TransactWrite } from './transact';

/** The shards a counter is read from and written to in this request: 1 unless the organization spreads it. */
const shardsOf = (name: string) => (isShardable(name) ? counterShards() : 1);

/** Every item a counter may have in this request: its own, and its other shards when sharded. */
export const counterKeys = (organizationId: string, name: string): Key[] =>
  Array.from({ length: shardsOf(name) }, (_, shard) => keys.counterShard(organizationId, name, shard));

/**
 * A transaction write that moves a counter by `by`. With `onMissing`, the counter must already
 * exist (a collection whose counter lives exactly as long as its owner).
 */
export function counterUpdate(organizationId: string, name: string, by: number, onMissing?: () => Error): TransactWrite {
  // A sharded counter's move lands on any one shard: the total is their sum.
  const shard = onMissing ? 0 : Math.floor(Math.random() * shardsOf(name));
  return {
    item: {
      Update: {
        TableName: config.tableName,
        Key: keys.counterShard(organizationId, name, shard),
        UpdateExpression: 'ADD #count :by',
        ...(onMissing ? { ConditionExpression: 'attribute_exists(pk)' } : {}),
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':by': by },
      },
    },
    onConditionFailed: onMissing,
  };
}

/** The counter's value, the sum of its shards when sharded (one BatchGetItem); undefined when no item of it exists. */
export async function readCounter(organizationId: string, name: string): Promise<number | undefined> {
  const shards = shardsOf(name);
  if (shards > 1) {
    const items = await batchGetItems(counterKeys(organizationId, name), { consistentRead: true, attributes: ['count'] });
    return items.length ? items.reduce((sum, item) => sum + Number(item.count ?? 0), 0) : undefined;
  }
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: config.tableName, Key: keys.counter(organizationId, name), ConsistentRead: true }),
  );
  return Item === undefined ? undefined : Number(Item.count);
}

/** A transaction write that sets a counter to `to`, on condition that it still is `seen` (absent when undefined). */
export function counterSet(organizationId: string, name: string, seen: number | undefined, to: number, onChanged: () => Error): TransactWrite {
  return {
    item: {
      Update: {
        TableName: config.tableName,
        Key: keys.counter(organizationId, name),
        UpdateExpression: 'SET #count = :to',
        ConditionExpression: seen === undefined ? 'attribute_not_exists(#count)' : '#count = :seen',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':to': to, ...(seen === undefined ? {} : { ':seen': seen }) },
      },
    },
    onConditionFailed: onChanged,
  };
}
