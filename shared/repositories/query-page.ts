import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { dynamo } from '../dynamo';
import type { Collection } from '../entities/keys';
import type { IndexName } from '../table';

export interface PageSource extends Collection {
  /** Base table when absent. */
  index?: IndexName;
}

function baseQuery({ index, pk, skPrefix }: PageSource): QueryCommandInput {
  const pkName = index ? `${index}pk` : 'pk';
  const skName = index ? `${index}sk` : 'sk';
  return {
    TableName: config.tableName,
    IndexName: index,
    KeyConditionExpression: skPrefix ? '#pk = :pk AND begins_with(#sk, :prefix)' : '#pk = :pk',
    ExpressionAttributeNames: skPrefix ? { '#pk': pkName, '#sk': skName } : { '#pk': pkName },
    ExpressionAttributeValues: skPrefix ? { ':pk': pk, ':prefix': skPrefix } : { ':pk': pk },
    ScanIndexForward: false,
  };
}

/**
 * Reads page `page` of `limit` items, newest first (sort keys grow with time).
 * Page 1 is a single Query of `limit` items. A later page first walks past the earlier
 * pages reading keys only, then reads its own items: DynamoDB has no offset.
 */
export async function queryPage(source: PageSource, page: number, limit: number): Promise<Record<string, unknown>[]> {
  const query = baseQuery(source);
  let startKey: Record<string, unknown> | undefined;
  let toSkip = (page - 1) * limit;
  while (toSkip > 0) {
    const skipped = await dynamo.send(
      new QueryCommand({
        ...query,
        Limit: toSkip,
        // Only the position matters while skipping; the key attribute is the smallest projection.
        ProjectionExpression: '#pk',
        ExclusiveStartKey: startKey,
      }),
    );
    toSkip -= skipped.Count ?? 0;
    startKey = skipped.LastEvaluatedKey;
    if (!startKey) return [];
  }
  const items: Record<string, unknown>[] = [];
  do {
    const result = await dynamo.send(new QueryCommand({ ...query, Limit: limit - items.length, ExclusiveStartKey: startKey }));
    items.push(...(result.Items ?? []));
    startKey = result.LastEvaluatedKey;
  } while (startKey && items.length < limit);
  return items;
}

/** Every item of a small, bounded collection (a catalog, not a growing list). */
export async function queryAll(source: PageSource): Promise<Record<string, unknown>[]> {
  const query = { ...baseQuery(source), ScanIndexForward: true };
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await dynamo.send(new QueryCommand({ ...query, ExclusiveStartKey: startKey }));
    items.push(...(result.Items ?? []));
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return items;
}
