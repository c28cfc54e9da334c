import type { PageRequest } from '../pagination';
import { decodeCursor, encodeCursor } from './cursors';
import { queryAll, type PageSource } from './query-page';

export interface MatchPage<T> {
  items: T[];
  /** Exact: every match, each counted once. */
  totalCount: number;
  nextCursor: string | null;
}

/**
 * A page of a search's matches, all read already (a search reads its whole key range in one Query): each id once,
 * newest first (ids are ULIDs), sliced by `page` or after a cursor's id. A cursor holds the last id it answered, so
 * a later page never repeats a match, whatever was added meanwhile. `list` binds the cursor to the search (its
 * partition, range and filters): any other search answers 400 INVALID_CURSOR.
 */
export async function pageOfMatches<T>(matches: T[], idOf: (match: T) => string, list: PageSource, { page, limit, cursor }: PageRequest): Promise<MatchPage<T>> {
  const byId = new Map<string, T>();
  for (const match of matches) if (!byId.has(idOf(match))) byId.set(idOf(match), match);
  const ids = [...byId.keys()].sort().reverse();
  let start = (page - 1) * limit;
  if (cursor !== undefined) {
    const after = String((await decodeCursor(list, cursor)).id);
    const index = ids.findIndex((id) => id < after);
    start = index < 0 ? ids.length : index;
  }
  const pageIds = ids.slice(start, start + limit);
  const last = pageIds[pageIds.length - 1];
  const more = start + limit < ids.length;
  return { items: pageIds.map((id) => byId.get(id)!), totalCount: ids.length, nextCursor: more && last ? await encodeCursor(list, { id: last }) : null };
}

/**
 * A page of a small partition's items that pass `keep` (a company's leads of one status, a lead's inquiries of one
 * source, a lead's or thread's messages of one status): the partition is read whole in one Query, so the count is
 * exact, and paged as matches are. `filter` names what `keep` keeps: a cursor is bound to it as well as the partition.
 */
export async function pageOfFiltered(source: PageSource, keep: (item: Record<string, unknown>) => boolean, filter: string, request: PageRequest): Promise<MatchPage<Record<string, unknown>>> {
  const matches = (await queryAll(source)).filter(keep);
  return pageOfMatches(matches, (item) => String(item.id), { ...source, skPrefix: `?${filter}` }, request);
}
