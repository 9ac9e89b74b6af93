import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient, type Prisma } from '../generated/prisma/client.js';

export type Db = PrismaClient;

/**
 * What repository functions take: the client itself or an interactive transaction's client, so a
 * service can call them on their own or inside its unit of work (`db.$transaction`).
 */
export type DbClient = Prisma.TransactionClient;

/** One PrismaClient per process, created in the composition root and passed down. */
export function createDb(databaseUrl: string, poolSize = 10): { db: Db; pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  const db = new PrismaClient({ adapter: new PrismaPg(pool) });
  return { db, pool };
}

/** Resolves when the database answers a trivial query. */
export async function pingDb(pool: pg.Pool): Promise<void> {
  await pool.query('SELECT 1');
}
