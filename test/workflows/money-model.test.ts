/**
 * Model-based property test of the money invariants (ARCHITECTURE.md, "Money invariants"), through
 * the API, PostgreSQL and the Temporal server on a test clock: random sequences of on-time usage,
 * late usage, clock advances (period closes and finalizations), payments, credit notes and wallet
 * grants (drawn down at finalization). After every sequence, once the clock has gone past the last
 * period's close and the late usage it left has been billed:
 * - conservation: every closed period's usage, re-rated from its accepted events, equals what its
 *   invoices (adjustment lines included) billed: the reconciliation shows nothing unbilled;
 * - one regular invoice per subscription period; invoice numbers gapless;
 * - every journal balances; the receivable equals the open invoices' amount due and is never negative.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ONE_UNIT } from '../../src/core/index.js';
import { advanceClock, sendUsage } from '../support/clock-usage.js';
import { makeCustomer, makeTestClock } from '../support/fixtures.js';
import { expectJson, useHarness } from '../support/harness.js';
import { invoicesOf } from '../support/invoices.js';

const h = useHarness();
let planId: string;
beforeAll(async () => {
  const plan = await expectJson<{ id: string }>(
    await h.request('POST', '/admin/v1/catalog/plans', { body: { name: 'Model', description: 'money model', billing_cadence: 'Monthly', trial_days: 0 } }),
    201,
  );
  planId = plan.id;
  for (const sku of [
    { name: 'Base fee', pricing_model: 'Flat', unit_amount_nanos: (5n * ONE_UNIT).toString() },
    {
      name: 'API calls',
      pricing_model: 'Graduated',
      meter_event_type: 'api_calls',
      tiers: [
        { up_to: 100, unit_amount_nanos: (ONE_UNIT / 10n).toString() },
        { up_to: null, unit_amount_nanos: (ONE_UNIT / 40n).toString() },
      ],
    },
  ]) {
    await expectJson(await h.request('POST', '/admin/v1/catalog/skus', { body: { plan_id: planId, currency: 'USD', ...sku } }), 201);
  }
});

const DAY = 86_400_000;

type Command =
  | { kind: 'usage'; count: number }
  | { kind: 'late'; count: number }
  | { kind: 'advance'; days: number }
  | { kind: 'pay' }
  | { kind: 'credit'; percent: number }
  | { kind: 'grant'; units: number };

const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ kind: fc.constant('usage' as const), count: fc.integer({ min: 1, max: 150 }) }),
  fc.record({ kind: fc.constant('late' as const), count: fc.integer({ min: 1, max: 80 }) }),
  fc.record({ kind: fc.constant('advance' as const), days: fc.integer({ min: 3, max: 40 }) }),
  fc.record({ kind: fc.constant('pay' as const) }),
  fc.record({ kind: fc.constant('credit' as const), percent: fc.integer({ min: 1, max: 100 }) }),
  fc.record({ kind: fc.constant('grant' as const), units: fc.integer({ min: 1, max: 20 }) }),
);

interface InvoiceBody {
  id: string;
  status: string;
  billing_reason: string;
  period_start: string | null;
  invoice_number: string | null;
  total_nanos: string;
  credited_nanos: string;
}

interface Reconciliation {
  balanced: boolean;
  currencies: { currency: string; receivable_nanos: string; open_amount_due_nanos: string; receivable_matches_open_amount_due: boolean; receivable_not_negative: boolean }[];
  usage: { period_start: string; accepted_quantity: string; billed_quantity: string; state: string }[];
}

async function run(commands: Command[]): Promise<void> {
  const start = Date.UTC(2026, 0, 1);
  const clockId = await makeTestClock(h.deps.db, new Date(start).toISOString());
  const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
  const subscription = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }), 201);
  let now = start;
  const at = () => new Date(now).toISOString();
  for (const step of commands) {
    switch (step.kind) {
      case 'usage':
        await sendUsage(h, customerId, subscription.id, step.count, at());
        break;
      case 'late': {
        // Dated in the last closed period, if there is one (its middle).
        const closed = await h.deps.db.subscriptionPeriodClose.findFirst({ where: { subscriptionId: subscription.id }, orderBy: { periodStart: 'desc' } });
        if (closed) await sendUsage(h, customerId, subscription.id, step.count, new Date((closed.periodStart.getTime() + closed.periodEnd.getTime()) / 2).toISOString());
        break;
      }
      case 'advance':
        now += step.days * DAY;
        await advanceClock(h, clockId, at());
        break;
      case 'pay': {
        const open = (await invoicesOf<InvoiceBody>(h, `customer_id=${customerId}&status=Open`))[0];
        if (open) await expectJson(await h.request('POST', `/admin/v1/invoices/${open.id}/pay`, { body: { actor_id: 'model', actor_name: 'Model' } }));
        break;
      }
      case 'credit': {
        const [invoice] = (await invoicesOf<InvoiceBody>(h, `customer_id=${customerId}`)).filter((i) => i.status === 'Open' || i.status === 'Paid');
        if (!invoice) break;
        const creditable = BigInt(invoice.total_nanos) - BigInt(invoice.credited_nanos);
        const amount = (creditable * BigInt(step.percent)) / 100n;
        if (amount <= 0n) break;
        const res = await h.request('POST', `/admin/v1/invoices/${invoice.id}/credit-notes`, { body: { amount_nanos: amount.toString(), reason: 'other' } });
        // The default allocation always fits what is creditable: never a refusal, never a 5xx.
        expect(res.status, await res.clone().text()).toBe(201);
        break;
      }
      case 'grant':
        await expectJson(await h.request('POST', `/admin/v1/customers/${customerId}/wallets/USD/grants`, { body: { amount_nanos: (BigInt(step.units) * ONE_UNIT).toString() } }), 201);
        break;
    }
  }
  // Past the current period's close and its grace, then one more close for the late usage it left.
  now += 32 * DAY;
  await advanceClock(h, clockId, at());
  now += 32 * DAY;
  await advanceClock(h, clockId, at());

  const reconciliation = await expectJson<Reconciliation>(await h.request('GET', `/admin/v1/reconciliation?customer_id=${customerId}`));
  expect(reconciliation.usage.filter((u) => u.state !== 'billed'), JSON.stringify(reconciliation.usage)).toEqual([]);
  for (const currency of reconciliation.currencies) {
    expect(currency, JSON.stringify(currency)).toMatchObject({ receivable_matches_open_amount_due: true, receivable_not_negative: true });
  }
  expect(reconciliation.balanced).toBe(true);

  const invoices = await invoicesOf<InvoiceBody>(h, `customer_id=${customerId}`);
  const regular = invoices.filter((i) => i.billing_reason === 'subscription_cycle' || i.billing_reason === 'subscription_final').map((i) => i.period_start);
  expect(new Set(regular).size).toBe(regular.length);

  const trial = await expectJson<{ currencies: { difference_nanos: string }[] }>(await h.request('GET', `/admin/v1/ledger/trial-balance?customer_id=${customerId}`));
  expect(trial.currencies.map((c) => c.difference_nanos)).toEqual(trial.currencies.map(() => '0'));
}

describe('money invariants over random sequences', () => {
  it('hold for ingest / late ingest / close / pay / credit / wallet drawdown in any order', async () => {
    await fc.assert(fc.asyncProperty(fc.array(command, { minLength: 3, maxLength: 9 }), run), { numRuns: 6, endOnFailure: true });
    // Invoice numbers stay gapless across every run.
    const numbers = (await h.deps.db.invoice.findMany({ where: { invoiceNumber: { startsWith: 'INV-' } }, select: { invoiceNumber: true } }))
      .map((i) => Number(i.invoiceNumber!.slice(4)))
      .sort((a, b) => a - b);
    expect(numbers).toEqual(numbers.map((_, i) => numbers[0]! + i));
  }, 600_000);
});
