/**
 * The types of the workflows' messages (inputs, commands, answers, states), for the services: they
 * name what they hand to and get from a workflow through the gateway, and import no workflow code.
 */
export type * from '../../workflows/messages.js';
