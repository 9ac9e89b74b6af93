/**
 * The requests of the subscriptions routes: bodies, queries and path parameters, validated before a handler runs.
 */
import { z } from '@hono/zod-openapi';
import { CurrencySchema, MetadataInputSchema, NonNegativeMoneySchema, UuidSchema } from '../../../schemas/common.js';
import { SubscriptionStatusSchema } from '../../../schemas/subscriptions.js';
import { PaginationQuerySchema } from '../../schemas.js';

export const CreateSubscriptionSchema = z
  .strictObject({
    customer_id: UuidSchema,
    plan_id: UuidSchema,
    currency: CurrencySchema.optional().openapi({ description: "ISO 4217; defaults to the currency of the plan's SKUs, which all share one" }),
    trial_days: z.number().int().min(0).max(730).optional().openapi({ description: "defaults to the plan's trial_days; > 0 starts in Trialing" }),
    progressive_threshold_nanos: NonNegativeMoneySchema.optional().openapi({
      description:
        "progressive billing: when the open period's accrued charges reach this, its Draft is finalized (a threshold invoice) and a new one opens; " +
        'checked within seconds of the usage that crosses it, and daily as a backstop',
    }),
    metadata: MetadataInputSchema.optional(),
  })
  .openapi('CreateSubscription');

export const ListSubscriptionsQuerySchema = PaginationQuerySchema.extend({
  customer_id: UuidSchema.optional().openapi({ description: 'only this customer\'s subscriptions' }),
  status: SubscriptionStatusSchema.optional().openapi({ description: 'only subscriptions in this state' }),
  plan_id: UuidSchema.optional().openapi({ description: 'only subscriptions to this plan' }),
  currency: CurrencySchema.optional().openapi({ description: 'only subscriptions billed in this currency' }),
  test_clock_id: UuidSchema.optional().openapi({ description: 'only subscriptions on this test clock' }),
});
