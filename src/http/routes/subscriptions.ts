import { createRoute, z } from '@hono/zod-openapi';
import { actorOf, ownCustomerId } from '../actor.js';
import type { App } from '../context.js';
import { commonErrorResponses } from '../errors.js';
import { CurrencySchema, IdempotencyHeaderSchema, IdParamSchema, NonNegativeMoneySchema, pageResponse, PaginationQuerySchema, sendPage, UuidSchema } from '../schemas.js';
import { createSubscription, getSubscription, listSubscriptions, moveSubscription } from '../../services/subscriptions.js';

const SubscriptionStatusSchema = z.enum(['Trialing', 'Active', 'PastDue', 'Paused', 'Cancelled', 'Expired']);

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
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Subscription');

const CreateSubscriptionSchema = z
  .strictObject({
    customer_id: UuidSchema,
    plan_id: UuidSchema,
    currency: CurrencySchema,
    trial_days: z.number().int().min(0).max(730).optional().openapi({ description: "defaults to the plan's trial_days; > 0 starts in Trialing" }),
    progressive_threshold_nanos: NonNegativeMoneySchema.optional().openapi({
      description: 'progressive billing: when the open period\'s accrued charges reach this, its Draft is finalized and a new one opens',
    }),
  })
  .openapi('CreateSubscription');

const MoveSchema = z.strictObject({ reason: z.string().max(500).optional() }).openapi('SubscriptionMove');

const json = (schema: z.ZodType, description: string) => ({ description, content: { 'application/json': { schema } } });

const create = createRoute({
  method: 'post',
  path: '/v1/subscriptions',
  tags: ['Subscriptions'],
  summary: 'Create a subscription (starts its workflow)',
  description:
    'Trialing when trial_days > 0 (the trial is the first period; paid periods are anchored on the day it ends), else Active. ' +
    "The currency must be the currency of the plan's SKUs. A customer token may only subscribe its own customer. " +
    'Customers on a test clock subscribe at the clock\'s time.',
  request: { headers: IdempotencyHeaderSchema, body: { required: true, content: { 'application/json': { schema: CreateSubscriptionSchema } } } },
  responses: { 201: json(SubscriptionSchema, 'The subscription'), ...commonErrorResponses },
});

const get = createRoute({
  method: 'get',
  path: '/v1/subscriptions/{id}',
  tags: ['Subscriptions'],
  summary: 'Get a subscription with its status',
  request: { params: IdParamSchema },
  responses: { 200: json(SubscriptionSchema, 'The subscription'), ...commonErrorResponses },
});

const list = createRoute({
  method: 'get',
  path: '/v1/subscriptions',
  tags: ['Subscriptions'],
  summary: 'List subscriptions',
  description:
    'In creation order, filtered by customer_id and status. A customer token lists only its own customer\'s subscriptions ' +
    '(another customer_id is 404). A JSON array; X-Has-More, X-Next-Cursor and Link rel="next" headers page through the rest.',
  request: {
    query: PaginationQuerySchema.extend({
      customer_id: UuidSchema.optional().openapi({ description: 'only this customer\'s subscriptions' }),
      status: SubscriptionStatusSchema.optional().openapi({ description: 'only subscriptions in this state' }),
    }),
  },
  responses: { 200: pageResponse('One page of subscriptions', SubscriptionSchema, 'SubscriptionList'), ...commonErrorResponses },
});

const MOVES = {
  pause: 'Pause an Active or PastDue subscription',
  resume: 'Resume a Paused subscription (any other state is 409 invalid_state_transition)',
  cancel: 'Cancel a Trialing, Active, PastDue or Paused subscription; its period is billed and it expires when the period ends',
} as const;

export function registerSubscriptions(app: App): void {
  app.openapi(create, async (c) => {
    const subscription = await createSubscription(c.get('deps'), c.req.valid('json'), actorOf(c), c.get('requestId'), ownCustomerId(c));
    return c.json(subscription, 201);
  });
  app.openapi(list, async (c) => sendPage(c, await listSubscriptions(c.get('deps'), c.req.valid('query'), ownCustomerId(c))));
  app.openapi(get, async (c) => c.json(await getSubscription(c.get('deps'), c.req.valid('param').id, ownCustomerId(c)), 200));

  for (const [move, summary] of Object.entries(MOVES) as [keyof typeof MOVES, string][]) {
    const route = createRoute({
      method: 'post',
      path: `/admin/v1/subscriptions/{id}/${move}`,
      tags: ['Subscriptions'],
      summary,
      description: 'Runs as a Temporal update on the subscription workflow; its validator rejects invalid moves before anything is recorded.',
      request: {
        params: IdParamSchema,
        headers: IdempotencyHeaderSchema,
        body: { required: false, content: { 'application/json': { schema: MoveSchema } } },
      },
      responses: { 200: json(SubscriptionSchema, 'The subscription after the move'), ...commonErrorResponses },
    });
    app.openapi(route, async (c) => {
      const body = (c.req.valid('json') as z.infer<typeof MoveSchema> | undefined) ?? {};
      const subscription = await moveSubscription(c.get('deps'), c.req.valid('param').id, move, {
        actor: actorOf(c),
        requestId: c.get('requestId'),
        ...(body.reason ? { reason: body.reason } : {}),
      });
      return c.json(subscription, 200);
    });
  }
}
