/** Subscriptions, plan changes and test clocks as the API returns them (SPEC §2, §3). */
import { z } from '@hono/zod-openapi';
import { BillingErrorSchema, MetadataSchema, UuidSchema } from './common.js';
import { InvoiceSchema } from './invoicing.js';

export const SubscriptionStatusSchema = z.enum(['Trialing', 'Active', 'PastDue', 'Paused', 'Cancelled', 'Expired']);

export const SubscriptionSchema = z
  .object({
    id: UuidSchema,
    customer_id: UuidSchema,
    plan_id: UuidSchema,
    plan_version: z.number().int().openapi({
      description: "the plan version it is billed on: it stays there when the plan's SKUs change, until moved by change-plan or a plan migration",
    }),
    status: SubscriptionStatusSchema,
    currency: z.string(),
    trial_days: z.number().int(),
    trial_end: z.string().nullable(),
    period_start: z.string().openapi({ format: 'date-time' }),
    period_end: z.string().openapi({ format: 'date-time' }),
    charged_through_date: z.string().nullable().openapi({ description: 'how far the subscription has been billed' }),
    contract_id: z.string().nullable(),
    test_clock_id: z.string().nullable(),
    progressive_threshold_nanos: z.string().nullable().openapi({ description: 'progressive billing threshold of accrued charges (raw units): usage that takes them to it is invoiced within seconds; null when the period is billed only at its close' }),
    paused_at: z.string().nullable(),
    cancelled_at: z.string().nullable(),
    billing_error: BillingErrorSchema,
    metadata: MetadataSchema,
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Subscription');

export type SubscriptionView = z.infer<typeof SubscriptionSchema>;

export const PlanChangeSchema = z.object({ subscription: SubscriptionSchema, invoice: InvoiceSchema.nullable() }).openapi('PlanChange');

export type PlanChangeView = z.infer<typeof PlanChangeSchema>;

export const TestClockAdvanceSchema = z
  .object({
    simulated_time: z.string().openapi({ description: 'the clock time every workflow on the clock has reached; frozen_time once ready' }),
    subscriptions_done: z.number().int().openapi({ description: 'subscriptions with nothing left to do before frozen_time' }),
    subscriptions_total: z.number().int().openapi({ description: 'subscriptions the advance drives' }),
    started_at: z.string().openapi({ description: 'wall time the advance was requested' }),
    finished_at: z.string().nullable().openapi({ description: 'wall time it ended (ready or internal_failure); null while advancing' }),
    error: BillingErrorSchema.openapi({
      description: 'why it ended internal_failure (failed_at in wall time); null otherwise. Fix the cause, then advance again (to the same frozen_time to re-drive it)',
    }),
  })
  .openapi('TestClockAdvance');

export const TestClockSchema = z
  .object({
    id: UuidSchema,
    name: z.string(),
    frozen_time: z.string().openapi({ description: 'the clock time; an advance sets it at once, its workflows catch up while advancing' }),
    status: z.enum(['ready', 'advancing', 'internal_failure']).openapi({
      description: 'advancing while an advance runs; ready once every workflow on the clock caught up; internal_failure when an advance failed (advance again)',
    }),
    created_at: z.string(),
    advance: TestClockAdvanceSchema.nullable().openapi({ description: 'progress of the latest advance; null before the first' }),
  })
  .openapi('TestClock');

export type TestClockView = z.infer<typeof TestClockSchema>;

export const UpcomingInvoiceSchema = z
  .object({
    subscription_id: UuidSchema,
    period_start: z.string().openapi({ description: 'start of the current period, the one previewed (ISO 8601)' }),
    period_end: z.string().openapi({ description: 'end of the current period (ISO 8601): the close bills the period up to here' }),
    as_of: z.string().openapi({
      description: "the instant the preview was taken (the subscription's test clock time when it is on one): every event recorded for the period by then counts, and credits and the wallet are applied as of it",
    }),
    draft_invoice_id: UuidSchema.nullable().openapi({
      description: "the period's Draft the close would bill into when it already exists (progressive billing, a consolidated group); null when the close would open a new one",
    }),
    invoice: InvoiceSchema.nullable().openapi({
      description:
        'the invoice closing the period now would produce, as finalization would settle it (spend cap, tax, customer balance, credit wallet), with the same lines and totals; ' +
        'status Draft, no invoice_number and no hosted link. Its id and line ids are those of the Draft (draft_invoice_id) or ids nothing stores. ' +
        'null when closing now would bill nothing (a trial, an Expired subscription, a period already closed).',
    }),
  })
  .openapi('UpcomingInvoice');

export type UpcomingInvoiceView = z.infer<typeof UpcomingInvoiceSchema>;
