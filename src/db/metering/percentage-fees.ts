/**
 * The per-event fees of Percentage SKUs (core percentageEventFee), summed by PostgreSQL in ONE
 * statement for every Percentage SKU of a plan, never one round trip per event:
 *
 *   Σ clamp(amount × 10^12 × percentage_bps + per_event_fee × 10^4, minimum × 10^4, maximum × 10^4)
 *
 * over the scope's events of each SKU's event type in [from, to): the fees ×10^4 in raw units, so
 * every step is an exact numeric product or sum (no division, nothing rounded); the caller shifts the
 * decimal point (core percentageFeeQuantity). The amount is read as meters read numbers
 * (usage_numeric: a JSON number or a plain decimal string). Bounded sums (docs/failures.md): an event
 * is charged only when its amount is ≥ 0, has at most 12 decimals and fewer than 19 digits before the
 * point, what the door accepts for a property it bounds; anything else (missing, not a number,
 * negative, out of range) is not charged. Like the meters, every event of the scope counts,
 * late ones included.
 */
import { Prisma } from '../../generated/prisma/client.js';
import type { DbClient } from '../client.js';
import type { Scope } from './aggregates.js';

export interface PercentageFeeSpec {
  skuId: string;
  eventType: string;
  property: string;
  basisPoints: number;
  feeNanos: bigint;
  minimumNanos: bigint | null;
  maximumNanos: bigint | null;
}

// LEAST and GREATEST skip NULLs: a SKU without a minimum or maximum is not clamped on that side. The
// FILTER keeps the row LEFT JOIN adds for a SKU without charged events (amount NULL) out of the sum.
const numericOrNull = (value: bigint | null): Prisma.Sql => (value === null ? Prisma.sql`NULL::numeric` : Prisma.sql`${value.toString()}::numeric`);

/** sku_id → Σ fee × 10^4 in raw units (exact decimal text, "0" without events) over [from, to). */
export async function percentageFeeSums(db: DbClient, specs: readonly PercentageFeeSpec[], scope: Scope, from: Date, to: Date): Promise<Map<string, string>> {
  if (specs.length === 0) return new Map();
  if (to <= from) return new Map(specs.map((spec) => [spec.skuId, '0']));
  const rows = specs.map(
    (spec) =>
      Prisma.sql`(${spec.skuId}::text, ${spec.eventType}::text, ${spec.property}::text, ${spec.basisPoints}::numeric,
                  ${spec.feeNanos.toString()}::numeric, ${numericOrNull(spec.minimumNanos)}, ${numericOrNull(spec.maximumNanos)})`,
  );
  const result = await db.$queryRaw<{ sku_id: string; fees: string }[]>`
    WITH k (sku_id, event_type, property, bps, fee, minimum, maximum) AS (VALUES ${Prisma.join(rows, ', ')})
    SELECT k.sku_id,
           COALESCE(sum(LEAST(k.maximum * 10000, GREATEST(k.minimum * 10000, a.amount * 1000000000000 * k.bps + k.fee * 10000)))
                      FILTER (WHERE a.amount IS NOT NULL), 0)::text AS fees
    FROM k LEFT JOIN LATERAL (
      SELECT usage_numeric(e.properties -> k.property) AS amount
      FROM usage_events e
      WHERE e.customer_id = ${scope.customerId}::uuid AND (e.subscription_id = ${scope.subscriptionId}::uuid OR e.subscription_id IS NULL)
        AND e.event_type = k.event_type AND e.occurred_at >= ${from.toISOString()}::timestamptz AND e.occurred_at < ${to.toISOString()}::timestamptz
    ) a ON a.amount >= 0 AND a.amount < 1000000000000000000 AND scale(a.amount) <= 12
    GROUP BY k.sku_id`;
  return new Map(result.map((row) => [row.sku_id, row.fees]));
}
