/**
 * Subscriptions (SPEC §2, §3): creating and reading them, their state moves (pause, resume, cancel),
 * billing the current period on demand and plan changes. Each move runs as an update on the
 * subscription's workflow.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { UuidSchema } from '../../../schemas/common.js';
import { InvoiceSchema } from '../../../schemas/invoicing.js';
import { PlanChangeSchema, SubscriptionSchema, UpcomingInvoiceSchema } from '../../../schemas/subscriptions.js';
import { jsonResponse, mutationRequest, pageResponse } from '../../helpers.js';
import { IdempotencyHeaderSchema, IdParamSchema, UpdateMetadataSchema, ReasonSchema } from '../../schemas.js';
import { CreateSubscriptionSchema, ListSubscriptionsQuerySchema } from './schemas.js';

const LIST_RULES =
  'Newest first, filtered by customer_id, status, plan_id, currency, test_clock_id and created_gte / created_lt. ' +
  'A JSON array; X-Has-More, X-Next-Cursor and Link rel="next" headers page through the rest.';

export const create = createRoute({
  method: 'post',
  path: '/v1/subscriptions',
  operationId: 'createSubscription',
  tags: ['Subscriptions'],
  summary: 'Create a subscription (starts its workflow)',
  description:
    'Trialing when trial_days > 0 (the trial is the first period; paid periods are anchored on the day it ends), else Active. ' +
    "The currency, when given, must be the currency of the plan's SKUs (422 currency_mismatch); omitted, it is that currency. " +
    'An archived plan, or a plan of an archived product, is 409 plan_archived / product_archived. ' +
    'A customer token may only subscribe its own customer. ' +
    'Customers on a test clock subscribe at the clock\'s time.',
  request: mutationRequest(CreateSubscriptionSchema),
  responses: { 201: jsonResponse('The subscription', SubscriptionSchema) },
});

export const get = createRoute({
  method: 'get',
  path: '/v1/subscriptions/{id}',
  operationId: 'getOwnSubscription',
  tags: ['Subscriptions'],
  summary: 'Get a subscription with its status',
  description: 'A customer token sees only its own subscriptions; any other id is 404 `subscription_not_found`. An admin credential sees every subscription.',
  request: { params: IdParamSchema },
  responses: { 200: jsonResponse('The subscription', SubscriptionSchema) },
});

export const upcomingInvoiceRoute = createRoute({
  method: 'get',
  path: '/v1/subscriptions/{id}/upcoming-invoice',
  operationId: 'getUpcomingInvoice',
  tags: ['Subscriptions'],
  summary: 'The invoice the current period would produce if it closed now',
  description:
    'The period close itself runs, in a transaction that is rolled back: every usage event recorded for the period so far rated with its tiers, ' +
    'contract terms (discounts, overrides, escalation, proration) and late usage of earlier periods, then the spend cap, tax, the customer balance ' +
    'and the credit wallet as finalization applies them. Nothing is written and no workflow is touched; the close at the period end produces the ' +
    "same lines and totals when nothing changes meanwhile. A customer token sees only its own subscriptions (another customer's is 404 " +
    '`subscription_not_found`); an admin credential sees every subscription.',
  request: { params: IdParamSchema },
  responses: { 200: jsonResponse('The upcoming invoice', UpcomingInvoiceSchema) },
});

export const list = createRoute({
  method: 'get',
  path: '/v1/subscriptions',
  operationId: 'listOwnSubscriptions',
  tags: ['Subscriptions'],
  summary: 'List subscriptions',
  description: `${LIST_RULES} A customer token lists only its own customer's subscriptions (another customer_id is 404 customer_not_found).`,
  request: { query: ListSubscriptionsQuerySchema },
  responses: { 200: pageResponse('One page of subscriptions', SubscriptionSchema, 'SubscriptionList') },
});

export const adminList = createRoute({
  method: 'get',
  path: '/admin/v1/subscriptions',
  operationId: 'listSubscriptions',
  tags: ['Subscriptions'],
  summary: 'List every subscription',
  description: LIST_RULES,
  request: { query: ListSubscriptionsQuerySchema },
  responses: { 200: pageResponse('One page of subscriptions', SubscriptionSchema, 'SubscriptionList') },
});

export const adminGet = createRoute({
  method: 'get',
  path: '/admin/v1/subscriptions/{id}',
  operationId: 'getSubscription',
  tags: ['Subscriptions'],
  summary: 'Get a subscription',
  description: 'The subscription with its status, its current period, its plan version and any billing_error waiting for an operator.',
  request: { params: IdParamSchema },
  responses: { 200: jsonResponse('The subscription', SubscriptionSchema) },
});

export const update = createRoute({
  method: 'patch',
  path: '/admin/v1/subscriptions/{id}',
  operationId: 'updateSubscription',
  tags: ['Subscriptions'],
  summary: "Update a subscription's metadata",
  description:
    'metadata only (your own key/value pairs, never read by billing), in any status: the keys sent are merged in, a key set to null ' +
    'is removed. Plan changes and state moves have their own operations.',
  request: { params: IdParamSchema, ...mutationRequest(UpdateMetadataSchema) },
  responses: { 200: jsonResponse('The subscription', SubscriptionSchema) },
});

export const bill = createRoute({
  method: 'post',
  path: '/admin/v1/subscriptions/{id}/bill',
  operationId: 'billSubscription',
  tags: ['Billing'],
  summary: "Bill the subscription's current period now",
  description:
    "Rates the current period to now and puts what is not invoiced yet on the period's Draft, creating it (201) or refreshing it " +
    '(200): billing a period twice never creates a second invoice for it. Runs as an update on the subscription workflow. ' +
    'Trialing and Expired subscriptions have nothing to bill (409 invalid_state_transition); a period fully invoiced already gives 422 nothing_to_bill.',
  request: { params: IdParamSchema, headers: IdempotencyHeaderSchema },
  responses: { 200: jsonResponse('The refreshed Draft', InvoiceSchema), 201: jsonResponse('The new Draft', InvoiceSchema) },
});

export const changePlanRoute = createRoute({
  method: 'post',
  path: '/admin/v1/subscriptions/{id}/change-plan',
  operationId: 'changeSubscriptionPlan',
  tags: ['Billing'],
  summary: 'Switch the subscription to another plan, with proration',
  description:
    "Takes effect at the subscription's now (the change day belongs to the new plan). The period's Draft then carries the old " +
    "plan's recurring fees for the days used and the new plan's for the rest; when the old fee was already invoiced, a credit " +
    'line for its unused part. The new plan must be priced in the subscription currency. The subscription takes the plan\'s ' +
    'current version; the same plan_id moves it to that version from an older one (422 same_plan when already there). ' +
    'An archived plan, or a plan of an archived product, is 409 plan_archived / product_archived.',
  request: { params: IdParamSchema, ...mutationRequest(z.strictObject({ plan_id: UuidSchema })) },
  responses: { 200: jsonResponse('The subscription and its Draft', PlanChangeSchema) },
});

export const retry = createRoute({
  method: 'post',
  path: '/admin/v1/subscriptions/{id}/retry',
  operationId: 'retrySubscription',
  tags: ['Billing'],
  summary: 'Retry the billing step that left the subscription in billing_error',
  description:
    "A step of the subscription's workflow (a period close, a finalization, a roll) whose work failed in a way no automatic " +
    'retry fixes (invalid stored data such as a negative usage total, a numeric overflow, or a transient failure that outlasted ' +
    'its retry schedule) holds the subscription with billing_error set; updates are still served. Fix the data, then retry: ' +
    'billing_error is cleared (audited as subscription.billing_retried) and the answer comes once the step ran again, with ' +
    'billing_error set anew when it failed again. 409 no_billing_error when there is nothing to retry. On a test clock, advance ' +
    'the clock to its current time afterwards to wait for everything due.',
  request: { params: IdParamSchema, headers: IdempotencyHeaderSchema },
  responses: { 200: jsonResponse('The subscription after the retried step', SubscriptionSchema) },
});

/** The moves an operator makes on a subscription, each a POST …/{move} taking an optional reason. */
const moveRoute = <M extends string>(move: M, summary: string) =>
  createRoute({
    method: 'post',
    path: `/admin/v1/subscriptions/{id}/${move}` as const,
    operationId: `${move}Subscription`,
    tags: ['Subscriptions'],
    summary,
    description:
      'Runs as a Temporal update on the subscription workflow; its validator rejects invalid moves (409 invalid_state_transition) before anything is recorded.',
    request: { params: IdParamSchema, ...mutationRequest(ReasonSchema, false) },
    responses: { 200: jsonResponse('The subscription after the move', SubscriptionSchema) },
  });

export const moveRoutes = {
  pause: moveRoute('pause', 'Pause an Active or PastDue subscription'),
  resume: moveRoute('resume', 'Resume a Paused subscription'),
  cancel: moveRoute('cancel', 'Cancel a Trialing, Active, PastDue or Paused subscription; its period is billed and it expires when the period ends'),
};
