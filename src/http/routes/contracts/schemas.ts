/**
 * The requests of the contracts routes: bodies, queries and path parameters, validated before a handler runs.
 */
import { z } from '@hono/zod-openapi';
import { IsoDateSchema, NonNegativeMoneySchema, UuidSchema } from '../../../schemas/common.js';
import { TierInputSchema } from '../../../schemas/catalog.js';
import { AdoptionTypeSchema } from '../../../schemas/contracts.js';

/** A contract date, published with format "date" (YYYY-MM-DD). */
const DateSchema = IsoDateSchema.openapi({ format: 'date' });
const DiscountBpsSchema = z.number().int().min(0).max(10_000).openapi({ description: 'contract discount in basis points, 0-10000' });
// Upper bounds keep compounding (rate^periods) within sane sizes; real contracts stay far below them.
const MultiplierBpsSchema = z.number().int().min(0).max(1_000_000).openapi({ description: 'basis points, 10000 = 100% of list, at most 1000000' });

const RateOverrideSchema = z
  .strictObject({ product_tag: z.string().min(1).max(64), multiplier_bps: MultiplierBpsSchema })
  .openapi('RateOverride', { description: 'multiplies the price of SKUs whose product carries the tag (8000 = 80% of list); the first match wins' });
const TierOverrideSchema = z
  .strictObject({ sku_id: UuidSchema, tiers: z.array(TierInputSchema).min(1).max(100) })
  .openapi('TierOverride', { description: 'custom tiers replacing the catalog tiers of a Graduated or Volume SKU of the plan' });
const EscalationSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('Percent'), basis_points: z.number().int().min(0).max(10_000), interval_months: z.number().int().min(1).max(120) }),
    z.strictObject({ kind: z.literal('Fixed'), amount_nanos: NonNegativeMoneySchema, interval_months: z.number().int().min(1).max(120) }),
  ])
  .openapi('ContractEscalation', {
    description: "one step every interval_months from the contract's start_date: Percent compounds on every price, Fixed adds amount_nanos to recurring fees",
  });

/** Pricing a contract (and each of its phases) can set; the rating preview takes the same. */
export const pricing = {
  discount_bps: DiscountBpsSchema.optional(),
  rate_overrides: z.array(RateOverrideSchema).max(100).optional(),
  tier_overrides: z.array(TierOverrideSchema).max(100).optional(),
};

const TermInputSchema = z
  .strictObject({
    phase: z.number().int().min(1).max(1000),
    start_date: DateSchema,
    end_date: DateSchema.openapi({ description: 'exclusive: a phase covers [start_date, end_date)' }),
    committed_amount_nanos: NonNegativeMoneySchema,
    description: z.string().max(500).default(''),
    commit_product_tag: z.string().min(1).max(64).optional().openapi({ description: "only usage of SKUs whose product carries this tag draws the commit down" }),
    ...pricing,
  })
  .openapi('ContractTermInput');

export const CreateContractSchema = z
  .strictObject({
    customer_id: UuidSchema,
    name: z.string().trim().min(1, 'must not be empty').max(200),
    start_date: DateSchema,
    end_date: DateSchema.openapi({ description: 'exclusive: the contract covers [start_date, end_date)' }),
    terms: z.array(TermInputSchema).min(1).max(50).openapi({ description: 'ramp phases tiling [start_date, end_date): contiguous, no overlap' }),
    escalation: EscalationSchema.optional(),
    activate: z.boolean().default(true).openapi({ description: 'true (default): the contract is Active at once; false: a Draft until POST …/activate' }),
    ...pricing,
  })
  .openapi('CreateContract');

export const AmendContractSchema = z
  .strictObject({
    reason: z.string().trim().min(1, 'must not be empty').max(500),
    new_committed_amount_nanos: NonNegativeMoneySchema.openapi({ description: 'commit of the phase in force from effective_date on' }),
    effective_date: DateSchema.openapi({ description: "from this day on (today or later, before end_date) the amended terms apply" }),
    discount_bps: DiscountBpsSchema.optional().openapi({ description: 'new discount from effective_date on' }),
    rate_overrides: z.array(RateOverrideSchema).max(100).optional().openapi({ description: 'new rate overrides from effective_date on' }),
  })
  .openapi('AmendContract');

export const LinkSchema = z.strictObject({ subscription_id: UuidSchema, adoption_type: AdoptionTypeSchema }).openapi('LinkContractSubscription');
