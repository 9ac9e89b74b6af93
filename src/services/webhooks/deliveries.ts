/**
 * The delivery log of an endpoint (each delivery with its attempts) and the manual resend, plus
 * the start of delivery workflows shared by the relay and the resend.
 */
import { findDelivery, findEndpoint, listDeliveries, reopenDelivery, type DeliveryFilter, type DeliveryToStart, type WebhookDeliveryRecord } from '../../db/webhooks.js';
import { conflict, notFound } from '../../errors.js';
import type { WebhookDeliveryInput, WebhookDeliveryPolicy } from '../../temporal/messages.js';
import { deliveryWorkflowId, deliveryWorkflowRunning, startDeliveryWorkflowRun } from '../../temporal/workflows/webhook-delivery.js';
import type { TemporalGateway } from '../../temporal/gateway.js';
import { recordAudit } from '../audit.js';
import type { ServiceDeps } from '../deps.js';
import { toPage, type Page } from '../pagination.js';
import type { RequestContext } from './endpoints.js';
import { deliveryPolicyOf } from './settings.js';

export interface WebhookAttemptView {
  number: number;
  started_at: string;
  latency_ms: number;
  status_code: number | null;
  error: string | null;
  response_body: string | null;
}

export interface WebhookDeliveryView {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: 'Pending' | 'Delivered' | 'Failed';
  attempt_count: number;
  next_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: string | null;
  failed_at: string | null;
  /** Waiting for its endpoint's circuit (parked) since then. */
  waiting_since: string | null;
  /** The Temporal workflow of the delivery. */
  workflow_id: string;
  /** The exact JSON every attempt sends and signs. */
  payload: Record<string, unknown>;
  attempts: WebhookAttemptView[];
  created_at: string;
  updated_at: string;
}

const iso = (date: Date | null): string | null => date?.toISOString() ?? null;

export function toDeliveryView(delivery: WebhookDeliveryRecord): WebhookDeliveryView {
  return {
    id: delivery.id,
    endpoint_id: delivery.endpointId,
    event_id: delivery.eventId,
    event_type: delivery.eventType,
    status: delivery.status,
    attempt_count: delivery.attemptCount,
    next_attempt_at: iso(delivery.nextAttemptAt),
    last_status_code: delivery.lastStatusCode,
    last_error: delivery.lastError,
    delivered_at: iso(delivery.deliveredAt),
    failed_at: iso(delivery.failedAt),
    waiting_since: iso(delivery.parkedAt),
    workflow_id: deliveryWorkflowId(delivery),
    payload: JSON.parse(delivery.body) as Record<string, unknown>,
    attempts: delivery.attempts.map((a) => ({
      number: a.number,
      started_at: a.startedAt.toISOString(),
      latency_ms: a.latencyMs,
      status_code: a.statusCode,
      error: a.error,
      response_body: a.responseBody,
    })),
    created_at: delivery.createdAt.toISOString(),
    updated_at: delivery.updatedAt.toISOString(),
  };
}

export interface DeliveryWorkflowStarter {
  temporal: TemporalGateway;
  policy: WebhookDeliveryPolicy;
}

/**
 * Starts the delivery's workflow. `again` is a resend: the id of a finished delivery may run once
 * more. Otherwise (the relay) an id that ever ran is refused, so a relay that re-reads its events
 * after a crash never sends twice. Returns false when the workflow already existed.
 */
export async function startDeliveryWorkflow(starter: DeliveryWorkflowStarter, delivery: DeliveryToStart, again = false): Promise<boolean> {
  const input: WebhookDeliveryInput = { ...delivery, policy: starter.policy };
  return startDeliveryWorkflowRun(starter.temporal, input, again);
}

export async function listWebhookDeliveries(deps: ServiceDeps, endpointId: string, filter: DeliveryFilter): Promise<Page<WebhookDeliveryView>> {
  if (!(await findEndpoint(deps.db, endpointId))) throw notFound('webhook_endpoint', endpointId);
  return toPage(await listDeliveries(deps.db, endpointId, filter), filter.limit, toDeliveryView);
}

async function deliveryOf(deps: ServiceDeps, endpointId: string, deliveryId: string): Promise<WebhookDeliveryRecord> {
  const delivery = await findDelivery(deps.db, deliveryId);
  if (!delivery || delivery.endpointId !== endpointId) {
    if (!(await findEndpoint(deps.db, endpointId))) throw notFound('webhook_endpoint', endpointId);
    throw notFound('webhook_delivery', deliveryId);
  }
  return delivery;
}

export const getWebhookDelivery = async (deps: ServiceDeps, endpointId: string, deliveryId: string): Promise<WebhookDeliveryView> =>
  toDeliveryView(await deliveryOf(deps, endpointId, deliveryId));

const inProgress = (deliveryId: string) =>
  conflict('webhook_delivery_in_progress', `delivery ${deliveryId} is still being attempted; resend it once it is Delivered or Failed`, { id: deliveryId });

/**
 * Sends a Delivered or Failed delivery again, with the same bytes, as a new run of its workflow
 * with a fresh attempt budget (attempt numbers go on). Refused while its workflow is running.
 */
export async function resendWebhookDelivery(deps: ServiceDeps, endpointId: string, deliveryId: string, context: RequestContext): Promise<WebhookDeliveryView> {
  const current = await deliveryOf(deps, endpointId, deliveryId);
  // The workflow, not the row, says whether the delivery is under way: a Pending row whose
  // workflow never started (Temporal was down when it was resent) may be resent again.
  if (await deliveryWorkflowRunning(deps.temporal, current)) throw inProgress(deliveryId);
  const reopened = await deps.db.$transaction(async (tx) => {
    const row = (await reopenDelivery(tx, deliveryId, deps.clock())) ?? current;
    await recordAudit(tx, {
      action: 'webhook_delivery.resent',
      actor: context.actor,
      entityType: 'webhook_delivery',
      entityId: deliveryId,
      before: { status: current.status, attempt_count: current.attemptCount },
      after: { status: 'Pending', endpoint_id: endpointId, event_id: current.eventId },
      requestId: context.requestId,
    });
    return row;
  });
  const started = await startDeliveryWorkflow(
    { temporal: deps.temporal, policy: deliveryPolicyOf(deps.settings.webhooks) },
    { deliveryId, eventId: current.eventId, endpointId, eventType: current.eventType },
    true,
  );
  if (!started) throw inProgress(deliveryId);
  return toDeliveryView(reopened);
}
