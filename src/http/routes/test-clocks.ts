import { createRoute, z } from '@hono/zod-openapi';
import { actorOf } from '../actor.js';
import type { App } from '../context.js';
import { commonErrorResponses } from '../errors.js';
import { DateTimeSchema, IdempotencyHeaderSchema, IdParamSchema, UuidSchema } from '../schemas.js';
import { advanceTestClock, createTestClock, getTestClock } from '../../services/test-clocks.js';

const TestClockSchema = z
  .object({ id: UuidSchema, name: z.string(), frozen_time: z.string(), status: z.enum(['ready', 'advancing']).openapi({ description: 'advancing while an advance request is running' }), created_at: z.string() })
  .openapi('TestClock');

const json = (schema: z.ZodType, description: string) => ({ description, content: { 'application/json': { schema } } });

const create = createRoute({
  method: 'post',
  path: '/admin/v1/test-clocks',
  tags: ['Test clocks'],
  summary: 'Create a test clock frozen at a given time',
  description: 'Customers created with this test_clock_id, and their subscriptions, follow the clock instead of real time.',
  request: {
    headers: IdempotencyHeaderSchema,
    body: { required: true, content: { 'application/json': { schema: z.strictObject({ name: z.string().min(1).max(200), frozen_time: DateTimeSchema }) } } },
  },
  responses: { 201: json(TestClockSchema, 'The test clock'), ...commonErrorResponses },
});

const get = createRoute({
  method: 'get',
  path: '/admin/v1/test-clocks/{id}',
  tags: ['Test clocks'],
  summary: 'Get a test clock',
  request: { params: IdParamSchema },
  responses: { 200: json(TestClockSchema, 'The test clock'), ...commonErrorResponses },
});

const advance = createRoute({
  method: 'post',
  path: '/admin/v1/test-clocks/{id}/advance',
  tags: ['Test clocks'],
  summary: 'Advance a test clock',
  description:
    'Moves the clock forward (never back: 422 test_clock_cannot_go_back) and answers once every subscription on it has ' +
    'processed what became due: trial ends, period ends and their invoices, expirations. Subscriptions are stepped together ' +
    'from one instant where any of them has work to the next, as real time would order them. Advancing to the current ' +
    'time again re-drives the subscriptions (resuming an interrupted advance); while an advance runs, another is 409 ' +
    'test_clock_advancing.',
  request: {
    params: IdParamSchema,
    headers: IdempotencyHeaderSchema,
    body: { required: true, content: { 'application/json': { schema: z.strictObject({ frozen_time: DateTimeSchema }) } } },
  },
  responses: { 200: json(TestClockSchema, 'The advanced test clock'), ...commonErrorResponses },
});

export function registerTestClocks(app: App): void {
  app.openapi(create, async (c) => c.json(await createTestClock(c.get('deps'), c.req.valid('json'), actorOf(c), c.get('requestId')), 201));
  app.openapi(get, async (c) => c.json(await getTestClock(c.get('deps'), c.req.valid('param').id), 200));
  app.openapi(advance, async (c) =>
    c.json(await advanceTestClock(c.get('deps'), c.req.valid('param').id, c.req.valid('json').frozen_time, actorOf(c), c.get('requestId')), 200),
  );
}
