/**
 * The requests of the invoices routes: bodies, queries and path parameters, validated before a handler runs.
 */
import { z } from '@hono/zod-openapi';
import { compareQuantity, parseQuantity, ZERO_QUANTITY } from '../../../core/index.js';
import { CurrencySchema, MoneySchema, UuidSchema, PositiveMoneySchema, NonNegativeMoneySchema } from '../../../schemas/common.js';
import { CreditNoteReasonSchema, InvoiceStatusSchema } from '../../../schemas/invoicing.js';
import { PaginationQuerySchema } from '../../schemas.js';

const DescriptionSchema = z.string().trim().min(1, 'must not be empty').max(500);

const QuantitySchema = z
  .string()
  .max(40, { abort: true })
  .regex(/^(0|[1-9][0-9]*)(\.[0-9]+)?$/, { message: 'must be a decimal string such as "1" or "2.5"', abort: true })
  .refine((v) => compareQuantity(parseQuantity(v), ZERO_QUANTITY) > 0, 'must be greater than zero')
  .openapi({ example: '1' });

export const AddLineItemSchema = z
  .strictObject({
    description: DescriptionSchema,
    amount_nanos: MoneySchema.openapi({ description: 'the line amount; negative for an adjustment such as a discount' }),
    quantity: QuantitySchema.optional().openapi({ description: 'default "1"' }),
    unit_amount_nanos: MoneySchema.optional().openapi({
      description: 'when given, amount_nanos must equal quantity × unit_amount_nanos (rounded HalfEven to a raw unit)',
    }),
  })
  .openapi('AddInvoiceLineItemRequest');

export const ApplyCreditSchema = z
  .strictObject({
    amount_nanos: PositiveMoneySchema.openapi({ description: 'the credit, > 0; stored as a credit line of −amount_nanos' }),
    description: DescriptionSchema,
  })
  .openapi('ApplyInvoiceCreditRequest');

export const IssueCreditNoteSchema = z
  .strictObject({
    amount_nanos: PositiveMoneySchema.openapi({ description: 'the amount credited, > 0 and at most total_nanos − credited_nanos' }),
    refund_amount_nanos: NonNegativeMoneySchema.optional().openapi({
      description: 'the part refunded through the payment processor, in whole minor units; at most what its payments collected and have not refunded',
    }),
    credit_amount_nanos: NonNegativeMoneySchema.optional().openapi({
      description: "the part put on the customer's credit balance in the invoice's currency, spent automatically by its next invoices in that currency",
    }),
    out_of_band_amount_nanos: NonNegativeMoneySchema.optional().openapi({ description: 'the part given back outside the service (recorded only)' }),
    reason: CreditNoteReasonSchema,
    memo: z.string().trim().max(1000).nullable().optional(),
  })
  .openapi('IssueCreditNoteRequest');

export const ListInvoicesQuerySchema = PaginationQuerySchema.extend({
  customer_id: UuidSchema.optional(),
  status: InvoiceStatusSchema.optional(),
  subscription_id: UuidSchema.optional().openapi({ description: 'invoices with a line of this subscription' }),
  currency: CurrencySchema.optional(),
  invoice_number: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(64)
    .optional()
    .openapi({ description: 'the invoice with this number (INV-######): a list of at most one', example: 'INV-000123' }),
});

export const ListCreditNotesQuerySchema = PaginationQuerySchema.extend({
  customer_id: UuidSchema.optional(),
  invoice_id: UuidSchema.optional(),
  currency: CurrencySchema.optional(),
  reason: CreditNoteReasonSchema.optional(),
});
