/**
 * Schemas shared by every route: ids, money, currencies, dates and list pagination.
 * Request bodies are strict objects: an unknown field is a 400 naming it (no silent typos).
 */
import { z } from '@hono/zod-openapi';
import { isCurrency, MONEY_LIMIT } from '../core/index.js';

export const UuidSchema = z.string().uuid({ message: 'must be a UUID' }).openapi({ example: '01900000-0000-7000-8000-000000000000' });

/** Money: raw units at scale 12 as a decimal-integer string within DECIMAL(38,0). */
export const MoneySchema = z
  .string({ message: 'must be a decimal-integer string (raw units, scale 12), not a number' })
  // abort: zod 4 runs later checks after a failed one, and BigInt() of a non-integer throws.
  .regex(/^-?(0|[1-9][0-9]*)$/, { message: 'must be a decimal-integer string of raw units (scale 12), e.g. "1500000000000" for 1.50', abort: true })
  .refine((v) => {
    const abs = v.startsWith('-') ? v.slice(1) : v;
    return BigInt(abs) < MONEY_LIMIT;
  }, 'is out of range (at most 38 digits)')
  .openapi({ example: '1500000000000', description: 'raw units at scale 12 (1 unit = 1000000000000)' });

export const NonNegativeMoneySchema = MoneySchema.refine((v) => !v.startsWith('-'), 'must not be negative');

export const CurrencySchema = z
  .string()
  .regex(/^[A-Z]{3}$/, 'must be an upper-case ISO 4217 code')
  .refine(isCurrency, 'is not an ISO 4217 currency code')
  .openapi({ example: 'USD' });

export const IsoDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be an ISO 8601 date (YYYY-MM-DD)')
  .openapi({ example: '2026-01-31' });

export const PaginationQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50).openapi({ description: 'page size, 1-200 (default 50)' }),
  starting_after: UuidSchema.optional().openapi({ description: 'id of the last item of the previous page' }),
});

export type Pagination = z.infer<typeof PaginationQuerySchema>;

export function listSchema<T extends z.ZodType>(item: T, name: string) {
  return z
    .object({
      data: z.array(item),
      has_more: z.boolean(),
      next_cursor: z.string().nullable().openapi({ description: 'pass as starting_after to get the next page' }),
    })
    .openapi(name);
}

/** Builds a page from rows fetched with `take: limit + 1` in id (UUIDv7 = creation) order. */
export function toPage<T extends { id: string }, U>(rows: T[], limit: number, map: (row: T) => U) {
  const hasMore = rows.length > limit;
  const items = hasMore ? rows.slice(0, limit) : rows;
  return { data: items.map(map), has_more: hasMore, next_cursor: hasMore ? items[items.length - 1]!.id : null };
}

export const IdParamSchema = z.object({ id: UuidSchema });

export const IdempotencyHeaderSchema = z.object({
  'idempotency-key': z.string().min(1).max(255).optional().openapi({ description: 'replays the stored response for 24 h' }),
});
