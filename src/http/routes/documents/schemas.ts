/**
 * The requests of the documents routes: bodies, queries and path parameters, validated before a handler runs.
 */
import { z } from '@hono/zod-openapi';

export const TokenParamSchema = z.object({
  token: z.string().max(200).openapi({ param: { name: 'token', in: 'path' }, description: 'the signed part of hosted_invoice_url' }),
});
