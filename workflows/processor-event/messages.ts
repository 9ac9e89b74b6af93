/**
 * Messages of the processor notification workflow (./index.ts): the operator's retry and its id.
 */
import { defineUpdate } from '@temporalio/workflow';
import type { SubscriptionCommand } from '../shared/messages.js';

export const processorEventWorkflowId = (eventId: string): string => `processor-event:${eventId}`;

/**
 * An operator's retry of a processor notification whose application failed with a billing_error:
 * clears it, and answers once it ran again with what applying it did (e.g. payment_succeeded), or
 * null when it failed again with a new billing_error.
 */
export const retryProcessorEventUpdate = defineUpdate<string | null, [SubscriptionCommand]>('retryProcessorEvent');
