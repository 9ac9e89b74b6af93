/**
 * The types of the workflows' messages (inputs, commands, answers, states), for the services: they
 * name what they hand to and get from a workflow through the gateway, and import no workflow code.
 */
export type * from '../../workflows/shared/messages.js';
export type * from '../../workflows/subscription/messages.js';
export type * from '../../workflows/invoice/messages.js';
export type * from '../../workflows/contract/messages.js';
export type * from '../../workflows/contract-reconcile/messages.js';
export type * from '../../workflows/revenue-recognition/messages.js';
export type * from '../../workflows/late-usage-corrections/messages.js';
export type * from '../../workflows/usage-event-retention/messages.js';
export type * from '../../workflows/dunning-check/messages.js';
export type * from '../../workflows/webhook-delivery/messages.js';
export type * from '../../workflows/dunning/messages.js';
export type * from '../../workflows/processor-event/messages.js';
export type * from '../../workflows/wallet-recharge/messages.js';
export type * from '../../workflows/follow-ups/messages.js';
export type * from '../../workflows/spend-alerts/messages.js';
export type * from '../../workflows/test-clock-advance/messages.js';
export type * from '../../workflows/simulation/messages.js';
