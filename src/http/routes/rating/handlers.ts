/**
 * The rating handlers: each reads the validated request, calls its service and answers. The route
 * definitions are in routes.ts, the request schemas in schemas.ts.
 */
import { previewRating } from '../../../services/billing/rating-preview.js';
import type { App } from '../../context.js';
import { previewRoute } from './routes.js';

export function registerRating(app: App): void {
  app.openapi(previewRoute, async (c) => c.json(await previewRating(c.get('deps'), c.req.valid('json')), 200));
}
