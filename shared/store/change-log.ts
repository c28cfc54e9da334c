import { ValidationError } from '../errors';
import type { PageRequest } from '../pagination';
import { keys } from './keys';
import { readCounter } from './counters';
import { cursorAfter, rangePage, type PageSource } from './query-page';

/**
 * Sync (`updatedSince` on every list): each listed entity's item carries `gsi6pk`, its collection's change log, and
 * the changes index (gsi6) sorts it by its own `updatedAt`. Every write that moves `updatedAt` therefore moves the item
 * to the end of the log in the same write, a delete takes it out, and a Query from `updatedSince` ascending reads the
 * collection's changes oldest first, each record once, in its latest state.
 */
export { changeLogKey } from './keys';

/** Far past any timestamp: the upper end of a change log's range. */
const END = '~';

export interface ChangeLog {
  /**
   * The collection's change log partition (`changeLogKey(...).gsi6pk`); or, for records never changed and sorted by
   * when they were written (a lead's activities), their own key range from a time, which no index copy has to keep.
   */
  partition: string | ((updatedSince: string) => PageSource);
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

/** The change log's page source from `updatedSince` on, oldest change first. */
export const changeLogSource = (partition: string, updatedSince: string): PageSource => ({ index: 'gsi6', pk: partition, skBetween: [updatedSince, END], ascending: true });

/** With another filter of the list, sync answers 400: each filter combination would need its own change log. */
export function refuseFilters(filters: Record<string, unknown> = {}) {
  const combined = Object.entries(filters)
    .filter(([, value]) => value !== undefined)
    .map(([name]) => name);
  if (combined.length) throw new ValidationError([{ path: 'updatedSince', message: `updatedSince cannot be combined with ${combined.join(', ')}` }]);
}

/**
 * A page of the changes at or after `updatedSince`: the change log's Query and a COUNT Query of the same range
 * (totalCount: the records changed since), sent together, and the owner's counter with them for a sub-collection.
 * `nextCursor` is never null once an item was seen: after the last change it is where the next poll resumes, so a
 * poller walks every change once. An empty first page answers null: poll again with the same updatedSince. Another
 * filter of the list answers 400 naming updatedSince.
 */
export async function changesPage(updatedSince: string, { partition, filters, ownerCounter }: ChangeLog, request: PageRequest): Promise<RawPage> {
  refuseFilters(filters);
  const source = typeof partition === 'string' ? changeLogSource(partition, updatedSince) : partition(updatedSince);
  const [found, owner] = await Promise.all([resumablePage(source, request), ownerCounter ? readCounter(ownerCounter.organizationId, ownerCounter.name) : 0]);
  return owner === undefined ? { items: [], totalCount: undefined, nextCursor: null } : found;
}

/**
 * A page of an ascending key range with the range's count (a COUNT Query sent with the page's Query), whose
 * `nextCursor`, once an item was seen, is never null: after the last item it is where the next poll resumes.
 */
export async function resumablePage(source: PageSource, { page, limit, cursor }: PageRequest): Promise<RawPage & { totalCount: number }> {
  const found = await rangePage(source, { page, limit, cursor });
  const last = found.items.at(-1);
  return { ...found, nextCursor: found.nextCursor ?? (last ? cursorAfter(source, last) : (cursor ?? null)) };
}

/** The list's page: its changes when the request has `updatedSince` (refusing other filters), otherwise `list(page)`. */
export async function listOrChanges<P extends RawPage>(request: PageRequest, log: ChangeLog, list: (page: PageRequest) => Promise<P>): Promise<RawPage | P> {
  if (request.updatedSince === undefined) return list({ page: request.page, limit: request.limit, cursor: request.cursor });
  return changesPage(request.updatedSince, log, request);
}
