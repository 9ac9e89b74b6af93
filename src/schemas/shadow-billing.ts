/** Shadow billing as the API takes and returns it (docs/shadow-billing.md); admin only. */
import { z } from '@hono/zod-openapi';
import { CurrencySchema, MoneySchema, TimestampSchema, UuidSchema } from './common.js';
import { SimulationPlanScopeSchema } from './simulations.js';

/** Most subscriptions one attachment may name. */
export const MAX_SHADOW_SUBSCRIPTIONS = 1000;

export const ShadowCandidateSchema = z
  .strictObject({
    plan_id: UuidSchema,
    version: z.number().int().min(1).max(1_000_000).openapi({ description: 'the plan version (GET /admin/v1/plans/{id}/versions)' }),
  })
  .openapi('ShadowCandidate', { description: 'The candidate plan version every covered period close is also rated with' });

export const ShadowScopeSchema = z
  .discriminatedUnion('kind', [
    z
      .strictObject({
        kind: z.literal('subscriptions').openapi({ description: 'these subscriptions' }),
        subscription_ids: z
          .array(UuidSchema)
          .min(1)
          .max(MAX_SHADOW_SUBSCRIPTIONS)
          .refine((ids) => new Set(ids).size === ids.length, 'must not name a subscription twice')
          .openapi({ description: `at most ${MAX_SHADOW_SUBSCRIPTIONS}, each in the candidate’s currency` }),
      })
      .openapi('ShadowSubscriptionsScope'),
    // The subscriptions on the plan at each of their period closes.
    SimulationPlanScopeSchema,
  ])
  .openapi('ShadowScope', { description: 'Which live subscriptions the candidate shadows' });

export const ShadowAttachmentSchema = z
  .object({
    id: UuidSchema,
    candidate: ShadowCandidateSchema,
    currency: CurrencySchema,
    scope: ShadowScopeSchema,
    status: z.enum(['attached', 'detached']).openapi({ description: 'attached: every covered period close is also rated with the candidate; detached: no longer' }),
    created_at: TimestampSchema,
    detached_at: TimestampSchema.nullable(),
  })
  .openapi('ShadowAttachment');

const VarianceFiguresSchema = {
  currency: CurrencySchema,
  periods: z.number().int().openapi({ description: 'closed periods rated with the candidate' }),
  failed_periods: z.number().int().openapi({ description: 'closed periods whose shadow rating failed (not in the sums)' }),
  actual_nanos: MoneySchema.openapi({ description: 'what the closes billed for those periods: fee and usage lines of non-void invoices, before tax and credits' }),
  shadow_nanos: MoneySchema.openapi({ description: 'what the candidate rates for the same periods' }),
  delta_nanos: MoneySchema.openapi({ description: 'shadow − actual' }),
};

export const ShadowVarianceSchema = z
  .object({
    from: TimestampSchema,
    to: TimestampSchema,
    customers: z
      .array(z.object({ customer_id: UuidSchema, ...VarianceFiguresSchema }).openapi('ShadowCustomerVariance'))
      .openapi({ description: 'per customer and currency, by customer' }),
    totals: z
      .array(z.object({ customers: z.number().int(), ...VarianceFiguresSchema }).openapi('ShadowVarianceTotal'))
      .openapi({ description: 'per currency' }),
  })
  .openapi('ShadowVariance');

export type ShadowCandidateInput = z.infer<typeof ShadowCandidateSchema>;
export type ShadowScopeInput = z.infer<typeof ShadowScopeSchema>;
export type ShadowAttachmentView = z.infer<typeof ShadowAttachmentSchema>;
export type ShadowVarianceView = z.infer<typeof ShadowVarianceSchema>;
