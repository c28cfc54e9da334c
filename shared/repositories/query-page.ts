import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { dynamo } from '../dynamo';
import type { Collection } from '../entities/keys';
import type { IndexName } from '../table';
import { readCounter } from './counters';

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

/** Positions skipped per keys-only Query while walking to a later page. */
const SKIP_BATCH = 1000;

/**
 * Reads page `page` of `limit` items, newest first (sort keys grow with time).
 * Page 1 is a single Query of `limit` items. A later page first walks past the earlier
 * pages reading keys only, then reads its own items: DynamoDB has no offset.
 */
async function queryPage(source: PageSource, page: number, limit: number): Promise<Record<string, unknown>[]> {
  const query = baseQuery(source);
  let startKey: Record<string, unknown> | undefined;
  let toSkip = (page - 1) * limit;
  while (toSkip > 0) {
    const skipped = await dynamo.send(
      new QueryCommand({
        ...query,
        Limit: Math.min(toSkip, SKIP_BATCH),
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

export interface CountedPage {
  items: Record<string, unknown>[];
  /** Undefined when the counter does not exist (for some collections: their owner does not exist). */
  totalCount: number | undefined;
}

/**
 * A list page and its collection's counter. Page 1 reads both at once: one Query and one GetItem.
 * A later page reads the counter first and skips the walk when the page lies past the end.
 */
export async function countedPage(source: PageSource, organizationId: string, counter: string, page: number, limit: number): Promise<CountedPage> {
  const totalCount = readCounter(organizationId, counter);
  if (page === 1) {
    const [items, total] = await Promise.all([queryPage(source, page, limit), totalCount]);
    return { items, totalCount: total };
  }
  const total = await totalCount;
  const pastTheEnd = total === undefined || (page - 1) * limit >= total;
  return { items: pastTheEnd ? [] : await queryPage(source, page, limit), totalCount: total };
}

/** Every item of a small, bounded collection (a catalog, not a growing list), optionally only some attributes. */
export async function queryAll(source: PageSource, attributes?: string[]): Promise<Record<string, unknown>[]> {
  const base = baseQuery(source);
  const projection = attributes?.map((name, i) => [`#p${i}`, name] as const);
  const query = {
    ...base,
    ScanIndexForward: true,
    ...(projection
      ? {
          ProjectionExpression: projection.map(([alias]) => alias).join(', '),
          ExpressionAttributeNames: { ...base.ExpressionAttributeNames, ...Object.fromEntries(projection) },
        }
      : {}),
  };
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await dynamo.send(new QueryCommand({ ...query, ExclusiveStartKey: startKey }));
    items.push(...(result.Items ?? []));
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return items;
}
