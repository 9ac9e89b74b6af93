/**
 * Webhook endpoints (SPEC §4 /admin/v1/webhooks, §6): where events are POSTed, which types, the
 * signing secret (in full only in the answers of create and rotate), and the circuit breaker's
 * state. Every change writes an audit entry (the secret never goes into it).
 */
import type { PageQuery } from '../../db/pages.js';
import { ALL_EVENTS } from '../../core/webhooks.js';
import {
  countParkedDeliveries,
  deleteEndpoint as deleteEndpointRow,
  enableEndpoint,
  findEndpoint,
  insertEndpoint,
  listEndpoints,
  lockEndpoint,
  updateEndpoint as updateEndpointRow,
  type WebhookEndpointChanges,
  type WebhookEndpointRecord,
} from '../../db/webhooks.js';
import { notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { recordAudit, type Actor } from '../audit.js';
import type { ServiceDeps } from '../deps.js';
import { EVENT_TYPES } from '../outbox.js';
import { toPage, type Page } from '../pagination.js';
import { maskSecret, newWebhookSecret } from './signature.js';
import { checkEndpointUrl } from './url-policy.js';

/** What an endpoint's `events` may name: the SPEC §6 event types and "*". */
export const SUBSCRIBABLE_EVENTS: readonly string[] = [ALL_EVENTS, ...EVENT_TYPES];

export interface RequestContext {
  actor: Actor;
  requestId: string;
}

export interface WebhookCircuitView {
  state: 'Closed' | 'Open' | 'HalfOpen';
  consecutive_failures: number;
  opened_at: string | null;
  /** When an Open circuit lets its probe through. */
  reopens_at: string | null;
}

export interface WebhookEndpointView {
  id: string;
  url: string;
  description: string;
  events: string[];
  enabled: boolean;
  failing_since: string | null;
  /** When it was disabled after a long outage (and why); null otherwise. */
  disabled_at: string | null;
  disabled_reason: string | null;
  /** In full only when created or rotated; masked otherwise. */
  secret: string;
  circuit: WebhookCircuitView;
  created_at: string;
  updated_at: string;
}

export interface CreateWebhookEndpointInput {
  url: string;
  events: string[];
  description?: string | undefined;
}

export interface UpdateWebhookEndpointInput {
  url?: string | undefined;
  events?: string[] | undefined;
  description?: string | undefined;
  enabled?: boolean | undefined;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function toEndpointView(endpoint: WebhookEndpointRecord, breakerOpenMs: number, revealSecret = false): WebhookEndpointView {
  const { breaker } = endpoint;
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    events: endpoint.events,
    enabled: endpoint.enabled,
    failing_since: endpoint.failingSince?.toISOString() ?? null,
    disabled_at: endpoint.disabledAt?.toISOString() ?? null,
    disabled_reason: endpoint.disabledReason,
    secret: revealSecret ? endpoint.secret : maskSecret(endpoint.secret),
    circuit: {
      state: breaker.state,
      consecutive_failures: breaker.consecutiveFailures,
      opened_at: iso(breaker.openedAtMs),
      reopens_at: breaker.state === 'Open' && breaker.openedAtMs !== null ? iso(breaker.openedAtMs + breakerOpenMs) : null,
    },
    created_at: endpoint.createdAt.toISOString(),
    updated_at: endpoint.updatedAt.toISOString(),
  };
}

/** What the audit trail keeps of an endpoint: everything but the secret. */
const audited = (endpoint: WebhookEndpointRecord) => ({ url: endpoint.url, description: endpoint.description, events: endpoint.events, enabled: endpoint.enabled, secret: maskSecret(endpoint.secret) });

/** Duplicates dropped, order kept; "*" alone stands for everything. */
const normalizeEvents = (events: string[]): string[] => (events.includes(ALL_EVENTS) ? [ALL_EVENTS] : [...new Set(events)]);

export async function createWebhookEndpoint(deps: ServiceDeps, input: CreateWebhookEndpointInput, context: RequestContext): Promise<WebhookEndpointView> {
  const url = await checkEndpointUrl(input.url, deps.settings.webhooks.allowPrivateUrls);
  const id = newId();
  const endpoint = await deps.db.$transaction(async (tx) => {
    const created = await insertEndpoint(tx, { id, url, description: input.description ?? '', events: normalizeEvents(input.events), secret: newWebhookSecret() });
    await recordAudit(tx, { action: 'webhook_endpoint.created', actor: context.actor, entityType: 'webhook_endpoint', entityId: id, after: audited(created), requestId: context.requestId });
    return created;
  });
  return toEndpointView(endpoint, deps.settings.webhooks.breakerOpenMs, true);
}

export async function listWebhookEndpoints(deps: ServiceDeps, page: PageQuery): Promise<Page<WebhookEndpointView>> {
  const rows = await listEndpoints(deps.db, page);
  return toPage(rows, page.limit, (row) => toEndpointView(row, deps.settings.webhooks.breakerOpenMs));
}

export async function getWebhookEndpoint(deps: ServiceDeps, id: string): Promise<WebhookEndpointView> {
  const endpoint = await findEndpoint(deps.db, id);
  if (!endpoint) throw notFound('webhook_endpoint', id);
  return toEndpointView(endpoint, deps.settings.webhooks.breakerOpenMs);
}

/** Changes url, events, description or enabled. Deliveries already recorded keep going to the new URL. */
export async function updateWebhookEndpoint(deps: ServiceDeps, id: string, input: UpdateWebhookEndpointInput, context: RequestContext): Promise<WebhookEndpointView> {
  const changes: WebhookEndpointChanges = {};
  if (input.url !== undefined) changes.url = await checkEndpointUrl(input.url, deps.settings.webhooks.allowPrivateUrls);
  if (input.events !== undefined) changes.events = normalizeEvents(input.events);
  if (input.description !== undefined) changes.description = input.description;
  if (input.enabled !== undefined) changes.enabled = input.enabled;
  const endpoint = await deps.db.$transaction(async (tx) => {
    const before = await lockEndpoint(tx, id);
    const updated = await updateEndpointRow(tx, id, changes, deps.clock());
    // Enabling an endpoint disabled after an outage enables it as POST …/enable does.
    const after = input.enabled === true && !before.enabled ? await enableEndpoint(tx, id, deps.clock()) : updated;
    await recordAudit(tx, {
      action: 'webhook_endpoint.updated',
      actor: context.actor,
      entityType: 'webhook_endpoint',
      entityId: id,
      before: audited(before),
      after: audited(after),
      requestId: context.requestId,
    });
    return after;
  });
  return toEndpointView(endpoint, deps.settings.webhooks.breakerOpenMs);
}

/**
 * Enables an endpoint (disabled after a long outage, or by hand) with a closed circuit and no outage
 * on record: the deliveries that waited for it (parked) are then woken by the circuit waker and sent,
 * oldest first, with the attempts they had left. An enabled endpoint is answered as it is.
 */
export async function enableWebhookEndpoint(deps: ServiceDeps, id: string, context: RequestContext): Promise<WebhookEndpointView> {
  const endpoint = await deps.db.$transaction(async (tx) => {
    const before = await lockEndpoint(tx, id);
    if (before.enabled && before.disabledAt === null) return before;
    const after = await enableEndpoint(tx, id, deps.clock());
    await recordAudit(tx, {
      action: 'webhook_endpoint.enabled',
      actor: context.actor,
      entityType: 'webhook_endpoint',
      entityId: id,
      before: { ...audited(before), disabled_at: before.disabledAt?.toISOString() ?? null, disabled_reason: before.disabledReason },
      after: { ...audited(after), waiting_deliveries: await countParkedDeliveries(tx, id) },
      requestId: context.requestId,
    });
    return after;
  });
  return toEndpointView(endpoint, deps.settings.webhooks.breakerOpenMs);
}

/** Deletes the endpoint and its delivery log; deliveries under way stop at their next attempt. */
export async function deleteWebhookEndpoint(deps: ServiceDeps, id: string, context: RequestContext): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    const before = await lockEndpoint(tx, id);
    await deleteEndpointRow(tx, id);
    await recordAudit(tx, { action: 'webhook_endpoint.deleted', actor: context.actor, entityType: 'webhook_endpoint', entityId: id, before: audited(before), requestId: context.requestId });
  });
}

/** A new signing secret, effective for every attempt from now on (the old one stops working at once). */
export async function rotateWebhookSecret(deps: ServiceDeps, id: string, context: RequestContext): Promise<WebhookEndpointView> {
  const endpoint = await deps.db.$transaction(async (tx) => {
    const before = await lockEndpoint(tx, id);
    const rotated = await updateEndpointRow(tx, id, { secret: newWebhookSecret() }, deps.clock());
    await recordAudit(tx, {
      action: 'webhook_endpoint.secret_rotated',
      actor: context.actor,
      entityType: 'webhook_endpoint',
      entityId: id,
      before: audited(before),
      after: audited(rotated),
      requestId: context.requestId,
    });
    return rotated;
  });
  return toEndpointView(endpoint, deps.settings.webhooks.breakerOpenMs, true);
}
