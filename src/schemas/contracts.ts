/**
 * Contracts as the API returns them (SPEC §2 Contract, §4): terms with their commits, pricing overrides,
 * escalation, the amendment chain and the subscriptions a contract prices.
 */
import { z } from '@hono/zod-openapi';
import { BillingErrorSchema, MoneySchema, TimestampSchema, UuidSchema } from './common.js';

export const ContractStatusSchema = z.enum(['Draft', 'Active', 'Amended', 'Expired', 'Terminated']).openapi('ContractStatus');
export const AdoptionTypeSchema = z.enum(['PLG', 'Coterm', 'Recontract']).openapi('AdoptionType');

export const TierViewSchema = z.object({ up_to: z.number().int().nullable(), unit_amount_nanos: MoneySchema, flat_amount_nanos: MoneySchema.optional() });
export const pricingView = {
  discount_bps: z.number().int().nullable(),
  rate_overrides: z.array(z.object({ product_tag: z.string(), multiplier_bps: z.number().int() })).nullable(),
  tier_overrides: z.array(z.object({ sku_id: z.string(), tiers: z.array(TierViewSchema) })).nullable(),
};

export const ContractSubscriptionSchema = z
  .object({ contract_id: z.string(), subscription_id: z.string(), adoption_type: AdoptionTypeSchema, coterm_fee_nanos: z.string().nullable(), aligned_at: TimestampSchema.nullable().openapi({ description: 'Coterm: when the subscription was realigned to end its periods on the contract end (null until then, and for other adoptions)' }), created_at: TimestampSchema })
  .openapi('ContractSubscription');

export const ContractSchema = z
  .object({
    id: UuidSchema,
    customer_id: UuidSchema,
    name: z.string(),
    status: ContractStatusSchema,
    start_date: z.string().openapi({ format: 'date' }),
    end_date: z.string().openapi({ format: 'date' }),
    ...pricingView,
    escalation: z
      .object({ kind: z.enum(['Percent', 'Fixed']), basis_points: z.number().int().optional(), amount_nanos: z.string().optional(), interval_months: z.number().int() })
      .nullable(),
    parent_contract_id: z.string().nullable().openapi({ description: 'the contract this one amended' }),
    amendment_reason: z.string().nullable(),
    effective_date: z.string().nullable().openapi({ format: 'date' }),
    escalation_steps: z.number().int().openapi({ description: 'escalation steps applied so far' }),
    terminated_on: z.string().nullable().openapi({ format: 'date', description: 'last day served of a Terminated contract' }),
    termination_reason: z.string().nullable(),
    test_clock_id: z.string().nullable(),
    billing_error: BillingErrorSchema.openapi({
      description: "a step of the contract's workflow (an escalation, a true-up, the expiry) that failed in a way no automatic retry fixes, held for an operator: fix the cause, then POST /admin/v1/contracts/{id}/retry; null when none",
    }),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
    terms: z.array(
      z.object({
        phase: z.number().int(),
        start_date: z.string().openapi({ format: 'date' }),
        end_date: z.string().openapi({ format: 'date' }),
        committed_amount_nanos: z.string(),
        description: z.string(),
        ...pricingView,
        commit_product_tag: z.string().nullable(),
        drawn_down_nanos: z.string().nullable().openapi({ description: 'usage charges drawn from the commit so far (null in lists)' }),
        remaining_commit_nanos: z.string().nullable().openapi({ description: 'commit left to draw down (null in lists)' }),
        trued_up_at: z.string().nullable(),
        true_up_nanos: z.string().nullable().openapi({ description: 'shortfall billed at the phase end' }),
      }),
    ),
    amendment_chain: z
      .array(z.object({ id: z.string(), status: ContractStatusSchema, effective_date: z.string().nullable() }))
      .nullable()
      .openapi({ description: 'the chain of amendments this contract belongs to, oldest first (null in lists)' }),
    subscriptions: z.array(ContractSubscriptionSchema).nullable().openapi({ description: 'subscriptions the contract prices (null in lists)' }),
  })
  .openapi('Contract');

export const ContractSubscriptionLinkSchema = ContractSubscriptionSchema.extend({
  coterm: z.record(z.string(), z.unknown()).nullable().openapi({ additionalProperties: true, description: 'Coterm adoption: the alignment to the contract end, or the one-time fee billed with fewer than 30 days left' }),
}).openapi('ContractSubscriptionLink');
