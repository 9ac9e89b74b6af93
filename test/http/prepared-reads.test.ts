/**
 * preparedReader (src/db/client.ts), the usage summary's reads: each text prepared once per
 * connection and run again with other values; a failed read leaves the connection usable; at most
 * PREPARED_READS_PER_CONNECTION texts prepared per connection, further ones still answered. That it
 * answers what a fresh statement answers, over every aggregation and window:
 * test/http/usage-coalesced-reads.test.ts.
 */
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { Prisma } from '../../src/generated/prisma/client.js';
import { PREPARED_READS_PER_CONNECTION, preparedReader } from '../../src/db/client.js';
import { newId } from '../../src/ids.js';

/** One connection, so every read meets what the previous one left on it. */
let pool: pg.Pool;

beforeEach(() => {
  pool = new pg.Pool({ connectionString: inject('databaseUrl'), max: 1 });
});

afterEach(async () => {
  await pool.end();
});

const preparedOnConnection = async () =>
  (await pool.query<{ name: string; statement: string }>(`SELECT name, statement FROM pg_prepared_statements WHERE name LIKE 's\\_%' ORDER BY prepare_time`)).rows;

describe('prepared reads', () => {
  it('prepare a text once per connection and run it again with other values', async () => {
    const read = preparedReader(pool);
    const count = (customerId: string) => Prisma.sql`SELECT count(*)::int AS n FROM usage_events WHERE customer_id = ${customerId}::uuid`;
    expect(await read<{ n: number }>(count(newId()))).toEqual([{ n: 0 }]);
    expect(await read<{ n: number }>(count(newId()))).toEqual([{ n: 0 }]);
    const prepared = await preparedOnConnection();
    expect(prepared).toHaveLength(1);
    expect(prepared[0]!.statement).toBe(count(newId()).text);
    // Values of every kind the summary binds: arrays, instants, text.
    const sql = Prisma.sql`SELECT cardinality(${['a', 'b']}::text[]) AS n, ${new Date('2026-01-01T00:00:00Z')}::timestamptz < now() AS past, ${'x'}::text AS s`;
    expect(await read(sql)).toEqual([{ n: 2, past: true, s: 'x' }]);
    expect(await preparedOnConnection()).toHaveLength(2);
  });

  it("fail a read with the statement's own error and leave the connection usable", async () => {
    const read = preparedReader(pool);
    await expect(read(Prisma.sql`SELECT 1 / ${0}::int AS x`)).rejects.toMatchObject({ code: '22012' });
    await expect(read(Prisma.sql`SELECT 1 / ${0}::int AS x`)).rejects.toMatchObject({ code: '22012' });
    expect(await read<{ x: number }>(Prisma.sql`SELECT 1 / ${1}::int AS x`)).toEqual([{ x: 1 }]);
    await expect(read(Prisma.sql`SELEC 1`)).rejects.toMatchObject({ code: '42601' });
    expect(await read<{ x: number }>(Prisma.sql`SELECT 2 / ${1}::int AS x`)).toEqual([{ x: 2 }]);
  });

  it(`prepare at most ${PREPARED_READS_PER_CONNECTION} texts on one connection; further texts are still answered, unprepared`, async () => {
    const read = preparedReader(pool);
    for (let i = 0; i < PREPARED_READS_PER_CONNECTION + 10; i++) {
      expect(await read<{ x: number }>(Prisma.sql`SELECT ${i}::int + ${Prisma.raw(String(i))} AS x`)).toEqual([{ x: 2 * i }]);
    }
    expect(await preparedOnConnection()).toHaveLength(PREPARED_READS_PER_CONNECTION);
    // A prepared text still runs prepared, with its own values.
    expect(await read<{ x: number }>(Prisma.sql`SELECT ${7}::int + 0 AS x`)).toEqual([{ x: 7 }]);
    expect(await preparedOnConnection()).toHaveLength(PREPARED_READS_PER_CONNECTION);
  });
});
