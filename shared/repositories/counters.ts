import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { dynamo } from '../dynamo';
import { keys } from '../entities/keys';
import type { TransactWrite } from './transact';

/**
 * A transaction write that moves a counter by `by`. With `onMissing`, the counter must already
 * exist (a collection whose counter lives exactly as long as its owner).
 */
export function counterUpdate(organizationId: string, name: string, by: number, onMissing?: () => Error): TransactWrite {
  return {
    item: {
      Update: {
        TableName: config.tableName,
        Key: keys.counter(organizationId, name),
        UpdateExpression: 'ADD #count :by',
        ...(onMissing ? { ConditionExpression: 'attribute_exists(pk)' } : {}),
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':by': by },
      },
    },
    onConditionFailed: onMissing,
  };
}

export async function readCounter(organizationId: string, name: string): Promise<number | undefined> {
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
