export interface Page<T> {
  items: T[];
  totalCount: number;
  page: number;
  limit: number;
}

/** The list envelope: items under a named key plus totalPages, currentPage and totalCount. */
export function pageEnvelope<K extends string, T>(key: K, { items, totalCount, page, limit }: Page<T>) {
  return {
    [key]: items,
    totalPages: Math.ceil(totalCount / limit),
    currentPage: page,
    totalCount,
  } as { [P in K]: T[] } & { totalPages: number; currentPage: number; totalCount: number };
}
