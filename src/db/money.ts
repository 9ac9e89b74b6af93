/** DECIMAL(38,0) columns ↔ bigint raw units, without passing through a float. */
import { Prisma } from '../generated/prisma/client.js';

export const toDecimal = (value: bigint): Prisma.Decimal => new Prisma.Decimal(value.toString());

export function fromDecimal(value: Prisma.Decimal): bigint {
  return BigInt(value.toFixed(0));
}

export const fromDecimalOrNull = (value: Prisma.Decimal | null): bigint | null => (value === null ? null : fromDecimal(value));
