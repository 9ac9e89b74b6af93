/**
 * Webhook repository: endpoints (with their circuit breaker), deliveries and their attempts, and
 * the outbox relay's claims. Rows are mapped to plain records here; Prisma errors become domain
 * errors at this edge. Breaker changes happen under a row lock on the endpoint.
 */
import type pg from 'pg';
import { CLOSED_BREAKER, type Breaker, type BreakerState } from '../core/webhooks.js';
import { Prisma } from '../generated/prisma/client.js';
import type { WebhookAttempt, WebhookDelivery, WebhookDeliveryStatus, WebhookEndpoint } from '../generated/prisma/client.js';
import type { Db } from './client.js';
import { notFound } from '../errors.js';
import { newId } from '../ids.js';
import { isPrismaError } from './catalog.js';
import { NEWEST_FIRST, pageWhere, type PageQuery } from './pages.js';

type DbClient = Prisma.TransactionClient;

export interface WebhookEndpointRecord {
  id: string;
  url: string;
  description: string;
  events: string[];
  secret: string;
  enabled: boolean;
  breaker: Breaker;
  /** When the current run of failed attempts began; null while the last attempt succeeded. */
  failingSince: Date | null;
  /** When (and why) it was disabled after a long outage; null otherwise. */
  disabledAt: Date | null;
  disabledReason: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface WebhookAttemptRecord {
  number: number;
  startedAt: Date;
  latencyMs: number;
  statusCode: number | null;
  error: string | null;
  responseBody: string | null;
}

export interface WebhookDeliveryRecord {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  body: string;
  status: WebhookDeliveryStatus;
  attemptCount: number;
  nextAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
  failedAt: Date | null;
  /** Waiting for its endpoint's circuit since then (the circuit waker wakes it); null otherwise. */
  parkedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  attempts: WebhookAttemptRecord[];
}

const toBreaker = (row: WebhookEndpoint): Breaker => ({
  state: row.breakerState as BreakerState,
  consecutiveFailures: row.consecutiveFailures,
  openedAtMs: row.openedAt?.getTime() ?? null,
  probeDeliveryId: row.probeDeliveryId,
  probeUntilMs: row.probeUntil?.getTime() ?? null,
});

const breakerColumns = (breaker: Breaker) => ({
  breakerState: breaker.state,
  consecutiveFailures: breaker.consecutiveFailures,
  openedAt: breaker.openedAtMs === null ? null : new Date(breaker.openedAtMs),
  probeDeliveryId: breaker.probeDeliveryId,
  probeUntil: breaker.probeUntilMs === null ? null : new Date(breaker.probeUntilMs),
});

const toEndpoint = (row: WebhookEndpoint): WebhookEndpointRecord => ({
  id: row.id,
  url: row.url,
  description: row.description,
  events: row.events,
  secret: row.secret,
  enabled: row.enabled,
  breaker: toBreaker(row),
  failingSince: row.failingSince,
  disabledAt: row.disabledAt,
  disabledReason: row.disabledReason,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

const toAttempt = (row: WebhookAttempt): WebhookAttemptRecord => ({
  number: row.number,
  startedAt: row.startedAt,
  latencyMs: row.latencyMs,
  statusCode: row.statusCode,
  error: row.error,
  responseBody: row.responseBody,
});

const toDelivery = (row: WebhookDelivery & { attempts?: WebhookAttempt[] }): WebhookDeliveryRecord => ({
  id: row.id,
  endpointId: row.endpointId,
  eventId: row.eventId,
  eventType: row.eventType,
  body: row.body,
  status: row.status,
  attemptCount: row.attemptCount,
  nextAttemptAt: row.nextAttemptAt,
  lastStatusCode: row.lastStatusCode,
  lastError: row.lastError,
  deliveredAt: row.deliveredAt,
  failedAt: row.failedAt,
  parkedAt: row.parkedAt,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
  attempts: (row.attempts ?? []).map(toAttempt),
});

// ---------------------------------------------------------------------------------------------
// Endpoints

export interface NewWebhookEndpoint {
  id: string;
  url: string;
  description: string;
  events: string[];
  secret: string;
}

export async function insertEndpoint(db: DbClient, endpoint: NewWebhookEndpoint): Promise<WebhookEndpointRecord> {
  return toEndpoint(await db.webhookEndpoint.create({ data: endpoint }));
}

export async function findEndpoint(db: DbClient, id: string): Promise<WebhookEndpointRecord | null> {
  const row = await db.webhookEndpoint.findUnique({ where: { id } });
  return row ? toEndpoint(row) : null;
}

export async function listEndpoints(db: DbClient, page: PageQuery): Promise<WebhookEndpointRecord[]> {
  const rows = await db.webhookEndpoint.findMany({ where: pageWhere(page), orderBy: NEWEST_FIRST, take: page.limit + 1 });
  return rows.map(toEndpoint);
}

/** The endpoint, locked until the transaction ends; 404 when it does not exist. */
export async function lockEndpoint(tx: DbClient, id: string): Promise<WebhookEndpointRecord> {
  const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM webhook_endpoints WHERE id = ${id}::uuid FOR UPDATE`;
  if (locked.length === 0) throw notFound('webhook_endpoint', id);
  return toEndpoint(await tx.webhookEndpoint.findUniqueOrThrow({ where: { id } }));
}

export interface WebhookEndpointChanges {
  url?: string;
  description?: string;
  events?: string[];
  enabled?: boolean;
  secret?: string;
}

export async function updateEndpoint(tx: DbClient, id: string, changes: WebhookEndpointChanges, at: Date): Promise<WebhookEndpointRecord> {
  try {
    return toEndpoint(await tx.webhookEndpoint.update({ where: { id }, data: { ...changes, updatedAt: at } }));
  } catch (err) {
    if (isPrismaError(err, 'P2025')) throw notFound('webhook_endpoint', id);
    throw err;
  }
}

/** Deletes the endpoint with its deliveries and their attempts. */
export async function deleteEndpoint(tx: DbClient, id: string): Promise<void> {
  try {
    await tx.webhookEndpoint.delete({ where: { id } });
  } catch (err) {
    if (isPrismaError(err, 'P2025')) throw notFound('webhook_endpoint', id);
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// Deliveries

export interface DeliveryFilter extends PageQuery {
  status?: WebhookDeliveryStatus | undefined;
  event_type?: string | undefined;
}

export async function listDeliveries(db: DbClient, endpointId: string, filter: DeliveryFilter): Promise<WebhookDeliveryRecord[]> {
  const rows = await db.webhookDelivery.findMany({
    where: {
      endpointId,
      ...pageWhere(filter),
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.event_type ? { eventType: filter.event_type } : {}),
    },
    include: { attempts: { orderBy: { number: 'asc' } } },
    orderBy: NEWEST_FIRST,
    take: filter.limit + 1,
  });
  return rows.map(toDelivery);
}

export async function findDelivery(db: DbClient, id: string): Promise<WebhookDeliveryRecord | null> {
  const row = await db.webhookDelivery.findUnique({ where: { id }, include: { attempts: { orderBy: { number: 'asc' } } } });
  return row ? toDelivery(row) : null;
}

/** Delivered or Failed → Pending again, for a resend; null when the delivery is still Pending. */
export async function reopenDelivery(tx: DbClient, id: string, at: Date): Promise<WebhookDeliveryRecord | null> {
  const reopened = await tx.webhookDelivery.updateMany({
    where: { id, status: { in: ['Delivered', 'Failed'] } },
    data: { status: 'Pending', nextAttemptAt: at, deliveredAt: null, failedAt: null, parkedAt: null, updatedAt: at },
  });
  return reopened.count === 0 ? null : findDelivery(tx, id);
}

/** A delivery with its endpoint, as an attempt needs them (no attempts loaded). */
export interface DeliveryTarget {
  delivery: Omit<WebhookDeliveryRecord, 'attempts'>;
  endpoint: WebhookEndpointRecord;
}

interface DeliveryTargetRow {
  d_id: string;
  d_event_id: string;
  d_event_type: string;
  d_body: string;
  d_status: WebhookDeliveryStatus;
  d_attempt_count: number;
  d_next_attempt_at: Date | null;
  d_last_status_code: number | null;
  d_last_error: string | null;
  d_delivered_at: Date | null;
  d_failed_at: Date | null;
  d_parked_at: Date | null;
  d_created_at: Date;
  d_updated_at: Date;
  e_id: string;
  e_url: string;
  e_description: string;
  e_events: string[];
  e_secret: string;
  e_enabled: boolean;
  e_breaker_state: BreakerState;
  e_consecutive_failures: number;
  e_opened_at: Date | null;
  e_probe_delivery_id: string | null;
  e_probe_until: Date | null;
  e_failing_since: Date | null;
  e_disabled_at: Date | null;
  e_disabled_reason: string | null;
  e_created_at: Date;
  e_updated_at: Date;
}

/** The delivery and its endpoint in one round trip (every attempt starts here). */
export async function findDeliveryTarget(db: DbClient, deliveryId: string): Promise<DeliveryTarget | null> {
  const [row] = await db.$queryRaw<DeliveryTargetRow[]>`
    SELECT d.id AS d_id, d.event_id AS d_event_id, d.event_type AS d_event_type, d.body AS d_body, d.status::text AS d_status,
           d.attempt_count AS d_attempt_count, d.next_attempt_at AS d_next_attempt_at, d.last_status_code AS d_last_status_code,
           d.last_error AS d_last_error, d.delivered_at AS d_delivered_at, d.failed_at AS d_failed_at, d.parked_at AS d_parked_at, d.created_at AS d_created_at,
           d.updated_at AS d_updated_at,
           e.id AS e_id, e.url AS e_url, e.description AS e_description, e.events AS e_events, e.secret AS e_secret, e.enabled AS e_enabled,
           e.breaker_state::text AS e_breaker_state, e.consecutive_failures AS e_consecutive_failures, e.opened_at AS e_opened_at,
           e.probe_delivery_id AS e_probe_delivery_id, e.probe_until AS e_probe_until, e.failing_since AS e_failing_since,
           e.disabled_at AS e_disabled_at, e.disabled_reason AS e_disabled_reason, e.created_at AS e_created_at, e.updated_at AS e_updated_at
    FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
    WHERE d.id = ${deliveryId}::uuid`;
  if (!row) return null;
  return {
    delivery: {
      id: row.d_id,
      endpointId: row.e_id,
      eventId: row.d_event_id,
      eventType: row.d_event_type,
      body: row.d_body,
      status: row.d_status,
      attemptCount: row.d_attempt_count,
      nextAttemptAt: row.d_next_attempt_at,
      lastStatusCode: row.d_last_status_code,
      lastError: row.d_last_error,
      deliveredAt: row.d_delivered_at,
      failedAt: row.d_failed_at,
      parkedAt: row.d_parked_at,
      createdAt: row.d_created_at,
      updatedAt: row.d_updated_at,
    },
    endpoint: {
      id: row.e_id,
      url: row.e_url,
      description: row.e_description,
      events: row.e_events,
      secret: row.e_secret,
      enabled: row.e_enabled,
      breaker: {
        state: row.e_breaker_state,
        consecutiveFailures: row.e_consecutive_failures,
        openedAtMs: row.e_opened_at?.getTime() ?? null,
        probeDeliveryId: row.e_probe_delivery_id,
        probeUntilMs: row.e_probe_until?.getTime() ?? null,
      },
      failingSince: row.e_failing_since,
      disabledAt: row.e_disabled_at,
      disabledReason: row.e_disabled_reason,
      createdAt: row.e_created_at,
      updatedAt: row.e_updated_at,
    },
  };
}


/** Stores the breaker, under the lock the caller holds on the endpoint. */
export async function saveBreaker(tx: DbClient, endpointId: string, breaker: Breaker): Promise<void> {
  await tx.webhookEndpoint.update({ where: { id: endpointId }, data: breakerColumns(breaker) });
}

export interface AttemptRecordInput extends Omit<WebhookAttemptRecord, 'number'> {
  deliveryId: string;
  delivered: boolean;
  /** When the next attempt is due, or null when this was the last one (or it was delivered). */
  nextAttemptAt: Date | null;
  at: Date;
}

/** Records one attempt and moves the delivery accordingly; returns the attempt's number (404 when the delivery is gone). */
export async function recordAttempt(tx: DbClient, input: AttemptRecordInput): Promise<number> {
  const delivery = await tx.webhookDelivery
    .update({
    where: { id: input.deliveryId },
    data: {
      attemptCount: { increment: 1 },
      lastStatusCode: input.statusCode,
      lastError: input.error,
      parkedAt: null,
      updatedAt: input.at,
      ...(input.delivered ? { status: 'Delivered', deliveredAt: input.at, nextAttemptAt: null } : { nextAttemptAt: input.nextAttemptAt }),
    },
    select: { attemptCount: true },
    })
    .catch((err: unknown) => {
      if (isPrismaError(err, 'P2025')) throw notFound('webhook_delivery', input.deliveryId);
      throw err;
    });
  await tx.webhookAttempt.create({
    data: {
      id: newId(),
      deliveryId: input.deliveryId,
      number: delivery.attemptCount,
      startedAt: input.startedAt,
      latencyMs: input.latencyMs,
      statusCode: input.statusCode,
      error: input.error,
      responseBody: input.responseBody,
    },
  });
  return delivery.attemptCount;
}

/**
 * A 2xx attempt in one statement: the delivery Delivered, its attempt recorded, and the endpoint's
 * circuit closed (a success closes it from any state; a closed one without failures is left
 * untouched, so the common case takes no lock on the endpoint). Returns the attempt's number and
 * whether this closed the circuit, or null when the delivery is gone.
 */
export async function recordDelivered(
  db: DbClient,
  input: Omit<AttemptRecordInput, 'delivered' | 'nextAttemptAt' | 'error'>,
): Promise<{ attempt: number; closedCircuit: boolean } | null> {
  const [row] = await db.$queryRaw<{ attempt: number; closed: number }[]>`
    WITH d AS (
      UPDATE webhook_deliveries
      SET attempt_count = attempt_count + 1, status = 'Delivered', delivered_at = ${input.at}, next_attempt_at = NULL,
          last_status_code = ${input.statusCode}::int, last_error = NULL, parked_at = NULL, updated_at = ${input.at}
      WHERE id = ${input.deliveryId}::uuid
      RETURNING id, attempt_count, endpoint_id
    ), attempt AS (
      INSERT INTO webhook_attempts (id, delivery_id, number, started_at, latency_ms, status_code, error, response_body)
      SELECT ${newId()}::uuid, d.id, d.attempt_count, ${input.startedAt}, ${input.latencyMs}::int, ${input.statusCode}::int, NULL, ${input.responseBody}::text FROM d
    ), circuit AS (
      UPDATE webhook_endpoints
      SET breaker_state = 'Closed', consecutive_failures = 0, opened_at = NULL, probe_delivery_id = NULL, probe_until = NULL, failing_since = NULL
      WHERE id = (SELECT endpoint_id FROM d) AND (breaker_state <> 'Closed' OR consecutive_failures <> 0)
      RETURNING id
    )
    SELECT d.attempt_count AS attempt, (SELECT count(*) FROM circuit)::int AS closed FROM d`;
  return row ? { attempt: row.attempt, closedCircuit: row.closed > 0 } : null;
}

/**
 * Pending → Failed (the schedule is exhausted, or the endpoint was disabled: `error` says so);
 * false when the delivery is gone or already settled.
 */
export async function markDeliveryFailed(db: DbClient, deliveryId: string, at: Date, error: string | null): Promise<boolean> {
  const failed = await db.webhookDelivery.updateMany({
    where: { id: deliveryId, status: 'Pending' },
    data: { status: 'Failed', failedAt: at, nextAttemptAt: null, parkedAt: null, updatedAt: at, ...(error === null ? {} : { lastError: error }) },
  });
  return failed.count > 0;
}

/** The endpoint failed an attempt at `at`: its outage began then unless it was already failing (under the caller's lock). */
export async function markEndpointFailing(tx: DbClient, endpointId: string, at: Date): Promise<void> {
  await tx.$executeRaw`UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, ${at}) WHERE id = ${endpointId}::uuid`;
}

// ---------------------------------------------------------------------------------------------
// Parked deliveries and the circuit waker

/** The delivery waits for its endpoint's circuit from `at` (kept when it was parked already); false when it is not Pending. */
export async function parkDelivery(db: DbClient, deliveryId: string, at: Date): Promise<boolean> {
  const parked = await db.$executeRaw`
    UPDATE webhook_deliveries SET parked_at = COALESCE(parked_at, ${at}) WHERE id = ${deliveryId}::uuid AND status = 'Pending'`;
  return parked > 0;
}

/** A parked delivery the waker woke: its workflow is signalled. */
export interface ParkedDelivery {
  id: string;
  eventId: string;
  endpointId: string;
}

/**
 * Endpoints with parked deliveries whose circuit may let one through now: closed, open past its
 * suspension (`openMs`), half-open with a lapsed probe claim, or disabled by hand (their deliveries
 * then end as Failed). Endpoints disabled after an outage are left until they are enabled. The scan
 * reads the parked deliveries' partial index: its cost grows with endpoints, not deliveries.
 */
export async function endpointsToWake(db: DbClient, openMs: number, limit: number): Promise<string[]> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT e.id FROM webhook_endpoints e
    WHERE EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.parked_at IS NOT NULL)
      AND (
        (NOT e.enabled AND e.disabled_at IS NULL)
        OR (e.enabled AND (
          e.breaker_state = 'Closed'
          OR (e.breaker_state = 'Open' AND (e.opened_at IS NULL OR e.opened_at + ${openMs}::int * interval '1 millisecond' <= now()))
          OR (e.breaker_state = 'HalfOpen' AND (e.probe_until IS NULL OR e.probe_until <= now()))
        ))
      )
    ORDER BY e.id
    LIMIT ${limit}::int`;
  return rows.map((r) => r.id);
}

/** The endpoint locked until the transaction ends, or null when another transaction holds it (or it is gone). */
export async function lockEndpointUnlessBusy(tx: DbClient, id: string): Promise<WebhookEndpointRecord | null> {
  const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM webhook_endpoints WHERE id = ${id}::uuid FOR UPDATE SKIP LOCKED`;
  if (locked.length === 0) return null;
  return toEndpoint(await tx.webhookEndpoint.findUniqueOrThrow({ where: { id } }));
}

/** The endpoint's oldest parked delivery (ids are UUIDv7: creation order). */
export async function oldestParkedDelivery(tx: DbClient, endpointId: string): Promise<ParkedDelivery | null> {
  const row = await tx.webhookDelivery.findFirst({
    where: { endpointId, parkedAt: { not: null } },
    orderBy: { id: 'asc' },
    select: { id: true, eventId: true, endpointId: true },
  });
  return row;
}

/** Unparks the endpoint's parked deliveries (only `deliveryId` when given), oldest first, and returns them. */
export async function unparkDeliveries(tx: DbClient, endpointId: string, deliveryId?: string): Promise<ParkedDelivery[]> {
  const rows = await tx.$queryRaw<{ id: string; event_id: string }[]>`
    UPDATE webhook_deliveries SET parked_at = NULL
    WHERE endpoint_id = ${endpointId}::uuid AND parked_at IS NOT NULL ${deliveryId === undefined ? Prisma.empty : Prisma.sql`AND id = ${deliveryId}::uuid`}
    RETURNING id, event_id`;
  return rows.map((r) => ({ id: r.id, eventId: r.event_id, endpointId })).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Disables the endpoint after a long outage (under the caller's lock). */
export async function disableEndpoint(tx: DbClient, id: string, at: Date, reason: string): Promise<WebhookEndpointRecord> {
  return toEndpoint(await tx.webhookEndpoint.update({ where: { id }, data: { enabled: false, disabledAt: at, disabledReason: reason, updatedAt: at } }));
}

/** Enables the endpoint with a closed circuit and no outage on record (under the caller's lock). */
export async function enableEndpoint(tx: DbClient, id: string, at: Date): Promise<WebhookEndpointRecord> {
  return toEndpoint(
    await tx.webhookEndpoint.update({
      where: { id },
      data: { enabled: true, disabledAt: null, disabledReason: null, failingSince: null, ...breakerColumns(CLOSED_BREAKER), updatedAt: at },
    }),
  );
}

/** How many of the endpoint's deliveries are parked. */
export const countParkedDeliveries = (db: DbClient, endpointId: string): Promise<number> =>
  db.webhookDelivery.count({ where: { endpointId, parkedAt: { not: null } } });

// ---------------------------------------------------------------------------------------------
// Outbox relay

/** A delivery whose workflow the relay starts. */
export interface DeliveryToStart {
  deliveryId: string;
  eventId: string;
  endpointId: string;
  eventType: string;
}

export interface ClaimedBatch {
  eventIds: string[];
  deliveries: DeliveryToStart[];
}

/** A large batch on a busy database may take longer than Prisma's 5 s default; a lapsed claim is only retried later. */
const CLAIM_TRANSACTION = { maxWait: 10_000, timeout: 60_000 };

interface ClaimedEvent {
  id: string;
  type: string;
  payload: { id: string; type: string; timestamp: string; data: unknown };
  created_at: Date;
}

/**
 * Claims up to `limit` undispatched outbox events (oldest first) for `leaseMs`, skipping rows other
 * relays hold, and records one Pending delivery per (event, endpoint subscribed to its type, created
 * no later than the event) with the exact bytes every attempt will send. Claims that lapsed (a relay
 * died) are claimed again; deliveries recorded by an earlier claim are kept and returned again, and
 * endpoints created since are not added.
 */
export async function claimOutboxEvents(db: Db, limit: number, leaseMs: number, subscribed: (events: string[], type: string) => boolean): Promise<ClaimedBatch> {
  return db.$transaction(async (tx) => {
    const events = await tx.$queryRaw<ClaimedEvent[]>`
      UPDATE outbox_events o SET relay_lease_until = now() + ${leaseMs}::int * interval '1 millisecond'
      FROM (
        SELECT id FROM outbox_events
        WHERE dispatched_at IS NULL AND (relay_lease_until IS NULL OR relay_lease_until < now())
        ORDER BY created_at, id
        LIMIT ${limit}::int
        FOR UPDATE SKIP LOCKED
      ) picked
      WHERE o.id = picked.id
      RETURNING o.id, o.type, o.payload, o.created_at`;
    if (events.length === 0) return { eventIds: [], deliveries: [] };
    const oldest = events.reduce((min, e) => (e.created_at < min ? e.created_at : min), events[0]!.created_at);
    const endpoints = await tx.webhookEndpoint.findMany({
      where: { enabled: true, createdAt: { lte: events.reduce((max, e) => (e.created_at > max ? e.created_at : max), oldest) } },
      select: { id: true, events: true, createdAt: true },
    });
    const rows = events.flatMap((event) =>
      endpoints
        .filter((endpoint) => endpoint.createdAt <= event.created_at && subscribed(endpoint.events, event.type))
        .map((endpoint) => ({
          id: newId(),
          endpointId: endpoint.id,
          eventId: event.id,
          eventType: event.type,
          // The SPEC's field order, whatever order jsonb keeps the keys in.
          body: JSON.stringify({ id: event.payload.id, type: event.payload.type, timestamp: event.payload.timestamp, data: event.payload.data }),
        })),
    );
    if (rows.length > 0) await tx.webhookDelivery.createMany({ data: rows, skipDuplicates: true });
    const eventIds = events.map((e) => e.id);
    const deliveries = await tx.webhookDelivery.findMany({
      where: { eventId: { in: eventIds }, status: 'Pending' },
      select: { id: true, eventId: true, endpointId: true, eventType: true },
      orderBy: { id: 'asc' },
    });
    return { eventIds, deliveries: deliveries.map((d) => ({ deliveryId: d.id, eventId: d.eventId, endpointId: d.endpointId, eventType: d.eventType })) };
  }, CLAIM_TRANSACTION);
}

/** Marks claimed events as handed over: their delivery workflows exist. */
export async function markOutboxDispatched(db: DbClient, eventIds: string[]): Promise<void> {
  if (eventIds.length === 0) return;
  await db.outboxEvent.updateMany({ where: { id: { in: eventIds } }, data: { dispatchedAt: new Date(), relayLeaseUntil: null } });
}

/** The channel the outbox trigger NOTIFYs when an insert commits (migration 20261123100000_webhooks). */
export const OUTBOX_CHANNEL = 'outbox_events';

export interface OutboxListener {
  close(): Promise<void>;
}

/**
 * A dedicated connection LISTENing for committed outbox inserts. `onLost` is called once if the
 * connection fails; the caller falls back to polling and listens again.
 */
export async function listenForOutbox(pool: pg.Pool, onNotify: () => void, onLost: (err: Error) => void): Promise<OutboxListener> {
  const client = await pool.connect();
  let open = true;
  client.on('notification', onNotify);
  client.on('error', (err) => {
    if (!open) return;
    open = false;
    client.release(err);
    onLost(err);
  });
  try {
    await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
  } catch (err) {
    open = false;
    client.release(err as Error);
    throw err;
  }
  return {
    async close() {
      if (!open) return;
      open = false;
      await client.query(`UNLISTEN ${OUTBOX_CHANNEL}`).catch(() => undefined);
      client.release();
    },
  };
}
