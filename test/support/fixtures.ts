/**
 * Direct-to-database fixtures for tests whose subject is not the catalog or customer API itself.
 */
import type { Db } from '../../src/db/client.js';
import { toDecimal } from '../../src/db/money.js';
import { newId } from '../../src/ids.js';

export async function makeTestClock(db: Db, frozenTime: string): Promise<string> {
  const id = newId();
  await db.testClock.create({ data: { id, name: `clock ${id.slice(-6)}`, frozenTime: new Date(frozenTime) } });
  return id;
}

export async function makeCustomer(db: Db, options: { testClockId?: string; currency?: string } = {}): Promise<string> {
  const id = newId();
  await db.customer.create({
    data: {
      id,
      displayName: `Customer ${id.slice(-6)}`,
      email: `billing+${id.slice(-6)}@example.com`,
      accountType: 'Organization',
      billingCurrency: options.currency ?? 'USD',
      testClockId: options.testClockId ?? null,
    },
  });
  return id;
}

/** A Monthly plan with a 49.00 Flat base fee and a PerUnit 0.01 SKU on `api_calls`. */
export async function makePlan(db: Db, options: { currency?: string; trialDays?: number; skus?: boolean } = {}): Promise<string> {
  const id = newId();
  await db.plan.create({ data: { id, name: `Plan ${id.slice(-6)}`, billingCadence: 'Monthly', trialDays: options.trialDays ?? 0 } });
  if (options.skus !== false) {
    const currency = options.currency ?? 'USD';
    await db.sku.createMany({
      data: [
        { id: newId(), planId: id, name: 'Base fee', pricingModel: 'Flat', unitAmountNanos: toDecimal(49_000_000_000_000n), currency },
        { id: newId(), planId: id, name: 'API calls', pricingModel: 'PerUnit', unitAmountNanos: toDecimal(10_000_000_000n), meterEventType: 'api_calls', currency },
      ],
    });
  }
  return id;
}
