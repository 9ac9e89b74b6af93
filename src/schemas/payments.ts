/** The payment method schema, shared by the payment routes and the customer 360 view. */
import { z } from '@hono/zod-openapi';
import { TimestampSchema, UuidSchema } from './common.js';

export const PaymentMethodSchema = z
  .object({
    id: UuidSchema,
    customer_id: UuidSchema,
    processor_payment_method_id: z.string().openapi({ example: 'pm_card_visa' }),
    type: z.string().openapi({ example: 'card' }),
    brand: z.string().nullable().openapi({ example: 'visa' }),
    last4: z.string().nullable().openapi({ example: '4242' }),
    exp_month: z.number().int().nullable(),
    exp_year: z.number().int().nullable(),
    is_default: z.boolean().openapi({ description: 'the method invoices are charged to automatically' }),
    status: z.enum(['attached', 'detached']),
    detached_at: TimestampSchema.nullable(),
    created_at: TimestampSchema,
  })
  .openapi('PaymentMethod');
