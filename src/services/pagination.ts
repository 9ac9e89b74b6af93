/** Cursor pagination over UUIDv7 ids, newest first, shared by every list. */

/** One page of a list: the items, and where the next page starts. */
export interface Page<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/** Builds a page from rows fetched with `take: limit + 1`, newest first (src/db/pages.ts). */
export function toPage<T extends { id: string }, U>(rows: T[], limit: number, map: (row: T) => U): Page<U> {
  const hasMore = rows.length > limit;
  const items = hasMore ? rows.slice(0, limit) : rows;
  return { data: items.map(map), has_more: hasMore, next_cursor: hasMore ? items[items.length - 1]!.id : null };
}
