/**
 * One attempt of a webhook delivery: ask the endpoint's circuit breaker, POST the stored bytes
 * signed with the endpoint's secret, record the attempt (time, status or error, latency, the first
 * bytes of the answer) and move the breaker. A receiver's failure is a result, never a throw: only
 * infrastructure failures (the database) throw, and the workflow retries those.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { admitAttempt, breakerChanged, recordAttemptOutcome, type BreakerPolicy } from '../../core/webhooks.js';
import type { Db } from '../../db/client.js';
import {
  findDeliveryTarget,
  lockEndpoint,
  markDeliveryFailed,
  markEndpointFailing,
  parkDelivery,
  recordAttempt,
  recordDelivered,
  saveBreaker,
  type DeliveryTarget,
} from '../../db/webhooks.js';
import { DomainError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { WebhookAttemptResult, WebhookDeliveryPolicy } from '../../temporal/messages.js';
import { PARKED_RECHECK_MS } from '../../temporal/workflows/webhook-delivery.js';
import { EVENT_ID_HEADER, EVENT_TYPE_HEADER, SIGNATURE_HEADER, signWebhookBody } from './signature.js';
import { guardedLookup, isPrivateAddress } from './url-policy.js';

/** How much of a receiver's answer an attempt keeps. */
export const RESPONSE_PREVIEW_BYTES = 1024;
/** A probe's claim on a half-open circuit outlives its own timeout by this much. */
const PROBE_LEASE_MARGIN_MS = 5_000;
const USER_AGENT = 'billing-engine-webhooks/1';

export interface WebhookSenderDeps {
  db: Db;
  logger: Logger;
  /** Whether receivers may be on loopback, link-local and private addresses (local mode). */
  allowPrivateUrls: boolean;
  /** Keep-alive agents: one connection per receiver carries many deliveries. */
  agents: { http: http.Agent; https: https.Agent };
}

export function createWebhookAgents(): WebhookSenderDeps['agents'] {
  return { http: new http.Agent({ keepAlive: true, maxSockets: 64 }), https: new https.Agent({ keepAlive: true, maxSockets: 64 }) };
}

export interface AttemptInput {
  deliveryId: string;
  policy: WebhookDeliveryPolicy;
  /** Delay before the next attempt of the schedule, or null when this is the last one. */
  nextDelayMs: number | null;
}

interface HttpOutcome {
  statusCode: number | null;
  error: string | null;
  responseBody: string | null;
  latencyMs: number;
}

export const breakerPolicy = (policy: WebhookDeliveryPolicy): BreakerPolicy => ({
  threshold: policy.breakerThreshold,
  openMs: policy.breakerOpenMs,
  probeLeaseMs: policy.timeoutMs + PROBE_LEASE_MARGIN_MS,
});

/** PostgreSQL text holds no NUL characters; a receiver may send anything. */
const storable = (text: string): string => text.replace(/\u0000/g, '\uFFFD');

/** POSTs `body` to `url`; never throws. */
export function postWebhook(deps: Pick<WebhookSenderDeps, 'allowPrivateUrls' | 'agents'>, url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<HttpOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (outcome: Omit<HttpOutcome, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      resolve({ ...outcome, latencyMs: elapsed() });
    };
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return finish({ statusCode: null, error: 'invalid URL', responseBody: null });
    }
    const host = target.hostname.replace(/^\[|\]$/g, '');
    if (!deps.allowPrivateUrls && net.isIP(host) !== 0 && isPrivateAddress(host)) {
      return finish({ statusCode: null, error: `${host} is a private address, refused in production mode`, responseBody: null });
    }
    const secure = target.protocol === 'https:';
    const request = (secure ? https : http).request(target, {
      method: 'POST',
      agent: secure ? deps.agents.https : deps.agents.http,
      headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': USER_AGENT },
      ...(deps.allowPrivateUrls ? {} : { lookup: guardedLookup }),
    });
    timer = setTimeout(() => {
      request.destroy();
      finish({ statusCode: null, error: `timed out after ${timeoutMs} ms`, responseBody: null });
    }, timeoutMs);
    request.on('error', (err: NodeJS.ErrnoException) => finish({ statusCode: null, error: err.code ? `${err.code}: ${err.message}` : err.message, responseBody: null }));
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      const done = () => finish({ statusCode: response.statusCode ?? null, error: null, responseBody: storable(Buffer.concat(chunks).toString('utf8')) });
      response.on('data', (chunk: Buffer) => {
        if (kept < RESPONSE_PREVIEW_BYTES) {
          const part = chunk.subarray(0, RESPONSE_PREVIEW_BYTES - kept);
          chunks.push(part);
          kept += part.length;
        }
      });
      response.on('end', done);
      response.on('error', (err) => finish({ statusCode: response.statusCode ?? null, error: err.message, responseBody: null }));
    });
    request.end(body);
  });
}

/**
 * Whether the delivery may send now, claiming the half-open probe when it is the one. A delivery
 * the circuit refuses is parked in the same transaction: the circuit waker wakes it (waker.ts).
 */
async function admit(db: Db, target: DeliveryTarget, policy: BreakerPolicy): Promise<{ admitted: true } | { admitted: false; retryAtMs: number }> {
  if (target.endpoint.breaker.state === 'Closed') return { admitted: true };
  return db.$transaction(async (tx) => {
    const endpoint = await lockEndpoint(tx, target.endpoint.id);
    const now = new Date();
    const admission = admitAttempt(endpoint.breaker, target.delivery.id, now.getTime(), policy);
    if (breakerChanged(endpoint.breaker, admission.breaker)) await saveBreaker(tx, endpoint.id, admission.breaker);
    if (admission.admitted) return { admitted: true };
    await parkDelivery(tx, target.delivery.id, now);
    return { admitted: false, retryAtMs: admission.retryAtMs };
  });
}

export async function attemptWebhookDelivery(deps: WebhookSenderDeps, input: AttemptInput): Promise<WebhookAttemptResult> {
  const { db, logger } = deps;
  const target = await findDeliveryTarget(db, input.deliveryId);
  if (!target) return { kind: 'gone' };
  const { delivery, endpoint } = target;
  // A retry of an attempt whose record committed: report it, send nothing more.
  if (delivery.status === 'Delivered') return { kind: 'attempted', delivered: true, attempt: delivery.attemptCount };
  if (delivery.status === 'Failed') return { kind: 'gone' };
  if (!endpoint.enabled) {
    // Disabled after an outage: the delivery waits for the endpoint to be enabled again.
    if (endpoint.disabledAt !== null) {
      const now = new Date();
      await parkDelivery(db, delivery.id, now);
      return { kind: 'suspended', retryAt: new Date(now.getTime() + PARKED_RECHECK_MS).toISOString() };
    }
    await markDeliveryFailed(db, delivery.id, new Date(), 'the endpoint is disabled');
    return { kind: 'gone' };
  }
  const policy = breakerPolicy(input.policy);
  const admission = await admit(db, target, policy).catch((err: unknown) => {
    if (err instanceof DomainError && err.kind === 'not_found') return null;
    throw err;
  });
  if (admission === null) return { kind: 'gone' };
  if (!admission.admitted) return { kind: 'suspended', retryAt: new Date(admission.retryAtMs).toISOString() };

  const startedAt = new Date();
  const outcome = await postWebhook(
    deps,
    endpoint.url,
    delivery.body,
    { [SIGNATURE_HEADER]: signWebhookBody(endpoint.secret, delivery.body), [EVENT_ID_HEADER]: delivery.eventId, [EVENT_TYPE_HEADER]: delivery.eventType },
    input.policy.timeoutMs,
  );
  const delivered = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
  const at = new Date();
  const fields = { deliveryId: delivery.id, eventId: delivery.eventId, endpointId: endpoint.id, statusCode: outcome.statusCode, latencyMs: outcome.latencyMs };
  if (delivered) {
    const recorded = await recordDelivered(db, { deliveryId: delivery.id, startedAt, latencyMs: outcome.latencyMs, statusCode: outcome.statusCode, responseBody: outcome.responseBody, at });
    if (recorded === null) return { kind: 'gone' };
    logger.debug({ ...fields, attempt: recorded.attempt }, 'webhook delivered');
    if (recorded.closedCircuit) logger.info({ endpointId: endpoint.id }, 'webhook circuit closed');
    return { kind: 'attempted', delivered: true, attempt: recorded.attempt };
  }
  const error = outcome.error ?? `HTTP ${outcome.statusCode}`;
  const result = await db
    .$transaction(async (tx) => {
      // The endpoint first, then the delivery: the order deleting an endpoint (and the circuit waker) locks them in.
      const current = await lockEndpoint(tx, endpoint.id);
      const attempt = await recordAttempt(tx, {
        deliveryId: delivery.id,
        delivered: false,
        startedAt,
        latencyMs: outcome.latencyMs,
        statusCode: outcome.statusCode,
        error,
        responseBody: outcome.responseBody,
        nextAttemptAt: input.nextDelayMs === null ? null : new Date(at.getTime() + input.nextDelayMs),
        at,
      });
      const breaker = recordAttemptOutcome(current.breaker, delivery.id, false, at.getTime(), policy);
      if (breakerChanged(current.breaker, breaker)) await saveBreaker(tx, endpoint.id, breaker);
      if (current.failingSince === null) await markEndpointFailing(tx, endpoint.id, at);
      return { attempt, opened: current.breaker.state !== 'Open' && breaker.state === 'Open' };
    })
    .catch((err: unknown) => {
      // The endpoint or the delivery was deleted while the attempt was under way.
      if (err instanceof DomainError && err.kind === 'not_found') return null;
      throw err;
    });
  if (result === null) return { kind: 'gone' };
  logger.info({ ...fields, attempt: result.attempt, error }, 'webhook attempt failed');
  if (result.opened) logger.warn({ endpointId: endpoint.id, openMs: policy.openMs }, 'webhook circuit opened: deliveries to the endpoint are suspended');
  return { kind: 'attempted', delivered: false, attempt: result.attempt };
}

/** After the schedule's last attempt failed: Failed, and logged. */
/**
 * Marks the delivery Failed: after its last attempt, or (with a reason) when an attempt failed in a
 * way no retry can fix, which becomes the delivery's last_error.
 */
export async function abandonWebhookDelivery(deps: Pick<WebhookSenderDeps, 'db' | 'logger'>, input: { deliveryId: string; attempts: number; reason?: string }): Promise<void> {
  if (await markDeliveryFailed(deps.db, input.deliveryId, new Date(), input.reason ?? null)) {
    if (input.reason === undefined) deps.logger.warn({ deliveryId: input.deliveryId, attempts: input.attempts }, 'webhook delivery abandoned after its last attempt');
    else deps.logger.error({ deliveryId: input.deliveryId, attempts: input.attempts, reason: input.reason }, 'webhook delivery failed: an attempt failed deterministically');
  }
}
