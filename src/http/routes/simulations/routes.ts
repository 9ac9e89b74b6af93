/**
 * Price simulations (docs/simulations.md), admin only: a candidate price re-rated over the recorded
 * usage of closed periods, by a workflow, apart from billing.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { SimulationSchema } from '../../../schemas/simulations.js';
import { jsonResponse, mutationRequest, pageResponse } from '../../helpers.js';
import { IdempotencyHeaderSchema, IdParamSchema } from '../../schemas.js';
import { CreateSimulationSchema, ListSimulationsQuerySchema } from './schemas.js';

const tags = ['Simulations'];

export const create = createRoute({
  method: 'post',
  path: '/admin/v1/simulations',
  operationId: 'createSimulation',
  tags,
  summary: 'Start a price simulation',
  description:
    'Answers 202 at once with the simulation (status `running`); a workflow (`simulation:<id>` in the Temporal UI, search attributes ' +
    'SimulationId and SimulationStatus) then re-rates the last `range.last_periods` closed periods of every subscription in `scope` ' +
    '(in the candidate plan’s currency) with the candidate, by the period close’s own rating over the usage recorded for each period, ' +
    'in batches. GET the simulation for progress, totals and the distribution; the per-period results as CSV at results_csv_url. ' +
    'Nothing it does touches invoices, the ledger or billing’s audit trail. An unknown candidate or scope plan is 404 `plan_not_found`, ' +
    'an unknown version 404 `plan_version_not_found`, a candidate plan without SKUs 422 `plan_has_no_skus`; price changes are ' +
    'validated like SKU prices (400 naming each field).',
  request: mutationRequest(CreateSimulationSchema),
  responses: { 202: jsonResponse('The simulation, running', SimulationSchema) },
});

export const list = createRoute({
  method: 'get',
  path: '/admin/v1/simulations',
  operationId: 'listSimulations',
  tags,
  summary: 'List price simulations',
  description:
    'Newest first, as a JSON array (pagination in the X-Has-More, X-Next-Cursor and Link headers); `status` narrows to one status, ' +
    'created_gte / created_lt by creation time. Each item is the simulation as GET answers it.',
  request: { query: ListSimulationsQuerySchema },
  responses: { 200: pageResponse('One page of simulations', SimulationSchema, 'SimulationList') },
});

export const get = createRoute({
  method: 'get',
  path: '/admin/v1/simulations/{id}',
  operationId: 'getSimulation',
  tags,
  summary: 'Get a price simulation',
  description:
    'Its status, progress (updated after each batch), and per currency the totals (actual, candidate, delta) and the distribution of ' +
    'customers by how much more or less they would pay (buckets), over the results so far.',
  request: { params: IdParamSchema },
  responses: { 200: jsonResponse('The simulation', SimulationSchema) },
});

export const cancel = createRoute({
  method: 'post',
  path: '/admin/v1/simulations/{id}/cancel',
  operationId: 'cancelSimulation',
  tags,
  summary: 'Cancel a running price simulation',
  description:
    'Moves it to `cancelling`; it stops before its next batch and ends `cancelled`, keeping the results so far. A simulation that is ' +
    'not running is 409 `simulation_not_running`.',
  request: { params: IdParamSchema, headers: IdempotencyHeaderSchema },
  responses: { 202: jsonResponse('The simulation, cancelling', SimulationSchema) },
});

export const resultsCsv = createRoute({
  method: 'get',
  path: '/admin/v1/simulations/{id}/results.csv',
  operationId: 'getSimulationResultsCsv',
  tags,
  summary: 'A price simulation’s results as CSV',
  description:
    'Streamed as it is read. One row per re-rated (subscription, period), by customer, subscription and period: customer_id, subscription_id, period_start, ' +
    'period_end, currency, actual_nanos (what its invoices billed), candidate_nanos, delta_nanos (candidate − actual); money in raw units.',
  request: { params: IdParamSchema },
  responses: { 200: { description: 'The results', content: { 'text/csv': { schema: z.string().openapi({ description: 'RFC 4180 CSV with a header row' }) } } } },
});
