/** Bundle entry of the worker: every workflow type the worker runs is exported here. */
export { invoiceWorkflow } from './invoice.js';
export { subscriptionWorkflow } from './subscription.js';
