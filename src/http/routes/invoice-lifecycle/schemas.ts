/**
 * The requests of the invoice-lifecycle routes: bodies, queries and path parameters, validated before a handler runs.
 */
import { z } from '@hono/zod-openapi';

export const PaySchema = z
  .strictObject({
    actor_id: z.string().min(1).max(200).optional().openapi({ description: 'who paid; default: the authenticated caller (its token subject or API key)' }),
    actor_name: z.string().min(1).max(200).optional().openapi({ description: "who paid, by name; default: none (null)" }),
  })
  .openapi('PayInvoice');
