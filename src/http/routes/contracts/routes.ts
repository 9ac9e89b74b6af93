/**
 * Contracts (SPEC §4): create, get, list, activate, amend, terminate, and adopt subscriptions.
 * Each handler parses, calls one service function (src/services/contracts/contracts.ts) and answers.
 */
import { createRoute } from '@hono/zod-openapi';
import { ContractStatusSchema, ContractSchema, ContractSubscriptionLinkSchema } from '../../../schemas/contracts.js';
import { UuidSchema } from '../../../schemas/common.js';
import { jsonResponse, mutationRequest, pageResponse } from '../../helpers.js';
import { IdempotencyHeaderSchema, IdParamSchema, PaginationQuerySchema, ReasonSchema } from '../../schemas.js';
import { CreateContractSchema, AmendContractSchema, LinkSchema } from './schemas.js';

const TAGS = ['Contracts'];

export const create = createRoute({
  method: 'post',
  path: '/admin/v1/contracts',
  operationId: 'createContract',
  tags: TAGS,
  summary: 'Create a contract (Active unless "activate": false)',
  description:
    'The contract is Active at once, with its workflow started, so it can be amended, linked and terminated right away; ' +
    'with "activate": false it stays a Draft until POST /admin/v1/contracts/{id}/activate. Terms are ramp phases that tile ' +
    '[start_date, end_date) with no gap or overlap; each has its own commit, discount and overrides, falling back to the contract-level ones. ' +
    'The customer must exist (404 `customer_not_found`) and not be Closed (422 `customer_closed`).',
  request: mutationRequest(CreateContractSchema),
  responses: { 201: jsonResponse('The contract', ContractSchema) },
});

export const get = createRoute({
  method: 'get',
  path: '/admin/v1/contracts/{id}',
  operationId: 'getContract',
  tags: TAGS,
  summary: 'Get a contract with its terms, remaining commits, amendment chain and subscriptions',
  description: 'The contract with every term (phase) and, for this read, each phase\'s drawn-down and remaining commit, the chain of amendments it belongs to and the subscriptions it prices.',
  request: { params: IdParamSchema },
  responses: { 200: jsonResponse('The contract', ContractSchema) },
});

export const list = createRoute({
  method: 'get',
  path: '/admin/v1/contracts',
  operationId: 'listContracts',
  tags: TAGS,
  summary: 'List contracts',
  description: 'Newest first, filtered by customer_id, status and created_gte / created_lt. A JSON array; X-Has-More, X-Next-Cursor and Link rel="next" headers page through the rest.',
  request: {
    query: PaginationQuerySchema.extend({ customer_id: UuidSchema.optional(), status: ContractStatusSchema.optional() }),
  },
  responses: { 200: pageResponse('One page of contracts', ContractSchema, 'ContractList') },
});

export const activate = createRoute({
  method: 'post',
  path: '/admin/v1/contracts/{id}/activate',
  operationId: 'activateContract',
  tags: TAGS,
  summary: 'Activate a Draft contract (any other state is 409 invalid_state_transition)',
  description: 'Starts the workflow of a Draft contract, which then escalates, trues up and expires on schedule.',
  request: { params: IdParamSchema, headers: IdempotencyHeaderSchema },
  responses: { 200: jsonResponse('The Active contract', ContractSchema) },
});

export const amend = createRoute({
  method: 'post',
  path: '/admin/v1/contracts/{id}/amend',
  operationId: 'amendContract',
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
  responses: { 201: jsonResponse('The new contract', ContractSchema) },
});

export const terminate = createRoute({
  method: 'post',
  path: '/admin/v1/contracts/{id}/terminate',
  operationId: 'terminateContract',
  tags: TAGS,
  summary: 'Terminate an Active contract early (today is its last day)',
  description:
    'The early-exit fee, the shortfall of the phase in force against its commit prorated to the days served, goes on a Draft as a contract_fee line. ' +
    'Any other state than Active is 409 invalid_state_transition.',
  request: { params: IdParamSchema, headers: IdempotencyHeaderSchema, body: { required: false, content: { 'application/json': { schema: ReasonSchema } } } },
  responses: { 200: jsonResponse('The Terminated contract', ContractSchema) },
});

export const retry = createRoute({
  method: 'post',
  path: '/admin/v1/contracts/{id}/retry',
  operationId: 'retryContract',
  tags: TAGS,
  summary: "Retry the contract's workflow step that left it in billing_error",
  description:
    "A step of the contract's workflow (an escalation, a phase true-up, the expiry) whose work failed in a way no automatic retry " +
    'fixes (invalid stored data, a numeric overflow, or a transient failure that outlasted its retry schedule) holds the contract ' +
    'with billing_error set; nothing later is done for it meanwhile. Fix the data, then retry: billing_error is cleared (audited ' +
    'as contract.billing_retried) and the answer comes once the step ran again, with billing_error set anew when it failed again. ' +
    '409 no_billing_error when there is nothing to retry.',
  request: { params: IdParamSchema, headers: IdempotencyHeaderSchema },
  responses: { 200: jsonResponse('The contract after the retried step', ContractSchema) },
});

export const link = createRoute({
  method: 'post',
  path: '/admin/v1/contracts/{id}/subscriptions',
  operationId: 'linkContractSubscription',
  tags: TAGS,
  summary: 'Adopt a subscription (PLG, Coterm or Recontract): its periods are then priced by the contract',
  description:
    "The subscription must belong to the contract's customer (422 contract_customer_mismatch) and not be linked yet (409 subscription_already_linked); " +
    'an Amended, Terminated or Expired contract, an Expired subscription, or one Coterm would realign that is not Active or PastDue, ' +
    'is 409 invalid_state_transition. Coterm with fewer than 30 days left in the contract bills the one-time fee (a contract_fee line) ' +
    'instead of aligned periods; Coterm to a contract that ends today or earlier is 422 contract_ended.',
  request: { params: IdParamSchema, ...mutationRequest(LinkSchema) },
  responses: { 201: jsonResponse('The link', ContractSubscriptionLinkSchema) },
});
