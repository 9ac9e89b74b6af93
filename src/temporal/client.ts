import { Client, Connection, type ConnectionLike } from '@temporalio/client';
import { connectionOptions, PLAINTEXT, type TemporalSecurity } from './security.js';

export interface TemporalHandle {
  client: Client;
  /** The client's connection (an activity's handle takes the worker's client's). */
  connection: ConnectionLike;
}

/** A handle on a connection of its own (which its owner closes, and whose operator service it may use). */
export interface OwnTemporalHandle extends TemporalHandle {
  connection: Connection;
}

export async function connectTemporal(address: string, namespace: string, security: TemporalSecurity = PLAINTEXT): Promise<OwnTemporalHandle> {
  const connection = await Connection.connect({ address, connectTimeout: '5s', ...connectionOptions(security) });
  return { connection, client: new Client({ connection, namespace }) };
}

/** Resolves when the Temporal frontend answers a cheap call for our namespace. */
export async function pingTemporal(handle: TemporalHandle, namespace: string): Promise<void> {
  await handle.connection.workflowService.describeNamespace({ namespace });
}

/** How long an API request waits for Temporal before answering 503 (a start, a reachability check). */
export const TEMPORAL_CALL_TIMEOUT_MS = 3_000;

/**
 * Runs a Temporal call with a deadline, so a Temporal that cannot be reached fails the call within
 * `timeoutMs` (gRPC DEADLINE_EXCEEDED or UNAVAILABLE) instead of waiting out the SDK's retries.
 */
export function withTemporalDeadline<T>(handle: TemporalHandle, call: () => Promise<T>, timeoutMs = TEMPORAL_CALL_TIMEOUT_MS): Promise<T> {
  return handle.connection.withDeadline(Date.now() + timeoutMs, call);
}

/** Resolves when the Temporal frontend answers within the deadline. */
export async function checkTemporalReachable(handle: TemporalHandle, timeoutMs = TEMPORAL_CALL_TIMEOUT_MS): Promise<void> {
  await withTemporalDeadline(handle, () => handle.connection.workflowService.getSystemInfo({}), timeoutMs);
}
