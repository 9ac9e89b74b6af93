/**
 * Request shapes several resources share: path ids, list pagination, the Idempotency-Key header, names,
 * metadata updates and the optional reason of a state move. Each resource's own requests are in its
 * route folder (routes/<resource>/schemas.ts); resource schemas (what responses carry) live in
 * src/schemas, shared with the services. Request bodies are strict objects: an unknown field is a 400
 * naming it (no silent typos).
 */
import { z } from '@hono/zod-openapi';
import { DateTimeSchema, MetadataInputSchema, UuidSchema } from '../schemas/common.js';

/**
 * What every list accepts: lists are newest first, so the page after `starting_after` holds older
 * items; `created_gte` / `created_lt` narrow by created_at (clock time for objects on a test clock).
 */
export const PaginationQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50).openapi({ description: 'page size, 1-200 (default 50)' }),
  starting_after: UuidSchema.optional().openapi({ description: 'id of the last item of the previous page; the next page holds older items (lists are newest first)' }),
  created_gte: DateTimeSchema.optional().openapi({ description: 'only items created at or after this instant' }),
  created_lt: DateTimeSchema.optional().openapi({ description: 'only items created before this instant' }),
});

export const IdParamSchema = z.object({ id: UuidSchema });

export const IdempotencyHeaderSchema = z.object({
  'idempotency-key': z.string().min(1).max(255).optional().openapi({ description: 'replays the stored response for 24 h' }),
});

/** The name of a customer, product or plan. */
export const NameSchema = z.string().trim().min(1, 'must not be empty').max(200);

/** A metadata-only update (plans, subscriptions, invoices): the keys sent are merged in, a key set to null is removed. */
export const UpdateMetadataSchema = z.strictObject({ metadata: MetadataInputSchema }).openapi('UpdateMetadataRequest');

/** The body of a state move that takes only an optional reason (recorded in the audit log): pause, resume, cancel, void, terminate. */
export const ReasonSchema = z.strictObject({ reason: z.string().max(500).optional() }).openapi('ReasonRequest');
