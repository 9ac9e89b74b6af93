/**
 * Invoices and credit notes as the API returns them (SPEC §2 Invoice). Amounts are exact raw units
 * (`*_nanos`); each display string next to one is that amount rounded once for display.
 */
import { z } from '@hono/zod-openapi';
import { BillingErrorSchema, CurrencySchema, DisplayAmountSchema, MetadataSchema, MoneySchema, TimestampSchema, UuidSchema } from './common.js';
import { minimumTrueUpFields, ratedLineFields } from './rating.js';
import { DimensionsSchema } from './catalog.js';


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
    dimensions: DimensionsSchema.nullable().openapi({
      description: "a dimensional SKU's line: the dimension value it bills, e.g. {\"region\": \"eu\"} (null: events without the property; {}: the `other` bucket beyond the bound); null on other lines",
    }),
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

const ExplainStepSchema = z
  .object({
    step: z.string().openapi({
      description:
        'list_price, then each adjustment in the order applied (TierOverride, Escalation, RateOverride, Proration, ContractDiscount); phase (a SKU rated in several plan phases); ' +
        'billed_before (what finalized invoices already billed of the period); amount (a line that was not rated); for the settlement: total, customer_balance_applied, wallet_applied, due_reduced',
    }),
    description: z.string(),
    change_nanos: MoneySchema.openapi({ description: 'what the step changed (negative for a saving or a deduction)' }),
    amount_nanos: MoneySchema.openapi({ description: 'the running amount after the step' }),
  })
  .openapi('ExplainStep');

const FilterScalarSchema = z.union([z.string(), z.number(), z.boolean()]);

const EventRefSchema = z.object({ id: z.string().openapi({ description: 'the event id the client sent' }), occurred_at: TimestampSchema }).nullable();

/** What a metered line's quantity was read from (the pricing trace the close stored with the line). */
export const UsageTraceSchema = z
  .object({
    meter: z
      .object({
        meter_id: UuidSchema.nullable().openapi({ description: "the meter read; null for the event type's default (sum of `quantity`, 1 per event without one)" }),
        name: z.string().nullable(),
        event_type: z.string(),
        aggregation: z.string().openapi({ description: 'Sum | Count | Max | UniqueCount | Latest | WeightedSum' }),
        property: z.string().nullable().openapi({ description: 'the event property aggregated' }),
        filters: z
          .array(z.object({ property: z.string(), operator: z.string(), value: z.union([FilterScalarSchema, z.array(FilterScalarSchema)]) }))
          .openapi({ description: 'the dimension values an event must carry to count' }),
      })
      .catchall(z.unknown())
      .openapi({ additionalProperties: true }),
    window: z.object({ from: TimestampSchema, to: TimestampSchema }).openapi({ description: 'the window read, [from, to)' }),
    event_count: z.number().int().openapi({ description: 'events counted in the window' }),
    late_event_count: z.number().int().openapi({ description: 'of which arrived after their period was billed' }),
    first_event: EventRefSchema.openapi({ description: 'the earliest event counted (null when none)' }),
    last_event: EventRefSchema.openapi({ description: 'the latest event counted (null when none)' }),
    aggregate: z.string().openapi({ description: 'the aggregate read, exact decimal, before it is clamped at zero for billing' }),
  })
  .catchall(z.unknown())
  .openapi('UsageTrace', { additionalProperties: true });

export const InvoiceLineExplanationSchema = z
  .object({
    line_id: UuidSchema,
    kind: z.string(),
    description: z.string(),
    quantity: z.string(),
    amount_nanos: MoneySchema,
    amount: DisplayAmountSchema('amount_nanos'),
    pricing_model: z.string().nullable().openapi({ description: 'the SKU pricing model of a rated line; null for lines that were not rated' }),
    unit_amount_nanos: MoneySchema.nullable(),
    service_period: z.object({ start: TimestampSchema.nullable(), end: TimestampSchema.nullable() }),
    dimensions: z
      .object({ group_by: z.array(z.string()), values: DimensionsSchema })
      .nullable()
      .openapi({ description: "a dimensional SKU's line: the event properties its meter was grouped by and the value this line prices" }),
    plan_phases: z
      .array(
        z
          .object({
            plan_id: UuidSchema,
            plan_name: z.string(),
            plan_version: z.number().int(),
            from: TimestampSchema,
            to: TimestampSchema,
            usage_to: TimestampSchema,
            basis: z.object({ start: z.string(), end: z.string() }).openapi({ description: 'the calendar days fees are prorated over' }),
            proration: z
              .object({ service_start: z.string(), service_end: z.string(), days_used: z.number().int(), days_in_period: z.number().int() })
              .nullable()
              .openapi({ description: 'the proration factor days_used / days_in_period of a fee, when the phase did not serve the whole basis' }),
            contract: z.object({ contract_id: UuidSchema, status: z.string() }).nullable().openapi({ description: 'the contract whose terms priced the phase' }),
            quantity: z.string(),
            amount_nanos: MoneySchema,
          })
          .catchall(z.unknown())
          .openapi({ additionalProperties: true }),
      )
      .openapi({ description: 'the plan phases of the period the charge was rated in (empty for lines billing did not rate, or billed before explanations were stored)' }),
    usage: z.array(UsageTraceSchema).openapi({ description: 'metered lines: per plan phase, the meter, filters, window, events counted (first and last) and the aggregate' }),
    tiers: z
      .array(z.object({ tier: z.number().int(), from: z.string(), up_to: z.string().nullable(), quantity: z.string(), unit_amount_nanos: MoneySchema, flat_amount_nanos: MoneySchema, amount_nanos: MoneySchema }))
      .openapi({ description: 'each tier entered, with its quantity and amount' }),
    adjustments: z
      .array(z.object({ kind: z.string(), basis_points: z.number().int().optional(), amount_nanos: MoneySchema, description: z.string() }))
      .openapi({ description: 'discounts, overrides, escalation, proration and contract terms, in the order applied' }),
    billed_before: z
      .object({ quantity: z.string(), amount_nanos: MoneySchema })
      .nullable()
      .openapi({ description: "what the period's finalized invoices had already billed of the SKU (the line bills the difference)" }),
    tax: z
      .object({ adapter: z.string().nullable(), rate_bps: z.number().int(), taxable_line_id: UuidSchema, taxable_amount_nanos: MoneySchema, rule: z.string() })
      .nullable()
      .openapi({ description: 'tax lines: the rule applied and the line taxed' }),
    steps: z.array(ExplainStepSchema).openapi({ description: "from list price to the line's amount, each step with its change and the running amount" }),
    reconciles: z.boolean().openapi({ description: "whether the steps end exactly at the line's amount" }),
    rounding: z.string().nullable().openapi({ description: 'where this line was rounded: rated and tax amounts once, HalfEven, to a raw unit (10^-12); null when nothing was rounded' }),
    line: InvoiceLineItemSchema.openapi({ description: 'the line as stored, every field it carries (detail included)' }),
    pricing_trace: z
      .object({})
      .catchall(z.unknown())
      .nullable()
      .openapi({ additionalProperties: true, description: 'the pricing trace stored with the line at the close, as stored (null for lines billed before it was stored)' }) as z.ZodType<unknown>,
  })
  .openapi('InvoiceLineExplanation');

export const InvoiceExplanationSchema = z
  .object({
    invoice_id: UuidSchema,
    invoice_number: z.string().nullable(),
    status: InvoiceStatusSchema,
    currency: CurrencySchema,
    period_start: TimestampSchema.nullable(),
    period_end: TimestampSchema.nullable(),
    lines: z.array(InvoiceLineExplanationSchema),
    totals: z
      .object({
        subtotal_nanos: MoneySchema,
        tax_nanos: MoneySchema,
        credits_applied_nanos: MoneySchema,
        total_nanos: MoneySchema,
        lines_sum_nanos: MoneySchema.openapi({ description: 'the sum of every line amount; equals total_nanos' }),
        amount_due_nanos: MoneySchema,
      })
      .openapi({ description: 'the totals as stored, and the sum of the explained lines' }),
    settlement: z.array(ExplainStepSchema).openapi({ description: 'from the total to the amount due: customer balance, credit wallet, credit notes' }),
    rounding: z
      .array(z.object({ stage: z.enum(['rating', 'tax', 'display']), rule: z.string(), line_ids: z.array(UuidSchema) }))
      .openapi({ description: 'where rounding happened: rating and tax round each amount once to a raw unit; display strings round once to the minor unit at output' }),
  })
  .openapi('InvoiceExplanation');

export type InvoiceExplanationView = z.infer<typeof InvoiceExplanationSchema>;
