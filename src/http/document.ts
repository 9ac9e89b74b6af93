/**
 * The OpenAPI document exactly as /openapi.json serves it, built from the route definitions alone
 * (no middleware, so no services or database): what the typed client is generated from and what the
 * document's own tests read.
 */
import { newApp } from './app.js';
import { registerDocs } from './routes/docs.js';
import { registerHealth } from './routes/health.js';
import { ROUTES } from './routes/index.js';

export async function apiDocumentText(): Promise<string> {
  const app = newApp();
  registerHealth(app);
  for (const register of ROUTES) register(app);
  registerDocs(app);
  return (await app.request('/openapi.json')).text();
}
