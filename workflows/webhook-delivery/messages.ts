/**
 * Messages of the webhook delivery workflow (./index.ts): one outbox event to one endpoint (SPEC §6).
 */
import { defineSignal } from '@temporalio/workflow';


/** Webhook delivery: one outbox event to one endpoint (SPEC §6). */
export interface WebhookDeliveryPolicy {
  /** Delay before each attempt, counted from the end of the previous one; its length is the attempt budget. */
  retryScheduleMs: number[];
  /** How long the receiver has to answer one attempt. */
  timeoutMs: number;
  /** Consecutive failed attempts that open the endpoint's circuit. */
  breakerThreshold: number;
  /** How long an open circuit suspends deliveries to the endpoint. */
  breakerOpenMs: number;
}

export interface WebhookDeliveryInput {
  deliveryId: string;
  eventId: string;
  endpointId: string;
  eventType: string;
  policy: WebhookDeliveryPolicy;
}

export type WebhookDeliveryStatus = 'Pending' | 'Delivered' | 'Failed';

/** What one call of the attempt activity did. */
export type WebhookAttemptResult =
  /** Sent: `delivered` when the receiver answered 2xx. */
  | { kind: 'attempted'; delivered: boolean; attempt: number }
  /**
   * Not sent: the endpoint's circuit is open (or another delivery holds its probe) until retryAt
   * (ISO), or the endpoint was disabled after an outage. The delivery is parked: the circuit waker
   * signals it when the circuit lets it through.
   */
  | { kind: 'suspended'; retryAt: string }
  /** Not sent, and never will be: the endpoint was deleted or disabled, or the delivery is gone. */
  | { kind: 'gone' };

export interface WebhookDeliveryOutcome {
  status: WebhookDeliveryStatus | 'Cancelled';
  /** Attempts this run made. */
  attempts: number;
}

/** Readable in the Temporal UI, and unique per (event, endpoint): a relay restart never sends twice. */
export const webhookDeliveryWorkflowId = (eventId: string, endpointId: string): string => `webhook:${eventId}:${endpointId}`;

/**
 * The circuit waker's word to a parked delivery: its endpoint's circuit lets it through now (closed,
 * or this delivery is the half-open probe). One waker per process serves every endpoint, so waiting
 * costs grow with endpoints, not deliveries.
 */
export const circuitReadySignal = defineSignal('circuitReady');

/**
 * A parked delivery asks again after this long even without the waker's signal: a safety net for a
 * signal lost with a waker that died between its commit and the signal, not the way it is woken.
 */
export const PARKED_RECHECK_MS = 60 * 60_000;
