/**
 * One workflow per processor notification (id `processor-event:<event id>`): the webhook request
 * only stores the notification and starts this; applying it (through the invoice's workflow while
 * the invoice is Draft or Open) is retried here until it is done.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { ACTIVITY_RETRY } from './messages.js';

const { processProcessorEvent } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: ACTIVITY_RETRY,
});

/** Returns what applying the notification did (e.g. payment_succeeded, refund_recorded). */
export async function processorEventWorkflow(input: { eventId: string }): Promise<string> {
  return processProcessorEvent(input.eventId);
}
