/**
 * Start-up helpers shared by the entry points: dependency checks that fail with one clear line
 * instead of a stack trace or a retry loop.
 */
import pg from 'pg';
import { ConfigError } from './config.js';
import { connectTemporal, pingTemporal, type OwnTemporalHandle } from './temporal/client.js';
import type { TemporalSecurity } from './temporal/security.js';

export class StartupError extends Error {
  override readonly name = 'StartupError';
}

function redact(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    return `${url.hostname}:${url.port || '5432'}${url.pathname}`;
  } catch {
    return '(unparseable DATABASE_URL)';
  }
}

export async function checkDatabase(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
  client.on('error', () => {}); // a drop after the check must not kill the process; the query reports it
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (err) {
    const e = err as Error & { code?: string };
    throw new StartupError(`cannot reach PostgreSQL at ${redact(databaseUrl)}: ${e.code ? `${e.code} ` : ''}${e.message}`);
  } finally {
    await client.end().catch(() => {});
  }
}

export async function connectTemporalOrFail(address: string, namespace: string, security?: TemporalSecurity): Promise<OwnTemporalHandle> {
  let handle: OwnTemporalHandle | undefined;
  try {
    handle = await connectTemporal(address, namespace, security);
    await pingTemporal(handle, namespace);
    return handle;
  } catch (err) {
    await handle?.connection.close().catch(() => {});
    const message = (err as Error).message.split('\n')[0];
    throw new StartupError(`cannot reach Temporal at ${address} (namespace ${namespace}): ${message}`);
  }
}

/** Runs an entry point; configuration and start-up errors end the process with one line. */
export function runMain(component: string, main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    if (err instanceof ConfigError || err instanceof StartupError) {
      process.stderr.write(`${component}: ${err.message}\n`);
    } else {
      process.stderr.write(`${component}: fatal: ${(err as Error).stack ?? String(err)}\n`);
    }
    process.exit(1);
  });
}
