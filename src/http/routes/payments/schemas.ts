/**
 * The requests of the payments routes: bodies, queries and path parameters, validated before a handler runs.
 */
import { z } from '@hono/zod-openapi';
import { CREDIT_NOTE_REASONS } from '../../../schemas/invoicing.js';
import { PaymentStatusSchema } from '../../../schemas/payments.js';
import { UuidSchema, PositiveMoneySchema } from '../../../schemas/common.js';
import { PaginationQuerySchema } from '../../schemas.js';

export const AttachSchema = z
  .strictObject({
    processor_payment_method_id: z.string().trim().min(1, 'must not be empty').max(255).openapi({ description: "the processor's payment method id", example: 'pm_card_visa' }),
    set_default: z.boolean().optional().openapi({ description: 'make it the default; the first method attached always is' }),
  })
  .openapi('AttachPaymentMethodRequest');

export const PaymentIntentSchema = z
  .strictObject({
    payment_method_id: UuidSchema.optional().openapi({ description: "one of the payer's payment methods; default: its default method" }),
    capture_method: z.enum(['automatic', 'manual']).optional().openapi({ description: 'manual authorises now and collects at capture (default automatic)' }),
  })
  .openapi('CreatePaymentIntentRequest');

export const RefundRequestSchema = z
  .strictObject({
    amount_nanos: PositiveMoneySchema.optional()
      .openapi({ description: 'a whole number of minor units of the currency; default: all the payment has left' }),
    reason: z.enum(CREDIT_NOTE_REASONS).optional().openapi({ description: 'recorded on the credit note (default other)' }),
    payment_id: UuidSchema.optional().openapi({ description: "the payment to refund; default: the invoice's newest with money left" }),
  })
  .openapi('RefundInvoiceRequest');

export const ListDunningQuerySchema = PaginationQuerySchema.extend({
  status: z.enum(['Active', 'Resolved', 'Exhausted']).optional(),
  customer_id: UuidSchema.optional(),
  subscription_id: UuidSchema.optional(),
});

export const ListPaymentsQuerySchema = PaginationQuerySchema.extend({
  customer_id: UuidSchema.optional(),
  invoice_id: UuidSchema.optional(),
  status: PaymentStatusSchema.optional(),
});
