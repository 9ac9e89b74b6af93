/**
 * Contracts (SPEC §4): create, get, list, activate, amend, terminate, and adopt subscriptions.
 * Each handler parses, calls one service function (src/services/contracts/contracts.ts) and answers.
 */
import { createRoute,z } from '@hono/zod-openapi';
import { commonErrorResponses } from '../../errors.js';
import { BillingErrorSchema,IsoDateSchema,MoneySchema,NonNegativeMoneySchema,TimestampSchema,UuidSchema } from '../../../schemas/common.js';
import { TierInputSchema } from '../../../schemas/catalog.js';
import { jsonResponse,mutationRequest,pageResponse } from '../../helpers.js';
import { IdempotencyHeaderSchema,IdParamSchema,PaginationQuerySchema } from '../../schemas.js';

/** A contract date, published with format "date" (YYYY-MM-DD). */
export const DateSchema = IsoDateSchema.openapi({ format: 'date' });

export const ContractStatusSchema = z.enum(['Draft', 'Active', 'Amended', 'Expired', 'Terminated']).openapi('ContractStatus');
export const AdoptionTypeSchema = z.enum(['PLG', 'Coterm', 'Recontract']).openapi('AdoptionType');
export const DiscountBpsSchema = z.number().int().min(0).max(10_000).openapi({ description: 'discount in basis points, 0-10000' });
export const MultiplierBpsSchema = z.number().int().min(0).max(1_000_000).openapi({ description: 'basis points, 10000 = 100% of list' });

export const RateOverrideSchema = z
  .strictObject({ product_tag: z.string().min(1).max(64), multiplier_bps: MultiplierBpsSchema })
  .openapi('ContractRateOverride', { description: "multiplies the price of SKUs whose product carries the tag (8000 = 80% of list); the first match wins" });
export const TierOverrideSchema = z
  .strictObject({ sku_id: UuidSchema, tiers: z.array(TierInputSchema).min(1).max(100) })
  .openapi('ContractTierOverride', { description: 'custom tiers replacing the catalog tiers of a Graduated or Volume SKU' });
export const EscalationSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('Percent'), basis_points: z.number().int().min(0).max(10_000), interval_months: z.number().int().min(1).max(120) }),
    z.strictObject({ kind: z.literal('Fixed'), amount_nanos: NonNegativeMoneySchema, interval_months: z.number().int().min(1).max(120) }),
  ])
  .openapi('ContractEscalation', {
    description: "one step every interval_months from the contract's start_date: Percent compounds on every price, Fixed adds amount_nanos to recurring fees",
  });

export const pricing = {
  discount_bps: DiscountBpsSchema.optional(),
  rate_overrides: z.array(RateOverrideSchema).max(100).optional(),
  tier_overrides: z.array(TierOverrideSchema).max(100).optional(),
};

export const TermInputSchema = z
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

export const TerminateSchema = z.strictObject({ reason: z.string().max(500).optional() }).openapi('TerminateContract');

export const LinkSchema = z.strictObject({ subscription_id: UuidSchema, adoption_type: AdoptionTypeSchema }).openapi('LinkContractSubscription');

export const TierViewSchema = z.object({ up_to: z.number().int().nullable(), unit_amount_nanos: MoneySchema, flat_amount_nanos: MoneySchema.optional() });
export const pricingView = {
  discount_bps: z.number().int().nullable(),
  rate_overrides: z.array(z.object({ product_tag: z.string(), multiplier_bps: z.number().int() })).nullable(),
  tier_overrides: z.array(z.object({ sku_id: z.string(), tiers: z.array(TierViewSchema) })).nullable(),
};

export const LinkViewSchema = z
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
    subscriptions: z.array(LinkViewSchema).nullable().openapi({ description: 'subscriptions the contract prices (null in lists)' }),
  })
  .openapi('Contract');

export const LinkResultSchema = LinkViewSchema.extend({
  coterm: z.record(z.string(), z.unknown()).nullable().openapi({ description: 'Coterm adoption: the alignment to the contract end, or the one-time fee billed with fewer than 30 days left' }),
}).openapi('ContractSubscriptionLink');

export const TAGS = ['Contracts'];

export const create = createRoute({
  method: 'post',
  path: '/admin/v1/contracts',
  tags: TAGS,
  summary: 'Create a contract (Active unless "activate": false)',
  description:
    'The contract is Active at once, with its workflow started, so it can be amended, linked and terminated right away; ' +
    'with "activate": false it stays a Draft until POST /admin/v1/contracts/{id}/activate. Terms are ramp phases that tile ' +
    '[start_date, end_date) with no gap or overlap; each has its own commit, discount and overrides, falling back to the contract-level ones. ' +
    'The customer must exist (404 `customer_not_found`) and not be Closed (422 `customer_closed`).',
  request: mutationRequest(CreateContractSchema),
  responses: { 201: jsonResponse('The contract', ContractSchema), ...commonErrorResponses },
});

export const get = createRoute({
  method: 'get',
  path: '/admin/v1/contracts/{id}',
  tags: TAGS,
  summary: 'Get a contract with its terms, remaining commits, amendment chain and subscriptions',
  request: { params: IdParamSchema },
  responses: { 200: jsonResponse('The contract', ContractSchema), ...commonErrorResponses },
});

export const list = createRoute({
  method: 'get',
  path: '/admin/v1/contracts',
  tags: TAGS,
  summary: 'List contracts',
  description: 'Newest first, filtered by customer_id, status and created_gte / created_lt. A JSON array; X-Has-More, X-Next-Cursor and Link rel="next" headers page through the rest.',
  request: {
    query: PaginationQuerySchema.extend({ customer_id: UuidSchema.optional(), status: ContractStatusSchema.optional() }),
  },
  responses: { 200: pageResponse('One page of contracts', ContractSchema, 'ContractList'), ...commonErrorResponses },
});

export const activate = createRoute({
  method: 'post',
  path: '/admin/v1/contracts/{id}/activate',
  tags: TAGS,
  summary: 'Activate a Draft contract (any other state is 409 invalid_state_transition)',
  request: { params: IdParamSchema, headers: IdempotencyHeaderSchema },
  responses: { 200: jsonResponse('The Active contract', ContractSchema), ...commonErrorResponses },
});

export const amend = createRoute({
  method: 'post',
  path: '/admin/v1/contracts/{id}/amend',
  tags: TAGS,
  summary: 'Amend an Active contract: a new Active contract replaces it from effective_date on',
  description:
    'The amended contract becomes Amended (immutable); the answer is the new Active contract, whose parent_contract_id names it, ' +
    'with the same dates and history: the phase in force on effective_date is split there (its commit before it prorated by days), ' +
    'and from effective_date on that phase commits new_committed_amount_nanos and later phases take the given discount_bps and rate_overrides. ' +
    'Its subscriptions move to the new contract. Only an Active contract can be amended (409 invalid_state_transition otherwise); ' +
    'effective_date must fall inside the contract and not before today (422 invalid_effective_date). ' +
    'Of two concurrent amendments one succeeds and the other is refused (409 contract_already_amended), so the chain never forks.',
  request: { params: IdParamSchema, ...mutationRequest(AmendContractSchema) },
  responses: { 201: jsonResponse('The new contract', ContractSchema), ...commonErrorResponses },
});

export const terminate = createRoute({
  method: 'post',
  path: '/admin/v1/contracts/{id}/terminate',
  tags: TAGS,
  summary: 'Terminate an Active contract early (today is its last day)',
  description:
    'The early-exit fee, the shortfall of the phase in force against its commit prorated to the days served, goes on a Draft as a contract_fee line. ' +
    'Any other state than Active is 409 invalid_state_transition.',
  request: { params: IdParamSchema, headers: IdempotencyHeaderSchema, body: { required: false, content: { 'application/json': { schema: TerminateSchema } } } },
  responses: { 200: jsonResponse('The Terminated contract', ContractSchema), ...commonErrorResponses },
});

export const retry = createRoute({
  method: 'post',
  path: '/admin/v1/contracts/{id}/retry',
  tags: TAGS,
  summary: "Retry the contract's workflow step that left it in billing_error",
  description:
    "A step of the contract's workflow (an escalation, a phase true-up, the expiry) whose work failed in a way no automatic retry " +
    'fixes (invalid stored data, a numeric overflow, or a transient failure that outlasted its retry schedule) holds the contract ' +
    'with billing_error set; nothing later is done for it meanwhile. Fix the data, then retry: billing_error is cleared (audited ' +
    'as contract.billing_retried) and the answer comes once the step ran again, with billing_error set anew when it failed again. ' +
    '409 no_billing_error when there is nothing to retry.',
  request: { params: IdParamSchema, headers: IdempotencyHeaderSchema },
  responses: { 200: jsonResponse('The contract after the retried step', ContractSchema), ...commonErrorResponses },
});

export const link = createRoute({
  method: 'post',
  path: '/admin/v1/contracts/{id}/subscriptions',
  tags: TAGS,
  summary: 'Adopt a subscription (PLG, Coterm or Recontract): its periods are then priced by the contract',
  description:
    "The subscription must belong to the contract's customer (422 contract_customer_mismatch) and not be linked yet (409 subscription_already_linked); " +
    'an Amended, Terminated or Expired contract, an Expired subscription, or one Coterm would realign that is not Active or PastDue, ' +
    'is 409 invalid_state_transition. Coterm with fewer than 30 days left in the contract bills the one-time fee (a contract_fee line) ' +
    'instead of aligned periods; Coterm to a contract that ends today or earlier is 422 contract_ended.',
  request: { params: IdParamSchema, ...mutationRequest(LinkSchema) },
  responses: { 201: jsonResponse('The link', LinkResultSchema), ...commonErrorResponses },
});

