/**
 * What every route module uses to declare and answer requests: the request and response shapes of
 * the OpenAPI document, list pages, the caller's audit context, and the one formatter of zod issues.
 */
import { z } from '@hono/zod-openapi';
import type { Context, Env } from 'hono';
import type { Actor } from '../services/audit.js';
import type { Page } from '../services/pagination.js';
import { actorOf } from './actor.js';
import type { AppEnv } from './context.js';
import { ApiError } from './errors.js';
import { IdempotencyHeaderSchema } from './schemas.js';

/**
 * The request of a mutation: a JSON body (required unless `required` is false) and the
 * Idempotency-Key every mutation accepts.
 */
export const mutationRequest = <T extends z.ZodType, R extends boolean = true>(schema: T, required: R = true as R) =>
  ({ headers: IdempotencyHeaderSchema, body: { required, content: { 'application/json': { schema } } } }) as const;

/** A JSON response. */
export const jsonResponse = <T extends z.ZodType>(description: string, schema: T) => ({ description, content: { 'application/json': { schema } } });

/** The pagination headers of every list response, components of the document (registered by registerPageHeaders). */
export const PAGE_HEADERS = {
  'X-Has-More': { description: '"true" when more items follow this page', required: true, schema: { type: 'string' as const, enum: ['true', 'false'] } },
  'X-Next-Cursor': { description: 'id to pass as starting_after for the next page (only when X-Has-More is true)', required: false, schema: { type: 'string' as const } },
  Link: { description: 'RFC 8288 link to the next page, rel="next" (only when X-Has-More is true)', required: false, schema: { type: 'string' as const } },
};

const pageHeaders = Object.fromEntries(Object.keys(PAGE_HEADERS).map((name) => [name, { $ref: `#/components/headers/${name}` }]));

const lists = new Map<string, z.ZodType>();

/**
 * A list response: the body is a JSON array of the page's items (SPEC §4: "array of ..."), and
 * the pagination travels in headers (X-Has-More, X-Next-Cursor, Link rel="next").
 */
export function pageResponse<T extends z.ZodType>(description: string, item: T, name: string) {
  // One named array per item schema, however many lists answer with it.
  const list = (lists.get(name) as z.ZodArray<T> | undefined) ?? z.array(item).openapi(name);
  lists.set(name, list);
  return { description, headers: pageHeaders, content: { 'application/json': { schema: list } } };
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

/** Records are already API-shaped; pages pass them through. */
export const asIs = <T>(record: T): T => record;

/** Actor and request id of the caller, for the audit entry a mutation writes. */
export const requestContext = (c: Context<AppEnv>): { actor: Actor; requestId: string } => ({ actor: actorOf(c), requestId: c.get('requestId') });

/** Whether `path` names a field absent from the object holding it in `input` (a required field left out). */
function isMissing(input: unknown, path: PropertyKey[]): boolean {
  if (path.length === 0) return false;
  let holder: unknown = input;
  for (const key of path.slice(0, -1)) {
    if (typeof holder !== 'object' || holder === null) return false;
    holder = (holder as Record<PropertyKey, unknown>)[key];
  }
  return typeof holder === 'object' && holder !== null && (holder as Record<PropertyKey, unknown>)[path[path.length - 1]!] === undefined;
}

/**
 * A failed zod parse as the 400 every route answers: one issue per offending field, an unknown
 * field reported under its own name rather than as an issue of the enclosing object. Given the
 * input that was parsed, a required field left out says "is required" (a field's own message,
 * such as "must be an email address", is for a value that is there but wrong).
 */
export function validationError(error: z.ZodError, input?: unknown): ApiError {
  const issues = error.issues.flatMap((issue) => {
    const path = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => ({ path: [...path, key].join('.'), message: 'is not a known field' }));
    if (issue.code === 'invalid_type' && input !== undefined && isMissing(input, issue.path)) return [{ path: path.join('.'), message: 'is required' }];
    return [{ path: path.join('.') || '(body)', message: issue.message }];
  });
  return new ApiError('validation_failed', `invalid request: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, { issues });
}
