/**
 * Driver adapter used by the Prisma CLI (migrate deploy/dev/status) through prisma.config.ts.
 *
 * Prisma 6.19 migrates offline through its WASM schema engine and @prisma/adapter-pg. The engine
 * reads catalog columns of type `name` (oid 19) and `"char"` (oid 18) which adapter-pg does not map
 * (prisma/orm#27403); we report them as `text` (oid 25), which is what they carry.
 * adapter-pg also splits migration scripts on every `;`, which breaks dollar-quoted function bodies
 * (our append-only triggers); we send each script whole, as one simple-protocol query, which
 * PostgreSQL runs atomically. Its shadow database for `migrate dev` needs a fix too (below).
 */
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';

const NAME_OID = 19;
const CHAR_OID = 18;
const TEXT_OID = 25;

type FieldList = { dataTypeID: number }[] | undefined;

function retypeCatalogFields<T>(result: T): T {
  const fields = (result as { fields?: FieldList } | undefined)?.fields;
  for (const field of fields ?? []) {
    if (field.dataTypeID === NAME_OID || field.dataTypeID === CHAR_OID) field.dataTypeID = TEXT_OID;
  }
  return result;
}

/** pg.Client whose query results (promise and callback forms) expose catalog types as text. */
class CatalogTextClient extends pg.Client {
  // pg's overloads cannot be re-declared precisely; we forward whatever arguments we get.
  override query(...args: unknown[]): any {
    const callbackIndex = args.findIndex((a) => typeof a === 'function');
    if (callbackIndex >= 0) {
      const callback = args[callbackIndex] as (err: Error | null, res: unknown) => void;
      args[callbackIndex] = (err: Error | null, res: unknown) => callback(err, err ? res : retypeCatalogFields(res));
      return (super.query as (...a: unknown[]) => unknown)(...args);
    }
    const submittable = args[0] as { submit?: unknown; callback?: unknown } | undefined;
    if (submittable && typeof submittable.submit === 'function') {
      // A Submittable (pg.Query) carries its own callback; wrap it so results are retyped too.
      const original = submittable.callback as ((err: Error | null, res: unknown) => void) | undefined;
      if (original) {
        submittable.callback = (err: Error | null, res: unknown) => original(err, err ? res : retypeCatalogFields(res));
      }
      return (super.query as (...a: unknown[]) => unknown)(...args);
    }
    const result = (super.query as (...a: unknown[]) => unknown)(...args) as Promise<unknown>;
    return result.then(retypeCatalogFields);
  }
}

/** Sends a migration script whole, as one simple-protocol query. */
function sendScriptsWhole<A extends { executeScript(script: string): Promise<void> }>(adapter: A): A {
  const client = (adapter as unknown as { client: pg.Pool }).client;
  adapter.executeScript = async (script: string) => {
    await client.query(script);
  };
  return adapter;
}

/**
 * Discrete connection fields rather than a connection string: adapter-pg derives the shadow
 * database's pool with `{ ...config, database }`, which a connection string would override.
 */
function poolConfig(databaseUrl: string): pg.PoolConfig {
  const url = new URL(databaseUrl);
  return {
    host: decodeURIComponent(url.hostname),
    port: Number(url.port || 5432),
    user: decodeURIComponent(url.username) || undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    database: decodeURIComponent(url.pathname.replace(/^\//, '')) || 'postgres',
    max: 4,
    Client: CatalogTextClient,
  };
}

async function adminQuery(databaseUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ ...poolConfig(databaseUrl), database: 'postgres' });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * `migrate dev`'s shadow database. adapter-pg's own version drops the database while its pool
 * still holds connections; we end the pool first, then drop it WITH (FORCE).
 */
async function connectToShadowDb(databaseUrl: string) {
  const name = `prisma_shadow_${Date.now().toString(36)}_${process.pid}`;
  await adminQuery(databaseUrl, `CREATE DATABASE "${name}"`);
  const pool = new pg.Pool({ ...poolConfig(databaseUrl), database: name });
  const adapter = sendScriptsWhole(await new PrismaPg(pool, { disposeExternalPool: false }).connect());
  adapter.dispose = async () => {
    await pool.end();
    await adminQuery(databaseUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  };
  return adapter;
}

export function createMigrateAdapter(databaseUrl: string): PrismaPg {
  const factory = new PrismaPg(poolConfig(databaseUrl));
  const connect = factory.connect.bind(factory);
  factory.connect = async () => sendScriptsWhole(await connect());
  factory.connectToShadowDb = () => connectToShadowDb(databaseUrl);
  return factory;
}
