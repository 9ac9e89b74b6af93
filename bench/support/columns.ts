/** Bulk seeding of benchmark databases: rows gathered per column, inserted in one statement. */
import type pg from 'pg';

/** Rows of one table as column arrays, inserted with one INSERT … SELECT FROM unnest(…). */
export class Columns {
  readonly data: unknown[][];
  constructor(
    readonly table: string,
    readonly columns: readonly [name: string, type: string][],
  ) {
    this.data = columns.map(() => []);
  }
  push(...values: unknown[]): void {
    values.forEach((v, i) => this.data[i]!.push(v));
  }
  get size(): number {
    return this.data[0]!.length;
  }
  async insert(client: pg.PoolClient): Promise<void> {
    if (this.size === 0) return;
    const names = this.columns.map(([name]) => name).join(', ');
    const unnest = this.columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ');
    await client.query(`INSERT INTO ${this.table} (${names}) SELECT * FROM unnest(${unnest})`, this.data);
  }
}

/**
 * Inserts the tables in one transaction with the database's guard triggers off (replica mode):
 * seeding only, of rows built consistent (journals balanced, invoices in their final status).
 */
export async function insertSeeding(pool: pg.Pool, tables: readonly Columns[]): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL session_replication_role = replica');
    for (const table of tables) await table.insert(client);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
