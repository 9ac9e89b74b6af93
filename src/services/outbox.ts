/**
 * Transactional outbox: an event is written in the same transaction as the state change it
 * announces; a relay delivers it later. Payload shape is SPEC §6: { id, type, timestamp, data }.
 */
import type { DbClient } from '../db/client.js';
import { insertOutboxEvent } from '../db/outbox.js';
import { newId } from '../ids.js';

/** SPEC §6 event types (payment.succeeded included), plus the contract lifecycle's and test clocks' own: the webhook endpoints API validates against this list. */
export const EVENT_TYPES = [
  'invoice.finalized',
  'invoice.paid',
  'invoice.voided',
  'subscription.created',
  'subscription.cancelled',
  'subscription.past_due',
  'payment.failed',
  'payment.succeeded',
  'spend_alert.triggered',
  'credit_note.issued',
  // Contract lifecycle (beyond SPEC §6): moves, escalation steps, phase true-ups, adopted (and coterm-realigned) subscriptions.
  'contract.created',
  'contract.activated',
  'contract.amended',
  'contract.expired',
  'contract.terminated',
  'contract.escalated',
  'contract.trued_up',
  'contract.subscription_linked',
  'contract.subscription_aligned',
  // Test clocks (beyond SPEC §6, as in Stripe): an asynchronous advance ended.
  'test_clock.ready',
  'test_clock.internal_failure',
  // Entitlements (beyond SPEC §6): a metered feature's period used every source up; the period roll reset its balance.
  'entitlement.exhausted',
  'entitlement.reset',
  // Webhook endpoints (beyond SPEC §6, as in Stripe): an endpoint was disabled after a long outage.
  'webhook_endpoint.disabled',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export async function enqueueEvent(
  tx: DbClient,
  type: EventType,
  aggregateId: string,
  data: Record<string, string | number | boolean | null>,
  occurredAt: Date,
): Promise<string> {
  const id = newId();
  await insertOutboxEvent(tx, { id, type, aggregateId, occurredAt, payload: { id, type, timestamp: occurredAt.toISOString(), data } });
  return id;
}
