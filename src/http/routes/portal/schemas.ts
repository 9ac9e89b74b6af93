/** The requests of the customer portal routes: bodies, queries, forms and path parameters. */
import { z } from '@hono/zod-openapi';
import { UuidSchema } from '../../../schemas/common.js';

export const PortalTokenParamSchema = z.object({
  token: z.string().max(200).openapi({ param: { name: 'token', in: 'path' }, description: 'the last part of the portal link (the session id and its secret)' }),
});

export const PortalTokenIdParamSchema = PortalTokenParamSchema.extend({ id: UuidSchema.openapi({ param: { name: 'id', in: 'path' } }) });

export const MintPortalSessionSchema = z
  .object({
    return_url: z
      .url({ protocol: /^https?$/, message: 'must be an http(s) URL' })
      .max(2000)
      .optional()
      .openapi({ description: 'where the portal\'s "Back" link leads (your site)', example: 'https://example.com/account' }),
  })
  .strict()
  .openapi('MintPortalSessionRequest');

export const MintOwnPortalSessionSchema = MintPortalSessionSchema.extend({
  customer_id: UuidSchema.optional().openapi({ description: "whose portal: required with admin credentials; a customer token's own customer when left out" }),
})
  .strict()
  .openapi('MintOwnPortalSessionRequest');

export const PortalPageQuerySchema = z.object({
  notice: z
    .enum(['card_saved', 'setup_incomplete', 'setup_cancelled', 'cancel_scheduled'])
    .optional()
    .openapi({ description: 'what the page says on top after an action redirected to it' }),
});

export const SetupCompleteQuerySchema = z.object({
  session_id: z.string().min(1).max(255).openapi({ description: "the processor's checkout session id (filled in by the processor)" }),
});

export const PortalFormSchema = z
  .object({ form_token: z.string().max(100).openapi({ description: 'the form token of the portal page the form came from (issued with the page, accepted for an hour)' }) })
  .openapi('PortalForm');
