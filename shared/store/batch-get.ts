import { BatchGetCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { dynamo } from '../dynamo';
import type { Key } from './keys';
import { backoff, MAX_RETRIES } from './retry';

const MAX_KEYS = 100;

export interface BatchGetOptions {
  consistentRead?: boolean;
  /** Attributes to read; pk and sk are always added so callers can match items to keys. */
  attributes?: string[];
}

/**
 * The items that exist among `keys`, in no particular order: one BatchGetItem per 100 keys,
 * plus a retry of whatever DynamoDB left unprocessed (only under throttling).
 */
export async function batchGetItems(keys: Key[], { consistentRead = false, attributes }: BatchGetOptions = {}): Promise<Record<string, unknown>[]> {
  const projection = attributes && ['pk', 'sk', ...attributes.filter((name) => name !== 'pk' && name !== 'sk')];
  const names = projection && Object.fromEntries(projection.map((name, i) => [`#a${i}`, name]));
  const found: Record<string, unknown>[] = [];
  for (let start = 0; start < keys.length; start += MAX_KEYS) {
    let pending: Record<string, unknown>[] | undefined = keys.slice(start, start + MAX_KEYS).map(({ pk, sk }) => ({ pk, sk }));
    for (let attempt = 0; pending?.length; attempt++) {
      if (attempt > MAX_RETRIES) throw new Error(`BatchGetItem left ${pending.length} keys unprocessed after ${MAX_RETRIES} retries`);
      if (attempt > 0) await backoff(attempt);
      const result: BatchGetCommandOutput = await dynamo.send(
        new BatchGetCommand({
          RequestItems: {
            [config.tableName]: {
              Keys: pending,
              ConsistentRead: consistentRead,
              ...(names ? { ProjectionExpression: Object.keys(names).join(', '), ExpressionAttributeNames: names } : {}),
            },
          },
        }),
      );
      found.push(...(result.Responses?.[config.tableName] ?? []));
      pending = result.UnprocessedKeys?.[config.tableName]?.Keys;
    }
  }
  return found;
}
