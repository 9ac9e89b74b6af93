/**
 * Keyset pagination shared by every list: newest first. UUIDv7 ids order by creation, so the page
 * after `starting_after` holds the items created before it, and a `created_*` range narrows by the
 * stored created_at (the clock time for objects on a test clock).
 */

export interface PageQuery {
  limit: number;
  /** The last item of the previous page: the next page holds older items. */
  starting_after?: string | undefined;
  /** created_at at or after this instant. */
  created_gte?: string | Date | undefined;
  /** created_at before this instant. */
  created_lt?: string | Date | undefined;
}

/** Every list's order: newest first. */
export const NEWEST_FIRST = { id: 'desc' } as const;

const instant = (value: string | Date): Date => (value instanceof Date ? value : new Date(value));

/** Rows created before the cursor, in id order. */
export const olderThan = (startingAfter: string | undefined) => (startingAfter === undefined ? {} : { id: { lt: startingAfter } });

/** The `created_*` range on a created_at column, or no condition. */
export function createdWithin(query: Pick<PageQuery, 'created_gte' | 'created_lt'>): { createdAt?: { gte?: Date; lt?: Date } } {
  if (query.created_gte === undefined && query.created_lt === undefined) return {};
  return {
    createdAt: {
      ...(query.created_gte === undefined ? {} : { gte: instant(query.created_gte) }),
      ...(query.created_lt === undefined ? {} : { lt: instant(query.created_lt) }),
    },
  };
}

/** The cursor and the created range of one page (the caller adds its filters, NEWEST_FIRST and `take: limit + 1`). */
export const pageWhere = (query: PageQuery) => ({ ...olderThan(query.starting_after), ...createdWithin(query) });
