/**
 * The requests of the documents routes: bodies, queries and path parameters, validated before a handler runs.
 */
import { z } from '@hono/zod-openapi';

export const TokenParamSchema = z.object({
  token: z.string().max(200).openapi({ param: { name: 'token', in: 'path' }, description: 'the signed part of hosted_invoice_url' }),
});

export const HostedPageQuerySchema = z.object({
  checkout: z
    .enum(['complete'])
    .optional()
    .openapi({ description: "`complete` when the processor's checkout page sent the payer back after paying: the page says the payment is being confirmed until it is" }),
});

export const HostedPayFormSchema = z
  .object({
    form_token: z.string().max(100).openapi({ description: 'the form token of the page the form came from (issued with the page, accepted for an hour)' }),
    method: z.enum(['card_on_file', 'checkout']).openapi({
      description: "`card_on_file` charges the payer's default payment method; `checkout` opens the processor's checkout page for the amount due",
    }),
  })
  .openapi('HostedPayForm');

export const HostedLinkSchema = z
  .object({
    hosted_invoice_url: z.string().openapi({ description: 'a new link to the hosted invoice page, valid HOSTED_LINK_TTL_DAYS from now (the invoice clock)' }),
    expires_at: z.string().openapi({ description: 'when the new link expires (ISO 8601)', example: '2026-03-01T00:00:00.000Z' }),
  })
  .openapi('HostedLink');
