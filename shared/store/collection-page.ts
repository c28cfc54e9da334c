import type { PageRequest } from '../pagination';
import { decodeCursor, encodeCursor } from './cursors';
import { queryAll, type PageSource } from './query-page';

export interface FilteredPage {
  items: Record<string, unknown>[];
  /** Exact: the items of the whole collection that pass the filter. */
  totalCount: number;
  nextCursor: string | null;
}

/**
 * A list page of a small collection (a catalog of tens to hundreds of items per organization), filtered on any
 * attributes: the whole collection is read in one Query (more only past DynamoDB's 1 MB page), filtered and sliced
 * here, so `totalCount` is exact under every filter without a counter per filter combination. Newest first (the sort
 * key descending) unless the source says ascending. `filter` names the filters applied (`isActive=true`): a cursor
 * belongs to one list and one set of filters, and any other answers 400.
 */
export async function filteredPage(
  source: PageSource,
  { keep, filter }: { keep: (item: Record<string, unknown>) => boolean; filter: string },
  { page, limit, cursor }: PageRequest,
): Promise<FilteredPage> {
  // The filters are part of the list a cursor is signed for (only the cursor's binding reads this source).
  const list: PageSource = { ...source, skPrefix: `${source.skPrefix ?? ''}?${filter}` };
  const sk = (item: Record<string, unknown>) => String(item.sk);
  const ascending = source.ascending ?? false;
  const items = (await queryAll(source)).filter(keep);
  if (!ascending) items.reverse();
  let start = (page - 1) * limit;
  if (cursor !== undefined) {
    const after = String((await decodeCursor(list, cursor)).sk);
    const index = items.findIndex((item) => (ascending ? sk(item) > after : sk(item) < after));
    start = index < 0 ? items.length : index;
  }
  const pageItems = items.slice(start, start + limit);
  const last = pageItems[pageItems.length - 1];
  const more = start + limit < items.length;
  return { items: pageItems, totalCount: items.length, nextCursor: more && last ? await encodeCursor(list, { pk: last.pk, sk: last.sk }) : null };
}
