/**
 * Schemas shared by every route: ids, money, currencies, dates and list pagination.
 * Request bodies are strict objects: an unknown field is a 400 naming it (no silent typos).
 */
import { z } from '@hono/zod-openapi';
import type { Context, Env } from 'hono';
import type { Page } from '../services/pagination.js';
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

const PageHeadersSchema = z.object({
  'X-Has-More': z.enum(['true', 'false']).openapi({ description: '"true" when more items follow this page' }),
  'X-Next-Cursor': z.string().optional().openapi({ description: 'id to pass as starting_after for the next page (only when X-Has-More is true)' }),
  Link: z.string().optional().openapi({ description: 'RFC 8288 link to the next page, rel="next" (only when X-Has-More is true)' }),
});

/**
 * A list response: the body is a JSON array of the page's items (SPEC §4: "array of ..."), and
 * the pagination travels in headers (X-Has-More, X-Next-Cursor, Link rel="next").
 */
export function pageResponse<T extends z.ZodType>(description: string, item: T, name: string) {
  return { description, headers: PageHeadersSchema, content: { 'application/json': { schema: z.array(item).openapi(name) } } };
}

/** Answers a page: its items as the body, its position in the pagination headers. */
export function sendPage<E extends Env, U>(c: Context<E>, page: Page<U>) {
  c.header('X-Has-More', String(page.has_more));
  if (page.next_cursor !== null) {
    const next = new URL(c.req.url);
    next.searchParams.set('starting_after', page.next_cursor);
    c.header('X-Next-Cursor', page.next_cursor);
    c.header('Link', `<${next.pathname}${next.search}>; rel="next"`);
  }
  return c.json(page.data, 200);
}

export const IdParamSchema = z.object({ id: UuidSchema });

export const IdempotencyHeaderSchema = z.object({
  'idempotency-key': z.string().min(1).max(255).optional().openapi({ description: 'replays the stored response for 24 h' }),
});
