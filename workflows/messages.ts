/**
 * Message definitions shared by workflows and the API (which must never import workflow code), one
 * file beside each workflow (workflows/<name>/messages.ts) and workflows/shared/messages.ts for what
 * they all use. This file re-exports them all for the importers outside workflows/ that still name it.
 */
export * from './shared/messages.js';
export * from './subscription/messages.js';
export * from './invoice/messages.js';
export * from './contract/messages.js';
export * from './contract-reconcile/messages.js';
export * from './revenue-recognition/messages.js';
export * from './late-usage-corrections/messages.js';
export * from './dunning-check/messages.js';
export * from './webhook-delivery/messages.js';
export * from './dunning/messages.js';
export * from './processor-event/messages.js';
export * from './wallet-recharge/messages.js';
export * from './spend-alerts/messages.js';
export * from './test-clock-advance/messages.js';
