/**
 * What tests of "every accepted event billed once" share: a usage-only plan whose Graduated tiers make
 * a late event's amount depend on the period's other events, and the usage quantity a period's
 * invoices billed.
 */
import { ONE_UNIT } from '../../src/core/index.js';
import { expectJson, type Harness } from './harness.js';

export const CENT = ONE_UNIT / 100n;

/** A usage-only plan through the API: API calls Graduated, the first 1,000 at 0.01, every further one at 0.005. */
export async function makeGraduatedCallsPlan(h: Harness, description: string): Promise<string> {
  const plan = await expectJson<{ id: string }>(
    await h.request('POST', '/admin/v1/catalog/plans', { body: { name: 'Graduated calls', description, billing_cadence: 'Monthly', trial_days: 0 } }),
    201,
  );
  await expectJson(
    await h.request('POST', '/admin/v1/catalog/skus', {
      body: {
        plan_id: plan.id,
        name: 'API calls',
        pricing_model: 'Graduated',
        meter_event_type: 'api_calls',
        currency: 'USD',
        tiers: [
          { up_to: 1000, unit_amount_nanos: CENT.toString() },
          { up_to: null, unit_amount_nanos: (CENT / 2n).toString() },
        ],
      },
    }),
    201,
  );
  return plan.id;
}

interface UsageLine {
  kind: string;
  quantity: string;
  subscription_id: string | null;
  period_start: string | null;
}

/** Usage quantity billed for the period starting at `periodStart`, over every invoice (adjustment lines included). */
export const billedUsage = (invoices: { line_items: UsageLine[] }[], subscriptionId: string, periodStart: string): bigint =>
  invoices
    .flatMap((invoice) => invoice.line_items)
    .filter((line) => line.kind === 'usage' && line.subscription_id === subscriptionId && line.period_start === periodStart)
    .reduce((sum, line) => sum + BigInt(line.quantity), 0n);
