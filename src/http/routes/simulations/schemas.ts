/** Request schemas of the simulation routes. */
import { z } from '@hono/zod-openapi';
import { SimulationCandidateSchema, SimulationRangeSchema, SimulationScopeSchema, SimulationStatusSchema } from '../../../schemas/simulations.js';
import { PaginationQuerySchema } from '../../schemas.js';

export const CreateSimulationSchema = z
  .strictObject({
    candidate: SimulationCandidateSchema,
    scope: SimulationScopeSchema,
    range: SimulationRangeSchema,
  })
  .openapi('CreateSimulation');

export const ListSimulationsQuerySchema = PaginationQuerySchema.extend({
  status: SimulationStatusSchema.optional().openapi({ description: 'only simulations in this status' }),
});
