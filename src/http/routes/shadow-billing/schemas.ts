/** Request schemas of the shadow billing routes. */
import { z } from '@hono/zod-openapi';
import { DateTimeSchema, UuidSchema } from '../../../schemas/common.js';
import { ShadowCandidateSchema, ShadowScopeSchema } from '../../../schemas/shadow-billing.js';
import { PaginationQuerySchema } from '../../schemas.js';

export const AttachShadowSchema = z.strictObject({ candidate: ShadowCandidateSchema, scope: ShadowScopeSchema }).openapi('AttachShadow');

export const ListShadowAttachmentsQuerySchema = PaginationQuerySchema.extend({
  status: z.enum(['attached', 'detached']).optional().openapi({ description: 'only attachments in this status' }),
});

export const ShadowVarianceQuerySchema = z.object({
  from: DateTimeSchema.openapi({ description: 'periods starting at or after this instant' }),
  to: DateTimeSchema.openapi({ description: 'periods starting before this instant (after from)' }),
  attachment_id: UuidSchema.optional().openapi({ description: 'one attachment’s results (default: every attachment)' }),
  customer_id: UuidSchema.optional().openapi({ description: 'one customer (default: every customer)' }),
  format: z.enum(['json', 'csv']).optional().openapi({ description: 'csv for a CSV table (also with Accept: text/csv); default json' }),
});
