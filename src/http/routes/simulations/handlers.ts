/**
 * The simulation handlers: each reads the validated request, calls its service and answers. The
 * route definitions are in routes.ts, the request schemas in schemas.ts.
 */
import { cancelSimulation, createSimulation, getSimulation, listSimulations, simulationResultsCsv } from '../../../services/simulations/simulations.js';
import { actorOf } from '../../actor.js';
import type { App } from '../../context.js';
import { streamCsv } from '../../csv.js';
import { sendPage } from '../../helpers.js';
import { cancel, create, get, list, resultsCsv } from './routes.js';

export function registerSimulations(app: App): void {
  app.openapi(create, async (c) => c.json(await createSimulation(c.get('deps'), c.req.valid('json'), actorOf(c), c.get('requestId')), 202));
  app.openapi(list, async (c) => sendPage(c, await listSimulations(c.get('deps'), c.req.valid('query'))));
  app.openapi(get, async (c) => c.json(await getSimulation(c.get('deps'), c.req.valid('param').id), 200));
  app.openapi(cancel, async (c) => c.json(await cancelSimulation(c.get('deps'), c.req.valid('param').id, actorOf(c), c.get('requestId')), 202));
  app.openapi(resultsCsv, async (c) => {
    const { id } = c.req.valid('param');
    return streamCsv(c, await simulationResultsCsv(c.get('deps'), id), `simulation-${id}.csv`);
  });
}
