/** Test clocks (sandbox time): customers on a clock, and their subscriptions, follow it instead of real time. */
import { createRoute, z } from '@hono/zod-openapi';
import { DateTimeSchema } from '../../../schemas/common.js';
import { TestClockSchema } from '../../../schemas/subscriptions.js';
import { jsonResponse, mutationRequest, pageResponse } from '../../helpers.js';
import { IdempotencyHeaderSchema, IdParamSchema, PaginationQuerySchema } from '../../schemas.js';

export const create = createRoute({
  method: 'post',
  path: '/admin/v1/test-clocks',
  operationId: 'createTestClock',
  tags: ['Test clocks'],
  summary: 'Create a test clock frozen at a given time',
  description: 'Customers created with this test_clock_id, and their subscriptions, follow the clock instead of real time.',
  request: mutationRequest(z.strictObject({ name: z.string().min(1).max(200), frozen_time: DateTimeSchema })),
  responses: { 201: jsonResponse('The test clock', TestClockSchema) },
});

export const get = createRoute({
  method: 'get',
  path: '/admin/v1/test-clocks/{id}',
  operationId: 'getTestClock',
  tags: ['Test clocks'],
  summary: 'Get a test clock',
  description: 'The clock with its frozen time, its status (ready, advancing, internal_failure) and the progress of its latest advance.',
  request: { params: IdParamSchema },
  responses: { 200: jsonResponse('The test clock', TestClockSchema) },
});

export const list = createRoute({
  method: 'get',
  path: '/admin/v1/test-clocks',
  operationId: 'listTestClocks',
  tags: ['Test clocks'],
  summary: 'List test clocks',
  description: 'Newest first, as a JSON array (pagination in the X-Has-More, X-Next-Cursor and Link headers); created_gte / created_lt narrow by creation time.',
  request: { query: PaginationQuerySchema },
  responses: { 200: pageResponse('One page of test clocks', TestClockSchema, 'TestClockList') },
});

export const advance = createRoute({
  method: 'post',
  path: '/admin/v1/test-clocks/{id}/advance',
  operationId: 'advanceTestClock',
  tags: ['Test clocks'],
  summary: 'Advance a test clock',
  description:
    'Moves the clock forward (never back: 422 test_clock_cannot_go_back) and answers 202 at once with the clock in status ' +
    '`advancing` and its new frozen_time, as in Stripe. A workflow (`test-clock-advance:<id>` in the Temporal UI) then drives ' +
    'every subscription on the clock through what became due: trial ends, period ends and their invoices, expirations. ' +
    'Subscriptions are stepped together from one instant where any of them has work to the next, as real time would order ' +
    'them. GET the clock for progress (`advance.simulated_time`, `advance.subscriptions_done` of `subscriptions_total`) ' +
    'until it is `ready` (event `test_clock.ready`); `internal_failure` (event `test_clock.internal_failure`) means the ' +
    'advance failed: advance again. Advancing to the current time again re-drives the subscriptions; while an advance ' +
    'runs, another is 409 test_clock_advancing.',
  request: { params: IdParamSchema, ...mutationRequest(z.strictObject({ frozen_time: DateTimeSchema })) },
  responses: { 202: jsonResponse('The test clock, advancing', TestClockSchema) },
});

export const remove = createRoute({
  method: 'delete',
  path: '/admin/v1/test-clocks/{id}',
  operationId: 'deleteTestClock',
  tags: ['Test clocks'],
  summary: 'Delete a test clock without customers',
  description:
    'Deletes a clock no customer lives on (audited as test_clock.deleted). A clock with customers, closed ones included, is 409 ' +
    '`test_clock_has_customers` (details.customers: how many); an advancing clock 409 `test_clock_advancing`; an unknown one 404 `test_clock_not_found`.',
  request: { params: IdParamSchema, headers: IdempotencyHeaderSchema },
  responses: { 204: { description: 'Deleted' } },
});
