import { clock } from '../clock';
import { ValidationError } from '../errors';
import type { Page, PageRequest } from '../pagination';
import { keys } from './keys';
import { readCounter } from './counters';
import { decodeCursor } from './cursors';
import { countedPage, cursorAfter, rangePage, sortKeyAt, type PageSource } from './query-page';
import { filteredPage } from './collection-page';
import { pageOfFiltered } from './match-page';
import { filterSignature } from '../filters';
import type { Collection } from './keys';
import { idsSince, lastIdAt } from './retention';

/**
 * Sync (`updatedSince` on every list): each listed entity's item carries `gsi6pk`, its collection's change log, and
 * the changes index (gsi6) sorts it by its own `updatedAt`. Every write that moves `updatedAt` therefore moves the item
 * to the end of the log in the same write, a delete takes it out, and a Query from `updatedSince` ascending reads the
 * collection's changes oldest first, each record once, in its latest state.
 */
export { changeLogKey } from './keys';

/** Far past any timestamp: the upper end of a change log's range, as a cursor is bound to it. */
const END = '~';

/**
 * How old a change must be before sync answers it, in seconds (SYNC_SETTLE_SECONDS; 20 unless set). `updatedAt` is
 * stamped before its write commits, a transaction that meets another is retried with the same stamp, and the changes
 * index follows the table a moment later: a change stamped before another can become visible after it. A cursor moves
 * past every change it answered, so a change answered before its elders were all visible could leave one behind it
 * for good. Answering only changes older than the longest a write can take to show (a function's 15 s timeout and the
 * index's lag) leaves none behind. Local servers settle 2 s: DynamoDB Local's indexes follow at once.
 */
export const SYNC_SETTLE_MS = settleMs(process.env.SYNC_SETTLE_SECONDS ?? '20');

function settleMs(seconds: string): number {
  const value = Number(seconds);
  if (seconds.trim() === '' || !Number.isFinite(value) || value < 0) throw new Error('SYNC_SETTLE_SECONDS must be a number of seconds, 0 or more');
  return value * 1000;
}

/**
 * The latest change time sync answers now: changes stamped after it may still have elders to show. Now is the later of
 * the system's time and the clock a run's writes are stamped by (shared/clock.ts): the same deployed, while a test's
 * manual clock runs ahead of the system's through a run's waits.
 */
const settledUntil = () => new Date(Math.max(Date.now(), clock.now()) - SYNC_SETTLE_MS).toISOString();

export interface ChangeLog {
  /**
   * The collection's change log partition (`changeLogKey(...).gsi6pk`); or, for records never changed and sorted by
   * when they were written (a lead's activities), their own key range from a time, which no index copy has to keep.
   */
  partition: string | ((updatedSince: string, settledUntil: string) => PageSource);
  /** The list's other filters, by query parameter: none may be combined with updatedSince (400 naming updatedSince). */
  filters?: Record<string, unknown>;
  /**
   * A sub-collection's counter, which exists exactly while its owner does (a company's notes): read with the page,
   * so an unknown owner still answers 404 (its absence comes back as an undefined totalCount).
   */
  ownerCounter?: { organizationId: string; name: string };
}

export interface RawPage {
  items: Record<string, unknown>[];
  totalCount: number | undefined;
  nextCursor: string | null;
}

/** The change log's page source from `updatedSince` to the settled changes' end, oldest change first. */
export const changeLogSource = (partition: string, updatedSince: string, until: string): PageSource => ({ index: 'gsi6', pk: partition, skBetween: [updatedSince, until], openEnd: END, ascending: true });

/**
 * The sync source of an immutable, time-ordered log (`<kind>_<ULID>` ids of when each record occurred), from
 * `updatedSince` to the settled records' end: a log written after the fact (events and audit entries by the stream
 * consumer, a webhook's attempt once it is answered) can show a record after a later one, as the change log can.
 * `range(from, to)` builds the log's key range between two ids; a cursor is bound to the range's open end.
 */
export function settledLogSource(kind: string, updatedSince: string, range: (fromId: string, toId: string) => PageSource): PageSource {
  const [from, open] = idsSince(kind, updatedSince);
  const settled = range(from, lastIdAt(kind, Date.parse(settledUntil())));
  return { ...settled, openEnd: range(from, open).skBetween![1], ascending: true };
}

/** With another filter of the list, sync answers 400: each filter combination would need its own change log. */
export function refuseFilters(filters: Record<string, unknown> = {}) {
  const combined = Object.entries(filters)
    .filter(([, value]) => value !== undefined)
    .map(([name]) => name);
  if (combined.length) throw new ValidationError([{ path: 'updatedSince', message: `updatedSince cannot be combined with ${combined.join(', ')}` }]);
}

/**
 * A page of the changes at or after `updatedSince`: the change log's Query and a COUNT Query of the same range
 * (totalCount: the records changed since, or from the cursor on), sent together, and the owner's counter with them for a
 * sub-collection.
 * `nextCursor` is never null once an item was seen: after the last change it is where the next poll resumes, so a
 * poller walks every change once. An empty first page answers null: poll again with the same updatedSince. Another
 * filter of the list answers 400 naming updatedSince.
 */
export async function changesPage(updatedSince: string, { partition, filters, ownerCounter }: ChangeLog, request: PageRequest): Promise<RawPage> {
  refuseFilters(filters);
  const until = settledUntil();
  const source = typeof partition === 'string' ? changeLogSource(partition, updatedSince, until) : partition(updatedSince, until);
  const [found, owner] = await Promise.all([resumablePage(source, request), ownerCounter ? readCounter(ownerCounter.organizationId, ownerCounter.name) : 0]);
  return owner === undefined ? { items: [], totalCount: undefined, nextCursor: null } : found;
}

/**
 * A page of an ascending key range with its count (a COUNT Query sent with the page's Query): the range's on a first
 * page, and from the cursor on for a page reached by cursor (what is left to read, this page included), so a poll that
 * finds nothing new counts nothing old. Its `nextCursor`, once an item was seen, is never null: after the last item it
 * is where the next poll resumes.
 */
export async function resumablePage(source: PageSource, { page, limit, cursor }: PageRequest): Promise<RawPage & { totalCount: number }> {
  // Nothing after the place to start from has settled yet (the range ends before updatedSince, or before a cursor given
  // a moment ago or by a clock a little ahead): nothing to answer, and the poller keeps its place.
  const position = cursor === undefined ? undefined : await decodeCursor(source, cursor);
  const end = source.skBetween?.[1];
  const from = position ? sortKeyAt(source, position) : source.skBetween?.[0];
  if (end !== undefined && from !== undefined && from > end) return { items: [], totalCount: 0, nextCursor: cursor ?? null };
  const found = await rangePage(source, { page, limit, cursor }, { remaining: true });
  const last = found.items.at(-1);
  return { ...found, nextCursor: found.nextCursor ?? (last ? await cursorAfter(source, last) : (cursor ?? null)) };
}

/** The list's page: its changes when the request has `updatedSince` (refusing other filters), otherwise `list(page)`. */
export async function listOrChanges<P extends RawPage>(request: PageRequest, log: ChangeLog, list: (page: PageRequest) => Promise<P>): Promise<RawPage | P> {
  if (request.updatedSince === undefined) return list({ page: request.page, limit: request.limit, cursor: request.cursor });
  return changesPage(request.updatedSince, log, request);
}

/** A collection of an organization whose counter counts it, and the change log its records are written to. */
export interface CountedCollection {
  organizationId: string;
  collection: Collection;
  /** The name of its counter item. */
  counter: string;
  /** The name of its change log (`changeLogKey`). */
  changes: string;
  filters?: ChangeLog['filters'];
  ownerCounter?: ChangeLog['ownerCounter'];
  /** A sub-collection's: the error of an owner that is not there, whose counter a page or its changes found absent. */
  ownerNotFound?: () => Error;
}

/** A page of a counted collection, newest first, or its changes with `updatedSince`, as records. */
export async function countedCollectionPage<T>(request: PageRequest, { organizationId, collection, counter, changes, ownerNotFound, ...log }: CountedCollection, fromItem: (item: Record<string, unknown>) => T): Promise<Page<T>> {
  const changeLog = { partition: keys.changeLog(organizationId, changes).gsi6pk, ...log };
  const { items, totalCount, nextCursor } = await listOrChanges(request, changeLog, (at) => countedPage(collection, organizationId, counter, at));
  if (ownerNotFound && totalCount === undefined) throw ownerNotFound();
  return { items: items.map(fromItem), totalCount: totalCount ?? 0, page: request.page, limit: request.limit, nextCursor };
}

/**
 * A collection with an index partition and a counter for each of its filters alone and for none (leads by status, by
 * company and by assignee). Two or more together have neither: the partition of the first of them `within` names is
 * read whole and kept where each other filter's attribute holds its value, counted over what it reads (a company's
 * leads of one status).
 */
export interface FilterCountedCollection<F extends Record<keyof F, string | number | undefined>> {
  organizationId: string;
  /** The name of its change log (`changeLogKey`). */
  changes: string;
  filters: F;
  /**
   * The filters whose partition holds the records of several, narrowest first; every filter but one is named here, so
   * any two given have one to read.
   */
  within: readonly (keyof F & string)[];
  source: (filters: Partial<F>) => PageSource;
  counter: (filters: Partial<F>) => string;
  /**
   * A range of the partitions' sort key a filter of the list asks for (`createdSince`: the ids from a time on), named
   * by its query parameter. No counter counts it, so a page of it is counted over the range (a COUNT Query sent with
   * the page's Query), as a window of the audit log is.
   */
  range?: { filter: string; between: [string, string] };
}

/** A page of a collection counted by filter, newest first, or its changes with `updatedSince`, as records. */
export async function filterCountedPage<F extends Record<keyof F, string | number | undefined>, T>(request: PageRequest, collection: FilterCountedCollection<F>, fromItem: (item: Record<string, unknown>) => T): Promise<Page<T>> {
  const { organizationId, filters, within, source, counter, range } = collection;
  const log = { partition: keys.changeLog(organizationId, collection.changes).gsi6pk, filters: range ? { ...filters, [range.filter]: range.between } : filters };
  const given = (Object.keys(filters) as (keyof F & string)[]).filter((name) => filters[name] !== undefined);
  const inside = given.length > 1 ? within.find((name) => given.includes(name)) : undefined;
  if (given.length > 1 && !inside) throw new Error(`No partition holds the records of ${given.join(' and ')}: name one in within`);
  const kept = given.filter((name) => name !== inside);
  const ranged = (only: Partial<F>): PageSource => (range ? { ...source(only), skBetween: range.between } : source(only));
  const listed = (at: PageRequest): Promise<RawPage> =>
    inside
      ? pageOfFiltered(ranged({ [inside]: filters[inside] } as Partial<F>), (item) => kept.every((name) => item[name] === filters[name]), kept.map((name) => `${name}=${filters[name]}`).join('&'), at)
      : range
        ? rangePage(ranged(filters), at)
        : countedPage(source(filters), organizationId, counter(filters), at);
  const { items, totalCount, nextCursor } = await listOrChanges(request, log, listed);
  return { items: items.map(fromItem), totalCount: totalCount ?? 0, page: request.page, limit: request.limit, nextCursor };
}

/** A small collection of an organization (a catalog), listed whole and filtered, and the change log its records are written to. */
export interface FilteredCollection {
  organizationId: string;
  collection: Collection;
  /** The name of its change log (`changeLogKey`). */
  changes: string;
  /** Each filter by its attribute: a record is listed when every filter given equals its attribute. */
  filters: Record<string, string | number | boolean | undefined>;
}

/** A filtered page of a catalog, newest first, with an exact totalCount (filteredPage), or its changes with `updatedSince`, as records. */
export async function filteredCollectionPage<T>(request: PageRequest, { organizationId, collection, changes, filters }: FilteredCollection, fromItem: (item: Record<string, unknown>) => T): Promise<Page<T>> {
  const given = Object.entries(filters).filter(([, value]) => value !== undefined);
  const keep = (item: Record<string, unknown>) => given.every(([attribute, value]) => item[attribute] === value);
  const log = { partition: keys.changeLog(organizationId, changes).gsi6pk, filters };
  const { items, totalCount, nextCursor } = await listOrChanges(request, log, (at) => filteredPage(collection, { keep, filter: filterSignature(filters) }, at));
  return { items: items.map(fromItem), totalCount: totalCount ?? 0, page: request.page, limit: request.limit, nextCursor };
}
