import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { dynamo } from '../dynamo';
import type { Collection } from './keys';
import { indexKeyNames, type IndexName } from '../table';
import type { PageRequest } from '../pagination';
import { readCounter } from './counters';
import { decodeCursor, encodeCursor } from './cursors';

export interface PageSource extends Collection {
  /** Base table when absent. */
  index?: IndexName;
  /** Sort keys between these, inclusive (instead of skPrefix). */
  skBetween?: [string, string];
  /**
   * The lower bound of skBetween moves with the clock (a retention window, `retentionWindow`): a cursor is bound to
   * the list without it, so the next page's request, a moment later, still takes it.
   */
  movingStart?: boolean;
  /**
   * The upper bound of skBetween moves with the clock (sync answers only settled changes): a cursor is bound to the
   * list with this bound in its place, the end the range stands for, so a poll a moment later still takes it.
   */
  openEnd?: string;
  /** Oldest first (the sort key ascending); newest first when absent. */
  ascending?: boolean;
  /** A strongly consistent read (base table only): sees every write acknowledged before it. */
  consistentRead?: boolean;
  /**
   * Only the items whose attribute equals this value (a FilterExpression): for a filter no partition holds, within a
   * partition that holds its items in order. Pages read on until they are full; a count counts only these.
   */
  where?: { attribute: string; equals: string } | StoredFilter;
}

/** A FilterExpression with its own names and values (`#`/`:` placeholders of its own, none of the key condition's). */
export interface StoredFilter {
  expression: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
}

/** A source's filter as a Query sends it. */
function filterOf(where: PageSource['where']): { expression?: string; names: Record<string, string>; values: Record<string, unknown> } {
  if (!where) return { names: {}, values: {} };
  if ('equals' in where) return { expression: '#where = :where', names: { '#where': where.attribute }, values: { ':where': where.equals } };
  return where;
}

function keyCondition({ skPrefix, skBetween }: PageSource): { expression: string; values: Record<string, string> } {
  if (skBetween) return { expression: ' AND #sk BETWEEN :from AND :to', values: { ':from': skBetween[0], ':to': skBetween[1] } };
  if (skPrefix) return { expression: ' AND begins_with(#sk, :prefix)', values: { ':prefix': skPrefix } };
  return { expression: '', values: {} };
}

function baseQuery(source: PageSource): QueryCommandInput {
  const { index, pk, ascending = false, consistentRead, where } = source;
  const { partitionKey: pkName, sortKey: skName } = index ? indexKeyNames(index) : { partitionKey: 'pk', sortKey: 'sk' };
  const sk = keyCondition(source);
  const filter = filterOf(where);
  return {
    TableName: config.tableName,
    IndexName: index,
    KeyConditionExpression: `#pk = :pk${sk.expression}`,
    ExpressionAttributeNames: { '#pk': pkName, ...(sk.expression ? { '#sk': skName } : {}), ...filter.names },
    ExpressionAttributeValues: { ':pk': pk, ...sk.values, ...filter.values },
    ...(filter.expression ? { FilterExpression: filter.expression } : {}),
    ScanIndexForward: ascending,
    ...(consistentRead ? { ConsistentRead: true } : {}),
  };
}

/** Items a Query evaluates at least, while filling a page of a filtered source: a page of one needs not a trip per item. */
const FILTERED_READ = 100;

/** Positions skipped per counting Query while walking to a later page. */
const SKIP_BATCH = 1000;

interface QueriedPage {
  items: Record<string, unknown>[];
  /** Where DynamoDB stopped: the next page starts after it. */
  lastKey: Record<string, unknown> | undefined;
}

/**
 * Reads page `page` of `limit` items, newest first (sort keys grow with time), or the `limit` items after
 * `startAfter`. Page 1 and a cursor are a single Query of `limit` items. A later page first walks past the
 * earlier pages counting keys (no items come back), then reads its own items: DynamoDB has no offset.
 */
async function queryPage(source: PageSource, page: number, limit: number, startAfter?: Record<string, unknown>): Promise<QueriedPage> {
  const query = baseQuery(source);
  let startKey: Record<string, unknown> | undefined = startAfter;
  let toSkip = startAfter ? 0 : (page - 1) * limit;
  while (toSkip > 0) {
    const skipped = await dynamo.send(
      new QueryCommand({
        ...query,
        Limit: Math.min(toSkip, SKIP_BATCH),
        // Only the position matters while skipping: a count returns no items, just where it stopped.
        Select: 'COUNT',
        ExclusiveStartKey: startKey,
      }),
    );
    toSkip -= skipped.Count ?? 0;
    startKey = skipped.LastEvaluatedKey;
    if (!startKey) return { items: [], lastKey: undefined };
  }
  // One item more than the page: whether it exists says exactly whether anything follows.
  const items: Record<string, unknown>[] = [];
  do {
    // Limit counts the items evaluated, the filter's included: a filtered page reads more, and keeps what it needs.
    const wanted = limit + 1 - items.length;
    const result = await dynamo.send(new QueryCommand({ ...query, Limit: source.where ? Math.max(wanted, FILTERED_READ) : wanted, ExclusiveStartKey: startKey }));
    items.push(...(result.Items ?? []));
    startKey = result.LastEvaluatedKey;
  } while (startKey && items.length <= limit);
  if (items.length <= limit) return { items, lastKey: undefined };
  const pageItems = items.slice(0, limit);
  return { items: pageItems, lastKey: positionOf(source, pageItems[limit - 1]!) };
}

/** The key DynamoDB resumes after: the table's keys of an item, and the index's when read through one. */
function positionOf({ index }: PageSource, item: Record<string, unknown>): Record<string, unknown> {
  const names = index ? ['pk', 'sk', indexKeyNames(index).partitionKey, indexKeyNames(index).sortKey] : ['pk', 'sk'];
  return Object.fromEntries(names.map((name) => [name, item[name]]));
}

/** A cursor positioned just after `item` of the list, whether or not anything follows it yet. */
export const cursorAfter = (source: PageSource, item: Record<string, unknown>) => encodeCursor(source, positionOf(source, item));

/** The cursor of what follows a page: null when nothing does. */
const nextCursorOf = async (source: PageSource, { lastKey }: QueriedPage) => (lastKey ? encodeCursor(source, lastKey) : null);

export interface CountedPage {
  items: Record<string, unknown>[];
  /** Undefined when the counter does not exist (for some collections: their owner does not exist). */
  totalCount: number | undefined;
  nextCursor: string | null;
}

/**
 * A list page and its collection's counter. Page 1, and the page after a cursor, read both at once: one
 * Query and one GetItem. A later page reads the counter first and skips the walk when the page lies past the end.
 */
export async function countedPage(source: PageSource, organizationId: string, counter: string, { page, limit, cursor }: PageRequest): Promise<CountedPage> {
  const totalCount = readCounter(organizationId, counter);
  if (cursor !== undefined || page === 1) {
    const startAfter = cursor === undefined ? undefined : await decodeCursor(source, cursor);
    const [queried, total] = await Promise.all([queryPage(source, page, limit, startAfter), totalCount]);
    return { items: queried.items, totalCount: total, nextCursor: await nextCursorOf(source, queried) };
  }
  const total = await totalCount;
  const pastTheEnd = total === undefined || (page - 1) * limit >= total;
  if (pastTheEnd) return { items: [], totalCount: total, nextCursor: null };
  const queried = await queryPage(source, page, limit);
  return { items: queried.items, totalCount: total, nextCursor: await nextCursorOf(source, queried) };
}

/**
 * The one item whose gsi1 keys are exactly these, or undefined: how a secret presented whole (an API key, an OAuth
 * token) finds its item by its hash.
 */
export async function itemAtGsi1({ gsi1pk, gsi1sk }: { gsi1pk: string; gsi1sk: string }): Promise<Record<string, unknown> | undefined> {
  const { Items } = await dynamo.send(
    new QueryCommand({ TableName: config.tableName, IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :sk', ExpressionAttributeValues: { ':pk': gsi1pk, ':sk': gsi1sk }, Limit: 1 }),
  );
  return Items?.[0];
}
/** A key range that ends before it starts (a window closed before it opens): it holds nothing, and DynamoDB refuses such a BETWEEN. */
const closedRange = ({ skBetween }: PageSource) => skBetween !== undefined && skBetween[0] > skBetween[1];

/** Every item of a small, bounded collection (a catalog, not a growing list), optionally only some attributes. */
export async function queryAll(source: PageSource, attributes?: string[]): Promise<Record<string, unknown>[]> {
  if (closedRange(source)) return [];
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
export async function countItems(source: PageSource, after?: Record<string, unknown>): Promise<number> {
  const query = { ...baseQuery(source), Select: 'COUNT' as const };
  let count = 0;
  let startKey: Record<string, unknown> | undefined = after;
  do {
    const result = await dynamo.send(new QueryCommand({ ...query, ExclusiveStartKey: startKey }));
    count += result.Count ?? 0;
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return count;
}

/** A cursor's position in its source's sort order: the value of the source's sort key there. */
export const sortKeyAt = ({ index }: PageSource, position: Record<string, unknown>): string => String(position[index ? indexKeyNames(index).sortKey : 'sk']);

/** Whether a cursor's position has left a moving window: everything after it (older) has too. */
function beforeWindow(source: PageSource, position: Record<string, unknown>): boolean {
  return Boolean(source.movingStart && source.skBetween && sortKeyAt(source, position) < source.skBetween[0]);
}

/**
 * A list page whose total is counted over its key range rather than read from a counter; with `remaining`, a page
 * reached by cursor counts only the items after the cursor's position (this page's and the rest), so a poller that
 * has caught up pays for what is new, not for the whole range again. With `small`, a first page that holds the whole
 * range is counted by its items, and the COUNT Query is sent only when more follow.
 */
export async function rangePage(
  source: PageSource,
  { page, limit, cursor }: PageRequest,
  { remaining = false, small = false }: { remaining?: boolean; small?: boolean } = {},
): Promise<{ items: Record<string, unknown>[]; totalCount: number; nextCursor: string | null }> {
  const startAfter = cursor === undefined ? undefined : await decodeCursor(source, cursor);
  if (closedRange(source)) return { items: [], totalCount: 0, nextCursor: null };
  if (small && startAfter === undefined && page === 1) {
    // A range that mostly fits one page (a lead's runs): page 1 read whole is its own count; past it, one COUNT Query.
    const first = await queryPage(source, 1, limit);
    const totalCount = first.lastKey ? await countItems(source) : first.items.length;
    return { items: first.items, totalCount, nextCursor: await nextCursorOf(source, first) };
  }
  const emptyPage = async (): Promise<QueriedPage> => ({ items: [], lastKey: undefined });
  if (startAfter === undefined && page > 1) {
    // A page number: counted first, so a page past the end reads nothing more, as on the lists with a counter.
    const totalCount = await countItems(source);
    const queried = (page - 1) * limit >= totalCount ? await emptyPage() : await queryPage(source, page, limit);
    return { items: queried.items, totalCount, nextCursor: await nextCursorOf(source, queried) };
  }
  // The window's start moved past the cursor: newest first, what was left of the list has left the window too; oldest
  // first, the whole window is after the cursor.
  const passed = startAfter !== undefined && beforeWindow(source, startAfter);
  const read = !passed ? queryPage(source, page, limit, startAfter) : source.ascending ? queryPage(source, 1, limit) : emptyPage();
  const [queried, totalCount] = await Promise.all([read, countItems(source, remaining && !passed ? startAfter : undefined)]);
  return { items: queried.items, totalCount, nextCursor: await nextCursorOf(source, queried) };
}
