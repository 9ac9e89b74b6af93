/** Request schemas of the simulation routes. */
import { z } from '@hono/zod-openapi';
import { SimulationCandidateSchema, SimulationRangeSchema, SimulationScopeSchema } from '../../../schemas/simulations.js';

export const CreateSimulationSchema = z
  .strictObject({
    candidate: SimulationCandidateSchema,
    scope: SimulationScopeSchema,
    range: SimulationRangeSchema,
  })
  .openapi('CreateSimulation');
