/** Revenue reports as the API returns them (JSON; the CSV form has one row per JSON row). */
import { z } from '@hono/zod-openapi';
import { CurrencySchema, MoneySchema, TimestampSchema, UuidSchema } from './common.js';

export const AgingBucketsSchema = z.object({
  current_nanos: MoneySchema.openapi({ description: 'not past due (due today or later)' }),
  days_1_30_nanos: MoneySchema,
  days_31_60_nanos: MoneySchema,
  days_61_90_nanos: MoneySchema,
  over_90_nanos: MoneySchema,
  total_nanos: MoneySchema,
});

export const ArAgingSchema = z
  .object({
    as_of: TimestampSchema.openapi({
      description:
        "the requested as_of; without one, now (for one customer on a test clock: its frozen time), and each row of every-customer report is aged at its customer's own time (the row's as_of)",
    }),
    customer_id: UuidSchema.nullable(),
    currency: CurrencySchema.nullable(),
    rows: z.array(
      AgingBucketsSchema.extend({
        customer_id: UuidSchema,
        customer_name: z.string(),
        currency: CurrencySchema,
        open_invoices: z.number().int().openapi({ description: 'invoices with something still owed (a positive open amount)' }),
        as_of: TimestampSchema.openapi({
          description:
            "the instant this row is read and aged at: the report's as_of when one was given, else the customer's own time (its test clock's frozen time when it is on one, else now)",
        }),
      }),
    ),
    totals: z.array(
      AgingBucketsSchema.extend({
        currency: CurrencySchema,
        ledger_accounts_receivable_nanos: MoneySchema.openapi({ description: "the ledger's accounts_receivable balance as of as_of (equals total_nanos)" }),
      }),
    ),
  })
  .openapi('ArAgingReport');
export type ArAgingView = z.infer<typeof ArAgingSchema>;

export const MrrSchema = z
  .object({
    as_of: TimestampSchema,
    customer_id: UuidSchema.nullable(),
    currency: CurrencySchema.nullable(),
    rows: z.array(
      z.object({
        customer_id: UuidSchema,
        customer_name: z.string(),
        currency: CurrencySchema,
        plan_id: UuidSchema,
        plan_name: z.string(),
        billing_cadence: z.string(),
        subscriptions: z.number().int(),
        mrr_nanos: MoneySchema,
      }),
    ),
    totals: z.array(z.object({ currency: CurrencySchema, customers: z.number().int(), subscriptions: z.number().int(), mrr_nanos: MoneySchema })),
  })
  .openapi('MrrReport');
export type MrrView = z.infer<typeof MrrSchema>;

export const MRR_MOVEMENTS = ['new', 'expansion', 'contraction', 'churn', 'reactivation', 'unchanged'] as const;
export type MrrMovement = (typeof MRR_MOVEMENTS)[number];

export const MrrMovementsSchema = z
  .object({
    from: TimestampSchema,
    to: TimestampSchema,
    customer_id: UuidSchema.nullable(),
    currency: CurrencySchema.nullable(),
    rows: z.array(
      z.object({
        customer_id: UuidSchema,
        customer_name: z.string(),
        currency: CurrencySchema,
        movement: z.enum(MRR_MOVEMENTS),
        start_mrr_nanos: MoneySchema,
        end_mrr_nanos: MoneySchema,
        change_nanos: MoneySchema.openapi({ description: 'end − start' }),
      }),
    ),
    totals: z.array(
      z.object({
        currency: CurrencySchema,
        start_mrr_nanos: MoneySchema,
        new_nanos: MoneySchema,
        expansion_nanos: MoneySchema,
        contraction_nanos: MoneySchema.openapi({ description: '≤ 0' }),
        churn_nanos: MoneySchema.openapi({ description: '≤ 0' }),
        reactivation_nanos: MoneySchema,
        end_mrr_nanos: MoneySchema.openapi({ description: 'start + new + expansion + contraction + churn + reactivation, exactly' }),
      }),
    ),
  })
  .openapi('MrrMovementsReport');
export type MrrMovementsView = z.infer<typeof MrrMovementsSchema>;

/** One month of the deferred revenue schedule in one currency. */
const DeferredRevenueRowSchema = z
  .object({
    month: z.string().openapi({ example: '2026-01', description: 'UTC calendar month' }),
    currency: CurrencySchema,
    opening_deferred_nanos: MoneySchema.openapi({ description: 'deferred at the start of the month' }),
    billed_nanos: MoneySchema.openapi({ description: 'deferred lines of invoices finalized in the month' }),
    recognized_nanos: MoneySchema.openapi({ description: 'earned in the month (ratably, by the ledger formula)' }),
    reversed_nanos: MoneySchema.openapi({ description: 'taken out by voids in the month' }),
    closing_deferred_nanos: MoneySchema.openapi({ description: 'opening + billed − recognized − reversed, exactly' }),
    ledger_deferred_nanos: MoneySchema.openapi({ description: "the ledger's deferred_revenue balance at the end of the month" }),
    unposted_recognition_nanos: MoneySchema.openapi({
      description: 'ledger − closing: recognition the ledger posts at the next period close (0 once it has caught up)',
    }),
  })
  .openapi('DeferredRevenueMonth');

export const DeferredRevenueSchema = z
  .object({
    from: z.string().openapi({ example: '2026-01' }),
    to: z.string().openapi({ example: '2026-12' }),
    customer_id: UuidSchema.nullable(),
    currency: CurrencySchema.nullable(),
    months: z.array(DeferredRevenueRowSchema).openapi({ description: 'one row per month and currency (the same items as rows; the SPEC name)' }),
    rows: z.array(DeferredRevenueRowSchema).openapi({ description: 'the same items as months, under the name the other reports use' }),
  })
  .openapi('DeferredRevenueSchedule');
export type DeferredRevenueView = z.infer<typeof DeferredRevenueSchema>;

export const ReconciliationSchema = z
  .object({
    customer_id: UuidSchema,
    as_of: z.string().openapi({ format: 'date-time' }),
    balanced: z.boolean().openapi({ description: 'true when every currency checks out and no closed period shows a discrepancy (pruned_periods are not re-rated)' }),
    currencies: z.array(
      z.object({
        currency: CurrencySchema,
        invoiced_nanos: MoneySchema.openapi({ description: 'total of the finalized (Open or Paid) invoices' }),
        paid_nanos: MoneySchema.openapi({ description: 'succeeded payments' }),
        refunded_nanos: MoneySchema.openapi({ description: 'succeeded refunds' }),
        credited_nanos: MoneySchema.openapi({ description: 'credit notes, all parts' }),
        credited_to_balance_nanos: MoneySchema.openapi({ description: "credit notes' parts put on the customer's credit balance" }),
        credited_out_of_band_nanos: MoneySchema.openapi({ description: "credit notes' parts settled out of band" }),
        wallet_applied_nanos: MoneySchema.openapi({ description: 'wallet credit applied at finalization' }),
        customer_balance_applied_nanos: MoneySchema.openapi({ description: 'customer credit balance applied at finalization' }),
        customer_balance_nanos: MoneySchema.openapi({ description: "the customer's credit balance left" }),
        open_invoices: z.number().int().openapi({ description: 'Open invoices with an amount still due' }),
        open_amount_due_nanos: MoneySchema.openapi({ description: 'amount due of the Open invoices' }),
        receivable_nanos: MoneySchema.openapi({ description: "the customer's accounts receivable in the ledger" }),
        receivable_matches_open_amount_due: z.boolean(),
        receivable_not_negative: z.boolean(),
      }),
    ),
    usage: z.array(
      z.object({
        subscription_id: UuidSchema,
        period_start: z.string().openapi({ format: 'date-time' }),
        period_end: z.string().openapi({ format: 'date-time' }),
        sku_id: UuidSchema,
        meter_event_type: z.string().nullable(),
        accepted_quantity: z.string().openapi({ description: 'the period rated whole from its accepted events (exact decimal)' }),
        billed_quantity: z.string().openapi({ description: "what the period's invoices billed, adjustment lines included" }),
        unbilled_quantity: z.string().openapi({ description: 'accepted − billed' }),
        state: z.enum(['billed', 'draft', 'late_usage_pending', 'discrepancy']).openapi({
          description: 'billed: nothing left; draft: its Draft waits for its grace end; late_usage_pending: late events wait for the next close (or the correction run); discrepancy: anything else',
        }),
      }),
    ),
    pruned_periods: z
      .array(
        z.object({
          subscription_id: UuidSchema,
          period_start: z.string().openapi({ format: 'date-time' }),
          period_end: z.string().openapi({ format: 'date-time' }),
        }),
      )
      .openapi({
        description:
          'closed periods whose raw events the retention (USAGE_EVENT_RETENTION_DAYS) dropped: they cannot be rated again from their events, so they are not in usage; their invoices stand',
      }),
  })
  .openapi('Reconciliation');

export type ReconciliationView = z.infer<typeof ReconciliationSchema>;
