/** What Prisma's errors say about the database being reachable, read at the repository edge. */
import { Prisma } from '../generated/prisma/client.js';

/** Prisma's codes for a database it cannot reach, that dropped the connection, or whose pool is exhausted. */
const PRISMA_UNAVAILABLE = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);

/**
 * For a Prisma error: whether it says the database could not be reached, and the driver adapter's
 * error it carries (raw queries report connection failures there, under P2010). Undefined for any
 * other error.
 */
export function prismaConnectionFailure(err: object): { unavailable: boolean; driverError: unknown } | undefined {
  if (err instanceof Prisma.PrismaClientInitializationError) return { unavailable: true, driverError: undefined };
  if (err instanceof Prisma.PrismaClientKnownRequestError) return { unavailable: PRISMA_UNAVAILABLE.has(err.code), driverError: err.meta?.driverAdapterError };
  return undefined;
}
