/**
 * The Temporal CLI dev server (frontend + SQLite persistence + Web UI) as a child process, with the
 * workflows' custom search attributes registered.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Connection } from '@temporalio/client';
import { devServerSearchAttributeFlags } from '../temporal/search-attributes.js';
import { stopProcess, waitFor } from './processes.js';

export interface TemporalDevServerOptions {
  binary: string;
  port: number;
  uiPort: number;
  namespace: string;
  /** SQLite file for persistent state; in-memory when absent. */
  dbFile?: string;
  headless?: boolean;
  /** Server dynamic configuration (`--dynamic-config-value`), e.g. lower history limits in tests. */
  dynamicConfig?: Record<string, string | number | boolean>;
  log?: (line: string) => void;
}

export interface TemporalDevServer {
  address: string;
  uiUrl: string | undefined;
  process: ChildProcess;
  stop(): Promise<void>;
}

export async function startTemporalDevServer(options: TemporalDevServerOptions): Promise<TemporalDevServer> {
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(options.port),
    '--namespace',
    options.namespace,
    '--log-level',
    'error',
    ...(options.headless ? ['--headless'] : ['--ui-port', String(options.uiPort)]),
    ...(options.dbFile ? ['--db-filename', options.dbFile] : []),
    // The workflows' custom search attributes (an existing data file keeps the ones it has).
    ...devServerSearchAttributeFlags(),
    ...Object.entries(options.dynamicConfig ?? {}).flatMap(([key, value]) => ['--dynamic-config-value', `${key}=${JSON.stringify(value)}`]),
  ];
  const child = spawn(options.binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4_000);
    for (const line of chunk.toString().split('\n').filter(Boolean)) options.log?.(line);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<never>((_, reject) => {
    child.once('exit', (code) => reject(new Error(`Temporal dev server exited with ${code}: ${output.trim().slice(-1_000)}`)));
  });
  exited.catch(() => {});

  const address = `127.0.0.1:${options.port}`;
  try {
    await Promise.race([
      exited,
      waitFor(
        `Temporal dev server on ${address}`,
        async () => {
          const connection = await Connection.connect({ address, connectTimeout: '1s' });
          try {
            await connection.workflowService.describeNamespace({ namespace: options.namespace });
          } finally {
            await connection.close();
          }
        },
        60_000,
        250,
      ),
    ]);
  } catch (err) {
    // Never leave a server behind that did not become ready (a caller may retry on the same port).
    await stopProcess(child);
    throw err;
  }
  return {
    address,
    uiUrl: options.headless ? undefined : `http://127.0.0.1:${options.uiPort}`,
    process: child,
    stop: () => stopProcess(child),
  };
}
