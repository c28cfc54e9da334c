import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { dynamo } from '../dynamo';
import type { Collection } from '../entities/keys';
import type { IndexName } from '../table';
import { readCounter } from './counters';

export interface PageSource extends Collection {
  /** Base table when absent. */
  index?: IndexName;
  /** Sort keys between these, inclusive (instead of skPrefix). */
  skBetween?: [string, string];
  /** Oldest first (the sort key ascending); newest first when absent. */
  ascending?: boolean;
  /** A strongly consistent read (base table only): sees every write acknowledged before it. */
  consistentRead?: boolean;
}

function keyCondition({ skPrefix, skBetween }: PageSource): { expression: string; values: Record<string, string> } {
  if (skBetween) return { expression: ' AND #sk BETWEEN :from AND :to', values: { ':from': skBetween[0], ':to': skBetween[1] } };
  if (skPrefix) return { expression: ' AND begins_with(#sk, :prefix)', values: { ':prefix': skPrefix } };
  return { expression: '', values: {} };
}

function baseQuery(source: PageSource): QueryCommandInput {
  const { index, pk, ascending = false, consistentRead } = source;
  const pkName = index ? `${index}pk` : 'pk';
  const skName = index ? `${index}sk` : 'sk';
  const sk = keyCondition(source);
  return {
    TableName: config.tableName,
    IndexName: index,
    KeyConditionExpression: `#pk = :pk${sk.expression}`,
    ExpressionAttributeNames: sk.expression ? { '#pk': pkName, '#sk': skName } : { '#pk': pkName },
    ExpressionAttributeValues: { ':pk': pk, ...sk.values },
    ScanIndexForward: ascending,
    ...(consistentRead ? { ConsistentRead: true } : {}),
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

/**
 * How many items a key range holds, for a range no counter tracks (a date window): a Query that
 * returns only the count, read capacity proportional to the range's size.
 */
export async function countItems(source: PageSource): Promise<number> {
  const query = { ...baseQuery(source), Select: 'COUNT' as const };
  let count = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await dynamo.send(new QueryCommand({ ...query, ExclusiveStartKey: startKey }));
    count += result.Count ?? 0;
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return count;
}

/** A list page whose total is counted over its key range rather than read from a counter. */
export async function rangePage(source: PageSource, page: number, limit: number): Promise<{ items: Record<string, unknown>[]; totalCount: number }> {
  const [items, totalCount] = await Promise.all([queryPage(source, page, limit), countItems(source)]);
  return { items, totalCount };
}
