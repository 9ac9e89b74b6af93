/** Customer portal sessions as the API returns them (issue 32). */
import { z } from '@hono/zod-openapi';
import { TimestampSchema, UuidSchema } from './common.js';

const sessionFields = {
  id: UuidSchema,
  customer_id: UuidSchema,
  expires_at: TimestampSchema.openapi({ description: 'when the link stops working (PORTAL_SESSION_TTL_MINUTES after it was minted or renewed)' }),
  created_by: z.string().openapi({ description: 'who minted it: `admin:<sub>`, `api_key:<fingerprint>` or `customer:<id>`', example: 'admin:ops@example.com' }),
  created_at: TimestampSchema,
};

export const PortalSessionSchema = z
  .object({
    ...sessionFields,
    url: z.string().openapi({
      description: 'the portal link to send the customer to: its last part is the session secret (only this answer carries it; the service keeps only its SHA-256)',
      example: 'https://billing.example.com/portal/01900000-0000-7000-8000-000000000000.q2H…',
    }),
    return_url: z.string().nullable().openapi({ description: 'where the portal\'s "Back" link leads' }),
  })
  .openapi('PortalSession');
export type PortalSessionView = z.infer<typeof PortalSessionSchema>;

export const PortalSessionStateSchema = z
  .object({ ...sessionFields, revoked_at: TimestampSchema.nullable() })
  .openapi('PortalSessionState');
export type PortalSessionStateView = z.infer<typeof PortalSessionStateSchema>;
