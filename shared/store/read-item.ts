import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { dynamo } from '../dynamo';
import type { Key } from './keys';

/** One item as it stands now (a consistent read: a write a moment ago is seen), or undefined. */
export async function readItem(key: Key): Promise<Record<string, unknown> | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: key, ConsistentRead: true }));
  return Item;
}
