/** Subscriptions, plan changes and test clocks as the API returns them (SPEC §2, §3). */
import { z } from '@hono/zod-openapi';
import { BillingErrorSchema, UuidSchema } from './common.js';
import { InvoiceSchema } from './invoicing.js';

export const SubscriptionStatusSchema = z.enum(['Trialing', 'Active', 'PastDue', 'Paused', 'Cancelled', 'Expired']);

export const SubscriptionSchema = z
  .object({
    id: UuidSchema,
    customer_id: UuidSchema,
    plan_id: UuidSchema,
    status: SubscriptionStatusSchema,
    currency: z.string(),
    trial_days: z.number().int(),
    trial_end: z.string().nullable(),
    period_start: z.string().openapi({ format: 'date-time' }),
    period_end: z.string().openapi({ format: 'date-time' }),
    charged_through_date: z.string().nullable().openapi({ description: 'how far the subscription has been billed' }),
    contract_id: z.string().nullable(),
    test_clock_id: z.string().nullable(),
    progressive_threshold_nanos: z.string().nullable().openapi({ description: 'progressive billing threshold of accrued charges' }),
    paused_at: z.string().nullable(),
    cancelled_at: z.string().nullable(),
    billing_error: BillingErrorSchema,
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Subscription');

export type SubscriptionView = z.infer<typeof SubscriptionSchema>;

export const PlanChangeSchema = z.object({ subscription: SubscriptionSchema, invoice: InvoiceSchema.nullable() }).openapi('PlanChange');

export type PlanChangeView = z.infer<typeof PlanChangeSchema>;

export const TestClockSchema = z
  .object({ id: UuidSchema, name: z.string(), frozen_time: z.string(), status: z.enum(['ready', 'advancing']).openapi({ description: 'advancing while an advance request is running' }), created_at: z.string() })
  .openapi('TestClock');

export type TestClockView = z.infer<typeof TestClockSchema>;
