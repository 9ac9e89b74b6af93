import type { RouteModule } from '../app.js';

/** Every resource's route module; the app factory registers them in this order. */
export const ROUTES: RouteModule[] = [];
