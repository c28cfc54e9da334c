import { BatchWriteCommand, type BatchWriteCommandOutput } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { dynamo } from '../dynamo';
import type { Key } from './keys';
import { backoff, MAX_RETRIES } from './retry';

const MAX_REQUESTS = 25;

/** BatchWriteItem calls in flight at once for one caller: a stream batch's 60 or so events and entries in one round. */
const CONCURRENT_CALLS = 4;

/** One BatchWriteItem call of at most 25, retried until DynamoDB has processed all of it. */
async function writeBatch(requests: Record<string, unknown>[]): Promise<void> {
  let pending: Record<string, unknown>[] | undefined = requests;
  for (let attempt = 0; pending?.length; attempt++) {
    if (attempt > MAX_RETRIES) throw new Error(`BatchWriteItem left ${pending.length} writes unprocessed after ${MAX_RETRIES} retries`);
    if (attempt > 0) await backoff(attempt);
    const result: BatchWriteCommandOutput = await dynamo.send(new BatchWriteCommand({ RequestItems: { [config.tableName]: pending as never } }));
    pending = result.UnprocessedItems?.[config.tableName];
  }
}

/** Sends write requests in BatchWriteItem calls of 25, up to four at once, retrying what DynamoDB leaves unprocessed. */
async function writeBatches(requests: Record<string, unknown>[]): Promise<void> {
  const calls: Record<string, unknown>[][] = [];
  for (let start = 0; start < requests.length; start += MAX_REQUESTS) calls.push(requests.slice(start, start + MAX_REQUESTS));
  let next = 0;
  const worker = async () => {
    while (next < calls.length) await writeBatch(calls[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENT_CALLS, calls.length) }, worker));
}

/** Deletes items by key. */
export async function deleteItems(keys: Key[]): Promise<void> {
  await writeBatches(keys.map(({ pk, sk }) => ({ DeleteRequest: { Key: { pk, sk } } })));
}

/** Puts items (overwriting any with the same key): one BatchWriteItem per 25, retrying what DynamoDB leaves unprocessed. */
export async function putItems(items: Record<string, unknown>[]): Promise<void> {
  await writeBatches(items.map((Item) => ({ PutRequest: { Item } })));
}
