/** Bundle entry of the worker: every workflow type the worker runs is exported here. */
export { subscriptionWorkflow } from './subscription.js';
