/** Spend alerts and the customer's entitlement as the API returns them (SPEC §1 Spend alerts, §4). */
import { z } from '@hono/zod-openapi';
import { BillingErrorSchema, CurrencySchema, DisplayAmountSchema, MoneySchema, TimestampSchema, UuidSchema } from './common.js';

export const SpendAlertTypeSchema = z.enum(['SoftLimit', 'HardLimit']).openapi({
  description: 'SoftLimit notifies (spend_alert.triggered); HardLimit also blocks charges above the threshold for the period and marks the customer blocked',
});

export const SpendAlertStatusSchema = z.enum(['Armed', 'Triggered', 'Disabled']).openapi({
  description: 'Armed: watching; Triggered: the period\'s spend reached the threshold (until the next period start or an admin reset); Disabled: deleted, final',
});

export const SpendAlertHistoryEntrySchema = z
  .object({
    kind: z.enum(['created', 'triggered', 'reset', 'disabled', 'evaluation_failed', 'evaluation_recovered']),
    reason: z.string().nullable().openapi({ description: 'for reset: period_start (the next billing period began) or admin; for evaluation_failed: the failure type and message' }),
    spend_nanos: MoneySchema.nullable().openapi({ description: 'for triggered: the period\'s spend that crossed the threshold' }),
    period_start: TimestampSchema.nullable().openapi({ description: 'the billing period the entry belongs to, when known' }),
    actor: z.object({ type: z.string(), id: z.string() }),
    at: TimestampSchema.openapi({ description: 'business time (the customer\'s test clock for sandbox customers)' }),
  })
  .openapi('SpendAlertHistoryEntry');

export const SpendAlertSchema = z
  .object({
    id: UuidSchema,
    customer_id: UuidSchema,
    alert_type: SpendAlertTypeSchema,
    threshold_nanos: MoneySchema,
    threshold: DisplayAmountSchema('threshold_nanos', ' (for a HardLimit alert, the spend cap)'),
    currency: CurrencySchema,
    scope: z
      .object({ meter_event_type: z.string().nullable().openapi({ description: 'only charges of SKUs metering this event type count; null = every charge' }) })
      .openapi({ description: 'which charges count towards the threshold' }),
    status: SpendAlertStatusSchema,
    triggered_at: TimestampSchema.nullable(),
    triggered_spend_nanos: MoneySchema.nullable(),
    last_evaluated_at: TimestampSchema.nullable().openapi({ description: 'when the evaluator last computed the spend (business time)' }),
    last_spend_nanos: MoneySchema.nullable().openapi({ description: 'the current period\'s spend in scope at that evaluation' }),
    disabled_at: TimestampSchema.nullable(),
    evaluation_error: BillingErrorSchema.openapi({
      description:
        'the customer\'s last spend evaluation failed in a way no retry fixes (step, type, message, failed_at): the alert keeps its state but is not evaluated until an evaluation succeeds again (new usage, an admin reset, the next period start), which clears it; null when none',
    }),
    created_at: TimestampSchema,
    history: z.array(SpendAlertHistoryEntrySchema).openapi({ description: 'every state change, oldest first' }),
  })
  .openapi('SpendAlert');

export type SpendAlertView = z.infer<typeof SpendAlertSchema>;

export const EntitlementSchema = z
  .object({
    customer_id: UuidSchema,
    status: z.enum(['active', 'blocked']).openapi({ description: 'blocked while any HardLimit alert of the customer is Triggered: stop serving until it is reset' }),
    blocked_by: z
      .array(
        z.object({
          alert_id: UuidSchema,
          threshold_nanos: MoneySchema,
          currency: CurrencySchema,
          triggered_at: TimestampSchema,
        }),
      )
      .openapi({ description: 'the Triggered HardLimit alerts' }),
  })
  .openapi('Entitlement');

export type EntitlementView = z.infer<typeof EntitlementSchema>;
