/**
 * The per-event fees of Percentage SKUs (core percentageEventFee), summed by PostgreSQL in ONE
 * statement and one pass over the events for every Percentage SKU of a plan, never one round trip
 * per event:
 *
 *   Σ clamp(amount × 10^12 × percentage_bps + per_event_fee × 10^4, minimum × 10^4, maximum × 10^4)
 *
 * over the scope's events of each SKU's event type in [from, to): the fees ×10^4 in raw units, so
 * every step is an exact numeric product or sum (no division, nothing rounded); the caller shifts the
 * decimal point (core percentageFeeQuantity). The amount is read as meters read numbers
 * (usage_numeric: a JSON number or a plain decimal string). Bounded sums (docs/failures.md): an event
 * is charged only when its amount is ≥ 0, has at most 12 decimals (trailing zeros aside) and fewer
 * than 19 digits before the point, what the door accepts for a property it bounds; anything else
 * (missing, not a number, negative, out of range) is not charged. Like the meters, every event of the scope counts,
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

const money = (value: bigint): Prisma.Sql => Prisma.sql`${value.toString()}::numeric`;

/** sku_id → Σ fee × 10^4 in raw units (exact decimal text, "0" without events) over [from, to). */
export async function percentageFeeSums(db: DbClient, specs: readonly PercentageFeeSpec[], scope: Scope, from: Date, to: Date): Promise<Map<string, string>> {
  if (specs.length === 0) return new Map();
  if (to <= from) return new Map(specs.map((spec) => [spec.skuId, '0']));
  // One pass over the events: each amount property is read once per event, whatever the SKUs reading it.
  const properties = [...new Set(specs.map((spec) => spec.property))];
  const types = [...new Set(specs.map((spec) => spec.eventType))];
  const column = (property: string) => Prisma.raw(`p${properties.indexOf(property)}`);
  const sums = specs.map((spec, i) => {
    const amount = Prisma.sql`x.${column(spec.property)}`;
    let fee = Prisma.sql`${amount} * ${money(10n ** 12n * BigInt(spec.basisPoints))} + ${money(spec.feeNanos * 10_000n)}`;
    if (spec.minimumNanos !== null) fee = Prisma.sql`GREATEST(${money(spec.minimumNanos * 10_000n)}, ${fee})`;
    if (spec.maximumNanos !== null) fee = Prisma.sql`LEAST(${money(spec.maximumNanos * 10_000n)}, ${fee})`;
    return Prisma.sql`COALESCE(sum(${fee}) FILTER (WHERE x.event_type = ${spec.eventType}::text AND ${amount} IS NOT NULL), 0)::text AS ${Prisma.raw(`s${i}`)}`;
  });
  // A charged amount (else NULL): ≥ 0, below 10^18, at most 12 decimals (trailing zeros aside, which
  // round(…, 12) drops, so the sums' scale stays at most 12).
  const charged = (value: Prisma.Sql) =>
    Prisma.sql`CASE WHEN ${value} >= 0 AND ${value} < 1000000000000000000 AND ${value} = round(${value}, 12) THEN round(${value}, 12) END`;
  const raw = (property: string) => Prisma.raw(`v${properties.indexOf(property)}`);
  const [row] = await db.$queryRaw<Record<string, string>[]>`
    SELECT ${Prisma.join(sums, ', ')}
    FROM (
      SELECT r.event_type, ${Prisma.join(
        properties.map((property) => Prisma.sql`${charged(Prisma.sql`r.${raw(property)}`)} AS ${column(property)}`),
        ', ',
      )}
      FROM (
        SELECT e.event_type, ${Prisma.join(
          properties.map((property) => Prisma.sql`usage_numeric(e.properties -> ${property}::text) AS ${raw(property)}`),
          ', ',
        )}
        FROM usage_events e
        WHERE e.customer_id = ${scope.customerId}::uuid AND (e.subscription_id = ${scope.subscriptionId}::uuid OR e.subscription_id IS NULL)
          AND e.event_type = ANY(${types}::text[])
          AND e.occurred_at >= ${from.toISOString()}::timestamptz AND e.occurred_at < ${to.toISOString()}::timestamptz
        OFFSET 0
      ) r
    ) x`;
  return new Map(specs.map((spec, i) => [spec.skuId, (row as Record<string, string>)[`s${i}`] as string]));
}
