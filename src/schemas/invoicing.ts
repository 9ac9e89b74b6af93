/**
 * Invoices and credit notes as the API returns them (SPEC §2 Invoice). Amounts are exact raw units
 * (`*_nanos`); each display string next to one is that amount rounded once for display.
 */
import { z } from '@hono/zod-openapi';
import { BillingErrorSchema, CurrencySchema, DisplayAmountSchema, MetadataSchema, MoneySchema, TimestampSchema, UuidSchema } from './common.js';
import { minimumTrueUpFields, ratedLineFields } from './rating.js';


export const InvoiceStatusSchema = z.enum(['Draft', 'Open', 'Paid', 'Void']).openapi('InvoiceStatus');

/**
 * How a line was rated or taxed. Fee and usage lines carry the rated line (tiers, adjustments, package,
 * commitment, percentage); a minimum line its true-up (minimum, usage, proration); a late-usage line adds `adjustment`; a tax line its rate and taxed line; a spend_cap line the
 * alerts that withheld charges; manual and credit lines have none (null).
 */
export const InvoiceLineDetailSchema = z
  .object({
    ...ratedLineFields,
    adjustment: z
      .object({
        reason: z.enum(['late_usage']),
        service_period_start: TimestampSchema,
        service_period_end: TimestampSchema,
        meter_event_type: z.string().nullable(),
        billed_quantity: z.string().openapi({ description: 'the quantity billed for the period before this line' }),
        billed_amount_nanos: MoneySchema,
        rated_quantity: z.string().openapi({ description: 'the quantity of the period with the late events' }),
        rated_amount_nanos: MoneySchema,
      })
      .openapi({ description: 'a late-usage correction: what the period was billed and what it rates to with the late events' }),
    minimum_amount_nanos: minimumTrueUpFields.minimum_amount_nanos,
    usage_amount_nanos: minimumTrueUpFields.usage_amount_nanos,
    proration: minimumTrueUpFields.proration,
    rate_bps: z.number().int().openapi({ description: 'tax lines: the rate in basis points' }),
    taxable_line_id: UuidSchema.openapi({ description: 'tax lines: the line taxed' }),
    taxable_amount_nanos: MoneySchema.openapi({ description: 'tax lines: the amount taxed' }),
    alert_id: UuidSchema.openapi({ description: 'spend_cap lines: the binding HardLimit alert' }),
    threshold_nanos: MoneySchema,
    withheld_nanos: MoneySchema,
    alerts: z.array(z.object({ alert_id: UuidSchema, threshold_nanos: MoneySchema, charges_nanos: MoneySchema, withheld_nanos: MoneySchema })),
  })
  .partial()
  .catchall(z.unknown())
  .nullable()
  .openapi('InvoiceLineDetail', { additionalProperties: true });

export const InvoiceLineItemSchema = z
  .object({
    id: UuidSchema,
    kind: z.string().openapi({
      description:
        'fee | usage | minimum | manual | credit | tax | true_up | contract_fee | spend_cap; a minimum line is the true-up of a SKU\'s minimum spend; ' +
        'credit and spend_cap lines are negative, tax lines are flagged is_tax',
      example: 'fee',
    }),
    description: z.string(),
    sku_id: UuidSchema.nullable(),
    plan_id: UuidSchema.nullable(),
    subscription_id: UuidSchema.nullable(),
    customer_id: UuidSchema.nullable().openapi({ description: 'the account that incurred the charge, on consolidated invoices' }),
    customer_name: z.string().nullable(),
    quantity: z.string().openapi({ description: 'exact decimal quantity', example: '1' }),
    unit_amount_nanos: MoneySchema.nullable(),
    amount_nanos: MoneySchema,
    amount: DisplayAmountSchema('amount_nanos'),
    is_tax: z.boolean(),
    period_start: TimestampSchema.nullable(),
    period_end: TimestampSchema.nullable(),
    // The view type stays the stored JSON (unknown); the document publishes its shape.
    detail: InvoiceLineDetailSchema as z.ZodType<unknown>,
  })
  .openapi('InvoiceLineItem');

export type InvoiceLineView = z.infer<typeof InvoiceLineItemSchema>;

/** What an invoice in a list and a whole invoice share: everything but its line items. */
const invoiceFields = {
  id: UuidSchema,
  status: InvoiceStatusSchema,
  invoice_number: z.string().nullable().openapi({ description: 'INV-###### (gapless), assigned at finalization', example: 'INV-000042' }),
  customer_id: UuidSchema.openapi({ description: 'the account the invoice is addressed to' }),
  subscription_id: UuidSchema.nullable(),
  currency: CurrencySchema,
  billing_reason: z.string(),
  period_start: TimestampSchema.nullable(),
  period_end: TimestampSchema.nullable(),
  subtotal_nanos: MoneySchema.openapi({ description: 'sum of the lines that are neither tax nor credit (a spend_cap line included)' }),
  tax_nanos: MoneySchema.openapi({ description: 'sum of the tax lines' }),
  credits_applied_nanos: MoneySchema.openapi({
    description: 'the credit lines (kind credit) put on the invoice while it was a Draft, as a positive sum; already taken out of total_nanos. Same value as credit_lines_nanos',
  }),
  credit_lines_nanos: MoneySchema.openapi({
    description:
      'the clearer name of credits_applied_nanos: the sum of the credit lines on the invoice (added while a Draft), positive, already taken out of total_nanos. Not credit notes (see credit_notes_nanos)',
  }),
  total_nanos: MoneySchema.openapi({ description: 'subtotal + tax − credits applied, exact' }),
  credited_nanos: MoneySchema.openapi({ description: 'credited by credit notes after finalization (all their parts). Same value as credit_notes_nanos' }),
  credit_notes_nanos: MoneySchema.openapi({
    description:
      'the clearer name of credited_nanos: the sum of the credit notes issued against the invoice after finalization (all their parts; total_nanos is never changed by them). Not credit lines (see credit_lines_nanos)',
  }),
  due_reduced_nanos: MoneySchema.openapi({
    description: "the part of credited_nanos that reduced the amount due; the rest was refunded, put on the customer's credit balance or settled out of band",
  }),
  wallet_applied_nanos: MoneySchema.openapi({ description: 'credit wallet balance applied at finalization, before any charge' }),
  customer_balance_applied_nanos: MoneySchema.openapi({
    description: "the customer's credit balance (from credit notes) consumed at finalization, before the credit wallet and any charge",
  }),
  spend_cap_withheld_nanos: MoneySchema.openapi({
    description: 'charges above a HardLimit spend alert withheld at finalization (positive; the spend_cap lines carry minus this): never charged, already left out of total_nanos',
  }),
  amount_due_nanos: MoneySchema.openapi({
    description: 'what is (or, for a Draft, would be) left to pay: total − due_reduced − wallet_applied − customer_balance_applied for a Draft or an Open invoice, else 0; never negative',
  }),
  subtotal: DisplayAmountSchema('subtotal_nanos'),
  tax: DisplayAmountSchema('tax_nanos'),
  total: DisplayAmountSchema('total_nanos'),
  amount_due: DisplayAmountSchema('amount_due_nanos'),
  credited: DisplayAmountSchema('credited_nanos'),
  credit_lines: DisplayAmountSchema('credit_lines_nanos'),
  credit_notes: DisplayAmountSchema('credit_notes_nanos'),
  wallet_applied: DisplayAmountSchema('wallet_applied_nanos'),
  spend_cap_withheld: DisplayAmountSchema('spend_cap_withheld_nanos'),
  tax_adapter: z.string().nullable().openapi({ description: 'the adapter that computed the tax lines, e.g. "none" or "flat:2000"' }),
  due_at: TimestampSchema.nullable(),
  finalized_at: TimestampSchema.nullable(),
  paid_at: TimestampSchema.nullable(),
  paid_by: z
    .object({
      actor_id: z.string(),
      actor_name: z.string().nullable(),
      reference: z.string().nullable().openapi({ description: 'the reference a manual payment was recorded with (a check number, a wire reference); null when none was given' }),
    })
    .nullable(),
  voided_at: TimestampSchema.nullable(),
  billing_error: BillingErrorSchema,
  created_at: TimestampSchema,
  hosted_invoice_url: z.string().nullable().openapi({
    description:
      'a link to the invoice page (and its PDF) a payer can open and pay from without credentials; unguessable, it expires HOSTED_LINK_TTL_DAYS after due_at (410 after that; POST /admin/v1/invoices/{id}/hosted-link issues a new one); null for a Draft',
    example: 'https://billing.example.com/hosted/invoices/0192…',
  }),
  metadata: MetadataSchema,
};

/** An invoice in a list: the summary, without line items (read one invoice for its lines). */
export const InvoiceSummarySchema = z
  .object({ ...invoiceFields, line_item_count: z.number().int().openapi({ description: 'how many line items the invoice has (tax lines included)' }) })
  .openapi('InvoiceSummary');

export type InvoiceSummaryView = z.infer<typeof InvoiceSummarySchema>;

export const InvoiceSchema = z
  .object({ ...invoiceFields, line_items: z.array(InvoiceLineItemSchema) })
  .openapi('Invoice');

export type InvoiceView = z.infer<typeof InvoiceSchema>;

export const CREDIT_NOTE_REASONS = ['duplicate', 'fraudulent', 'order_change', 'product_unsatisfactory', 'other'] as const;
export const CreditNoteReasonSchema = z.enum(CREDIT_NOTE_REASONS);
export type CreditNoteReason = z.infer<typeof CreditNoteReasonSchema>;

export const CreditNoteSchema = z
  .object({
    id: UuidSchema,
    number: z.string().openapi({ description: 'CN-###### (gapless)', example: 'CN-000001' }),
    credit_note_number: z.string().openapi({ description: 'the same as number, named like an invoice\'s invoice_number', example: 'CN-000001' }),
    invoice_id: UuidSchema,
    customer_id: UuidSchema,
    currency: CurrencySchema,
    amount_nanos: MoneySchema,
    amount: DisplayAmountSchema('amount_nanos'),
    due_reduction_nanos: MoneySchema.openapi({ description: 'the part that reduced what the invoice still owes' }),
    refund_amount_nanos: MoneySchema.openapi({ description: 'the part refunded through the payment processor' }),
    credit_amount_nanos: MoneySchema.openapi({ description: "the part put on the customer's credit balance (spent by its next invoices in the currency)" }),
    out_of_band_amount_nanos: MoneySchema.openapi({ description: 'the part given back outside the service (recorded only)' }),
    reason: CreditNoteReasonSchema,
    memo: z.string().nullable(),
    source_invoice_id: UuidSchema.nullable().openapi({
      description: "the credit invoice whose credit this note applies (a downgrade's proration credit, reason order_change), or null",
    }),
    created_at: TimestampSchema,
  })
  .openapi('CreditNote');

export type CreditNoteView = z.infer<typeof CreditNoteSchema>;
