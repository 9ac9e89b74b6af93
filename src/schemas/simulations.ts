/** Price simulations as the API takes and returns them (docs/simulations.md). */
import { z } from '@hono/zod-openapi';
import { DELTA_BUCKETS } from '../core/index.js';
import { TierInputSchema } from './catalog.js';
import { CurrencySchema, MoneySchema, NonNegativeMoneySchema, TimestampSchema, UuidSchema } from './common.js';

/** Most SKUs one candidate may reprice, and customers one scope may name. */
export const MAX_PRICE_CHANGES = 100;
export const MAX_SCOPE_CUSTOMERS = 1000;
/** Most closed periods per subscription a simulation re-rates. */
export const MAX_LAST_PERIODS = 36;

export const PriceChangeSchema = z
  .strictObject({
    sku_id: UuidSchema.openapi({ description: 'a SKU of the candidate plan (any version)' }),
    unit_amount_nanos: NonNegativeMoneySchema.optional().openapi({ description: 'the new unit (or flat) price' }),
    tiers: z.array(TierInputSchema).min(1).max(100).optional().openapi({ description: 'Graduated and Volume only: the new tiers, the last unbounded' }),
    overage_unit_amount_nanos: NonNegativeMoneySchema.optional().openapi({ description: 'Committed only: the new price per unit beyond the commit' }),
    commit_amount_nanos: NonNegativeMoneySchema.optional().openapi({ description: 'Committed only: the new minimum charge per period' }),
  })
  .openapi('SimulationPriceChange', { description: 'New prices for one SKU; fields left out keep the SKU’s own' });

export const SimulationCandidateSchema = z
  .discriminatedUnion('kind', [
    z
      .strictObject({
        kind: z.literal('plan_version').openapi({ description: 'every period is rated with this plan version’s SKUs, whatever plan its subscription was on' }),
        plan_id: UuidSchema,
        version: z.number().int().min(1).max(1_000_000).openapi({ description: 'the plan version (GET /admin/v1/plans/{id}/versions)' }),
      })
      .openapi('SimulationPlanVersionCandidate'),
    z
      .strictObject({
        kind: z.literal('price_changes').openapi({ description: 'periods of subscriptions on this plan are rated with their own plan version, these SKUs repriced' }),
        plan_id: UuidSchema,
        price_changes: z.array(PriceChangeSchema).min(1).max(MAX_PRICE_CHANGES).openapi({ description: `at most ${MAX_PRICE_CHANGES}, one per SKU` }),
      })
      .openapi('SimulationPriceChangesCandidate'),
  ])
  .openapi('SimulationCandidate', { description: 'What the periods are re-rated with' });

/** The subscriptions on a plan (a shadow billing attachment's scope takes it too). */
export const SimulationPlanScopeSchema = z
  .strictObject({ kind: z.literal('plan').openapi({ description: 'the subscriptions now on this plan' }), plan_id: UuidSchema })
  .openapi('SimulationPlanScope');

export const SimulationScopeSchema = z
  .discriminatedUnion('kind', [
    z
      .strictObject({
        kind: z.literal('customers').openapi({ description: 'the subscriptions of these customers' }),
        customer_ids: z.array(UuidSchema).min(1).max(MAX_SCOPE_CUSTOMERS).openapi({ description: `at most ${MAX_SCOPE_CUSTOMERS}` }),
      })
      .openapi('SimulationCustomersScope'),
    SimulationPlanScopeSchema,
    z.strictObject({ kind: z.literal('all').openapi({ description: 'every subscription' }) }).openapi('SimulationAllScope'),
  ])
  .openapi('SimulationScope', {
    description: 'Which subscriptions are re-rated: of those, the ones in the candidate plan’s currency that have at least one closed period',
  });

export const SimulationRangeSchema = z
  .strictObject({
    last_periods: z.number().int().min(1).max(MAX_LAST_PERIODS).openapi({ description: `the last N closed periods of each subscription (1–${MAX_LAST_PERIODS})` }),
  })
  .openapi('SimulationRange');

export const SimulationStatusSchema = z
  .enum(['running', 'cancelling', 'completed', 'cancelled', 'failed'])
  .openapi('SimulationStatus', { description: 'running → completed; cancel moves running to cancelling, then cancelled after the batch in progress; failed: see error' });

const BucketSchema = z.object({
  bucket: z.enum(DELTA_BUCKETS).openapi({ description: 'change of the customer’s total relative to what it was billed; lower bounds inclusive; from_zero: billed nothing, charged something' }),
  customers: z.number().int().openapi({ description: 'customers in the bucket' }),
  delta_nanos: MoneySchema.openapi({ description: 'sum of their deltas (candidate − actual)' }),
});

export const SimulationTotalsSchema = z
  .object({
    currency: CurrencySchema,
    customers: z.number().int().openapi({ description: 'customers with re-rated periods in this currency' }),
    actual_nanos: MoneySchema.openapi({ description: 'what the periods were billed: fee and usage lines of their non-void invoices, before tax and credits' }),
    candidate_nanos: MoneySchema.openapi({ description: 'what the candidate rates for the same periods' }),
    delta_nanos: MoneySchema.openapi({ description: 'candidate − actual' }),
    customers_paying_more: z.number().int().openapi({ description: 'customers whose candidate total is above their actual' }),
    customers_paying_less: z.number().int().openapi({ description: 'customers whose candidate total is below their actual' }),
    customers_unchanged: z.number().int().openapi({ description: 'customers whose candidate total equals their actual' }),
    buckets: z.array(BucketSchema).openapi({ description: 'every bucket, from the largest decrease to the largest increase, then from_zero' }),
  })
  .openapi('SimulationTotals');

export const SimulationSchema = z
  .object({
    id: UuidSchema,
    status: SimulationStatusSchema,
    candidate: SimulationCandidateSchema,
    scope: SimulationScopeSchema,
    range: SimulationRangeSchema,
    workflow_id: z.string().openapi({ description: 'the simulation workflow in the Temporal UI (search attributes SimulationId, SimulationStatus)' }),
    progress: z
      .object({
        subscriptions_total: z.number().int().nullable().openapi({ description: 'subscriptions in scope with a closed period; null until counted' }),
        subscriptions_done: z.number().int().openapi({ description: 'subscriptions re-rated so far' }),
        periods_done: z.number().int().openapi({ description: '(subscription, period) pairs re-rated so far' }),
      })
      .openapi({ description: 'updated after each batch' }),
    totals: z.array(SimulationTotalsSchema).openapi({ description: 'per currency, over the results so far (final once completed)' }),
    results_csv_url: z.string().openapi({ description: 'path of the per-period results as CSV' }),
    error: z.object({ type: z.string(), message: z.string() }).nullable().openapi({ description: 'why a failed simulation failed' }),
    created_at: TimestampSchema,
    finished_at: TimestampSchema.nullable(),
  })
  .openapi('Simulation');

export type SimulationCandidateInput = z.infer<typeof SimulationCandidateSchema>;
export type SimulationScopeInput = z.infer<typeof SimulationScopeSchema>;
export type SimulationView = z.infer<typeof SimulationSchema>;
