import { BatchWriteCommand, type BatchWriteCommandOutput } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { dynamo } from '../dynamo';
import type { Key } from '../entities/keys';
import { backoff, MAX_RETRIES } from './retry';

const MAX_REQUESTS = 25;

/** Deletes items by key: one BatchWriteItem per 25, retrying what DynamoDB leaves unprocessed. */
export async function deleteItems(keys: Key[]): Promise<void> {
  for (let start = 0; start < keys.length; start += MAX_REQUESTS) {
    let pending: Record<string, unknown>[] | undefined = keys
      .slice(start, start + MAX_REQUESTS)
      .map(({ pk, sk }) => ({ DeleteRequest: { Key: { pk, sk } } }));
    for (let attempt = 0; pending?.length; attempt++) {
      if (attempt > MAX_RETRIES) throw new Error(`BatchWriteItem left ${pending.length} deletes unprocessed after ${MAX_RETRIES} retries`);
      if (attempt > 0) await backoff(attempt);
      const result: BatchWriteCommandOutput = await dynamo.send(new BatchWriteCommand({ RequestItems: { [config.tableName]: pending as never } }));
      pending = result.UnprocessedItems?.[config.tableName];
    }
  }
}
