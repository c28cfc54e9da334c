/** What a list request asks for: a page of `limit` items, or the `limit` items after a cursor. */
export interface PageRequest {
  page: number;
  limit: number;
  /** Where the previous answer's nextCursor left off; `page` is then only echoed back as currentPage. */
  cursor?: string;
  /** Sync: the collection's changes at or after this time (normalized ISO 8601), oldest first, instead of the list. */
  updatedSince?: string;
}

export interface Page<T> {
  items: T[];
  totalCount: number;
  page: number;
  limit: number;
  /** Where the next items start, or null after the last. */
  nextCursor: string | null;
}

/** The list envelope: items under a named key plus totalPages, currentPage, totalCount and nextCursor. */
export function pageEnvelope<K extends string, T>(key: K, { items, totalCount, page, limit, nextCursor }: Page<T>) {
  return {
    [key]: items,
    totalPages: Math.ceil(totalCount / limit),
    currentPage: page,
    totalCount,
    nextCursor,
  } as { [P in K]: T[] } & { totalPages: number; currentPage: number; totalCount: number; nextCursor: string | null };
}
