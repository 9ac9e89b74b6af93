/**
 * The requests of the invoice-lifecycle routes: bodies, queries and path parameters, validated before a handler runs.
 */
import { z } from '@hono/zod-openapi';
import { NonNegativeMoneySchema } from '../../../schemas/common.js';

/** The most characters of a manual payment's reference. */
export const MAX_PAYMENT_REFERENCE_LENGTH = 200;

export const PaySchema = z
  .strictObject({
    actor_id: z.string().min(1).max(200).optional().openapi({ description: 'who paid; default: the authenticated caller (its token subject or API key)' }),
    actor_name: z.string().min(1).max(200).optional().openapi({ description: "who paid, by name; default: none (null)" }),
    reference: z
      .string()
      .min(1)
      .max(MAX_PAYMENT_REFERENCE_LENGTH)
      .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), 'must have no control characters')
      .optional()
      .openapi({
        description: `what identifies the payment outside this system (a check number, a wire reference), 1-${MAX_PAYMENT_REFERENCE_LENGTH} characters; stored on the invoice (paid_by.reference) and in its invoice.paid audit entry`,
        example: 'wire 2026-0117-ACME',
      }),
    amount_nanos: NonNegativeMoneySchema.optional().openapi({
      description:
        "the amount paid, when the caller wants it checked: it must equal the invoice's amount_due_nanos (partial payments are not modelled), else 422 payment_amount_mismatch and nothing is recorded",
    }),
  })
  .openapi('PayInvoice');
