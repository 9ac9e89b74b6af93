/**
 * What the request-path benchmarks over a period's usage share: one customer with one Active
 * subscription whose current period is under way (rows written directly, as the subscription
 * workflow is not what they measure), and rolling the seeded events up until the cursors reach the
 * last one, as the product's scheduled passes would.
 */
import type pg from 'pg';
import type { Db } from '../../src/db/client.js';
import { newId } from '../../src/ids.js';
import { runRollupPass } from '../../src/services/metering/usage.js';

export interface BenchSubscription {
  customerId: string;
  planId: string;
  subscriptionId: string;
}

/**
 * A customer, a Monthly plan and its Active subscription over [periodStart, periodEnd). `prepare`
 * shapes the plan before the subscription is on it (a change afterwards would open version 2).
 */
export async function benchSubscription(db: Db, period: { start: Date; end: Date }, prepare: (ids: { customerId: string; planId: string }) => Promise<void> = async () => {}): Promise<BenchSubscription> {
  const customerId = newId();
  await db.customer.create({ data: { id: customerId, displayName: 'bench', email: 'bench@example.com', accountType: 'Organization', billingCurrency: 'USD' } });
  const planId = newId();
  await db.plan.create({ data: { id: planId, name: 'Bench plan', billingCadence: 'Monthly' } });
  await prepare({ customerId, planId });
  const subscriptionId = newId();
  await db.subscription.create({
    data: { id: subscriptionId, customerId, planId, currency: 'USD', status: 'Active', periodStart: period.start, periodEnd: period.end, billingAnchor: period.start },
  });
  await db.subscriptionPhase.create({ data: { id: newId(), subscriptionId, planId, startsAt: period.start } });
  return { customerId, planId, subscriptionId };
}

/** Rollup passes until every cursor reached the last event; the seconds it took. */
export async function rollUpAll(pool: pg.Pool, log: (line: string) => void): Promise<number> {
  const started = performance.now();
  for (;;) {
    await runRollupPass({ pool });
    const { rows } = await pool.query<{ behind: string }>('SELECT ((SELECT max(seq) FROM usage_events) - (SELECT min(position) FROM usage_rollup_cursors))::text AS behind');
    if (BigInt(rows[0]!.behind) <= 0n) break;
    log(`rollups ${Number(rows[0]!.behind).toLocaleString('en-US')} events behind`);
  }
  const seconds = (performance.now() - started) / 1000;
  log(`rolled up in ${seconds.toFixed(1)} s`);
  return seconds;
}
