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

export interface CustomerOptions {
  testClockId?: string;
  currency?: string;
  parentId?: string;
  billToId?: string;
  consolidateToParent?: boolean;
}

export async function makeCustomer(db: Db, options: CustomerOptions = {}): Promise<string> {
  const id = newId();
  await db.customer.create({
    data: {
      id,
      displayName: `Customer ${id.slice(-6)}`,
      email: `billing+${id.slice(-6)}@example.com`,
      accountType: options.parentId ? 'Subsidiary' : 'Organization',
      billingCurrency: options.currency ?? 'USD',
      testClockId: options.testClockId ?? null,
      parentId: options.parentId ?? null,
      billToId: options.billToId ?? null,
      consolidation: options.consolidateToParent ? 'ConsolidateToParent' : 'Standalone',
    },
  });
  return id;
}

export interface PlanOptions {
  currency?: string;
  cadence?: 'Monthly' | 'Quarterly' | 'SemiAnnual' | 'Annual';
  trialDays?: number;
  skus?: boolean;
  /** Flat base fee in raw units (default 49.00); null for a usage-only plan. */
  flatNanos?: bigint | null;
  /** Event type of the PerUnit 0.01 SKU (default `api_calls`). */
  meterEventType?: string;
}

/** A plan (Monthly by default) with a Flat base fee (49.00 by default) and a PerUnit 0.01 SKU on `api_calls`. */
export async function makePlan(db: Db, options: PlanOptions = {}): Promise<string> {
  const id = newId();
  await db.plan.create({ data: { id, name: `Plan ${id.slice(-6)}`, billingCadence: options.cadence ?? 'Monthly', trialDays: options.trialDays ?? 0 } });
  if (options.skus !== false) {
    const currency = options.currency ?? 'USD';
    const flat = options.flatNanos === undefined ? 49_000_000_000_000n : options.flatNanos;
    await db.sku.createMany({
      data: [
        ...(flat === null ? [] : [{ id: newId(), planId: id, name: 'Base fee', pricingModel: 'Flat' as const, unitAmountNanos: toDecimal(flat), currency }]),
        {
          id: newId(),
          planId: id,
          name: 'API calls',
          pricingModel: 'PerUnit',
          unitAmountNanos: toDecimal(10_000_000_000n),
          meterEventType: options.meterEventType ?? 'api_calls',
          currency,
        },
      ],
    });
  }
  return id;
}
