import type { RouteModule } from '../app.js';
import { registerSubscriptions } from './subscriptions.js';
import { registerTestClocks } from './test-clocks.js';

/** Every resource's route module; the app factory registers them in this order. */
export const ROUTES: RouteModule[] = [registerSubscriptions, registerTestClocks];
