/**
 * A contract's year on a test clock, end to end through the API, PostgreSQL and Temporal: ramp
 * phases, a quarterly 10% escalation and a tag-scoped rate override price a linked subscription's
 * invoices exactly as the rating core says (computed here from the core, independently of the
 * billing code, plus hand-computed golden totals); the commit draws down; each phase's true-up
 * lands on a Draft; an amendment mid-year changes the price from its effective date; the
 * contract ends Expired and the chain reads old → new.
 */
import { describe, expect, it } from 'vitest';
import {
  computeTrueUp,
  coterm,
  prorateDays,
  ratePeriodAcrossPhases,
  type ContractPricing,
  type RatedPeriod,
  type SkuPrice,
  ONE_UNIT as UNIT,
} from '../../src/core/index.js';
import { toDecimal } from '../../src/db/money.js';
import { newId } from '../../src/ids.js';
import { WorkflowNotFoundError, type WorkflowUpdateHandle } from '@temporalio/client';
import { insertContract, insertLink } from '../../src/db/contracts.js';
import { alignSubscriptionToContract } from '../../src/services/contracts/coterm-alignment.js';
import { type ContractSnapshot, contractWorkflowId, retryContractUpdate } from '../../workflows/contract/messages.js';
import { CONTRACT_RECONCILE_SCHEDULE_ID, type ContractReconcileSummary } from '../../workflows/contract-reconcile/messages.js';
import { subscriptionWorkflowId } from '../../workflows/subscription/messages.js';
import { advanceClock, sendUsage } from '../support/clock-usage.js';
import { makeCustomer, makePlan, makeTestClock } from '../support/fixtures.js';
import { activityAttempts, injectOverflow, withCorruptClockTime, withOverflow } from '../support/faults.js';
import { invoiceWorkflowId } from '../../workflows/invoice/messages.js';
import { captureHistory, childStartsOf } from '../support/histories.js';
import { expectJson, expectPage, useHarness } from '../support/harness.js';
import { eventually } from '../support/payments.js';
import { invoicesOf } from '../support/invoices.js';
import { billingErrorTrail, firstTimes, holdBillingErrorRecording, retryAccepted } from './hold-window.js';

const h = useHarness();

const units = (n: bigint) => n * UNIT;

interface Line {
  kind: string;
  amount_nanos: string;
  description: string;
}
interface Invoice {
  id: string;
  status: string;
  period_start: string;
  total_nanos: string;
  total: string;
  line_items: Line[];
}
interface Contract {
  id: string;
  status: string;
  escalation_steps: number;
  parent_contract_id: string | null;
  terms: { phase: number; committed_amount_nanos: string; drawn_down_nanos: string | null; remaining_commit_nanos: string | null; true_up_nanos: string | null }[];
  amendment_chain: { id: string; status: string }[] | null;
  billing_error: { step: string; type: string; message: string; failed_at: string } | null;
}

const advance = (clockId: string, to: string) => advanceClock(h, clockId, to);


const month = (m: number) => `2026-${String(m).padStart(2, '0')}-01`;
const nextMonth = (m: number) => (m === 12 ? '2027-01-01' : month(m + 1));
/** API calls in month m (1-12). */
const callsIn = (m: number) => 150 + 50 * m;
/** July calls of phase 1's last day that arrive after the phase ended, within the grace period. */
const LATE_JULY_CALLS = 50;

describe('a contract year on a test clock', () => {
  it('prices every invoice by the terms in force, draws the commit down, trues up each phase, follows an amendment and expires', async () => {
    // A product tagged "compute" with a plan of a 49.00 monthly fee and 0.01 per API call.
    const productId = newId();
    await h.deps.db.product.create({ data: { id: productId, name: 'Compute', tags: ['compute'] } });
    const planId = newId();
    await h.deps.db.plan.create({ data: { id: planId, productId, name: 'Compute monthly', billingCadence: 'Monthly' } });
    const [feeSku, callSku] = [newId(), newId()].sort();
    await h.deps.db.sku.createMany({
      data: [
        { id: feeSku!, planId, name: 'Base fee', pricingModel: 'Flat', unitAmountNanos: toDecimal(units(49n)), currency: 'USD' },
        { id: callSku!, planId, name: 'API calls', pricingModel: 'PerUnit', unitAmountNanos: toDecimal(UNIT / 100n), meterEventType: 'api_calls', currency: 'USD' },
      ],
    });
    const skus: SkuPrice[] = [
      { sku_id: feeSku!, name: 'Base fee', pricing_model: 'Flat', unit_amount_nanos: units(49n), currency: 'USD', tags: ['compute'] },
      { sku_id: callSku!, name: 'API calls', pricing_model: 'PerUnit', unit_amount_nanos: UNIT / 100n, currency: 'USD', tags: ['compute'], meter_event_type: 'api_calls' },
    ].sort((a, b) => (a.sku_id < b.sku_id ? -1 : 1)) as SkuPrice[];

    const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00.000Z');
    const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
    const subscription = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }), 201);

    const original = await expectJson<Contract>(
      await h.request('POST', '/admin/v1/contracts', {
        body: {
          customer_id: customerId,
          name: 'Compute 2026',
          start_date: '2026-01-01',
          end_date: '2027-01-01',
          escalation: { kind: 'Percent', basis_points: 1000, interval_months: 3 },
          terms: [
            {
              phase: 1,
              start_date: '2026-01-01',
              end_date: '2026-07-16',
              committed_amount_nanos: units(100n).toString(),
              description: 'ramp',
              commit_product_tag: 'compute',
              rate_overrides: [{ product_tag: 'compute', multiplier_bps: 8000 }],
            },
            { phase: 2, start_date: '2026-07-16', end_date: '2027-01-01', committed_amount_nanos: units(500n).toString(), description: 'full', discount_bps: 500 },
          ],
        },
      }),
      201,
    );
    await expectJson(
      await h.request('POST', `/admin/v1/contracts/${original.id}/subscriptions`, { body: { subscription_id: subscription.id, adoption_type: 'PLG' } }),
      201,
    );

    // The terms as they read after the amendment of September 15 (effective October 1): phase 2
    // split at October 1 with its commit prorated by days (77 of 169), a new phase 3 at 20% off.
    // Periods before October are priced the same by these terms as by the original ones.
    const phase2Commit = prorateDays(units(500n), 77, 169);
    const terms: ContractPricing = {
      escalation: { escalation: { kind: 'Percent', basis_points: 1000 }, start_date: '2026-01-01', interval_months: 3 },
      terms: [
        { phase: 1, start_date: '2026-01-01', end_date: '2026-07-16', committed_amount_nanos: units(100n), description: 'ramp', rate_overrides: [{ product_tag: 'compute', multiplier_bps: 8000 }] },
        { phase: 2, start_date: '2026-07-16', end_date: '2026-10-01', committed_amount_nanos: phase2Commit, description: 'full', discount_bps: 500 },
        { phase: 3, start_date: '2026-10-01', end_date: '2027-01-01', committed_amount_nanos: units(300n), description: 'amended', discount_bps: 2000 },
      ],
    };
    const expected = new Map<number, RatedPeriod>();
    const usageByPhase = new Map<number, bigint>();
    for (let m = 1; m <= 12; m += 1) {
      const split = m === 7 ? { usage_to_date: { '2026-07-16': { api_calls: String(callsIn(7) / 2 + LATE_JULY_CALLS) } } } : {};
      const rated = ratePeriodAcrossPhases({ skus, usage: { api_calls: String(callsIn(m)) }, period: { start: month(m), end: nextMonth(m) }, contract: terms, ...split });
      expected.set(m, rated);
      for (const piece of rated.pieces) {
        const usage = piece.lines.filter((l) => l.pricing_model === 'PerUnit').reduce((sum, l) => sum + l.amount_nanos, 0n);
        usageByPhase.set(piece.phase!, (usageByPhase.get(piece.phase!) ?? 0n) + usage);
      }
    }
    const trueUps = new Map([
      [1, computeTrueUp(units(100n), usageByPhase.get(1)!).true_up_nanos],
      [2, computeTrueUp(phase2Commit, usageByPhase.get(2)!).true_up_nanos],
      [3, computeTrueUp(units(300n), usageByPhase.get(3)!).true_up_nanos],
    ]);

    let amendedId = '';
    for (let m = 1; m <= 12; m += 1) {
      if (m === 7) {
        // Before any July usage: phase 1's commit has been drawn down by January to June.
        await advance(clockId, '2026-07-10T12:00:00.000Z');
        const midYear = await expectJson<Contract>(await h.request('GET', `/admin/v1/contracts/${original.id}`));
        const drawn = [1, 2, 3, 4, 5, 6].reduce((sum, n) => sum + expected.get(n)!.lines.find((l) => l.sku_id === callSku)!.amount_nanos, 0n);
        expect(midYear.terms[0]).toMatchObject({ drawn_down_nanos: drawn.toString(), remaining_commit_nanos: (units(100n) - drawn).toString(), true_up_nanos: null });
        expect(midYear.escalation_steps).toBe(2);
        await sendUsage(h, customerId, subscription.id, callsIn(7) / 2, '2026-07-10T12:00:00.000Z');
        // Phase 1 has ended, but its true-up waits for the grace period: usage of its last day that
        // arrives now (late) is still counted in it.
        await advance(clockId, '2026-07-16T00:30:00.000Z');
        const ended = await expectJson<Contract>(await h.request('GET', `/admin/v1/contracts/${original.id}`));
        expect(ended.terms[0]!.true_up_nanos).toBeNull();
        await sendUsage(h, customerId, subscription.id, LATE_JULY_CALLS, '2026-07-15T20:00:00.000Z');
        await advance(clockId, '2026-07-20T12:00:00.000Z');
        expect((await expectJson<Contract>(await h.request('GET', `/admin/v1/contracts/${original.id}`))).terms[0]!.true_up_nanos).toBe(trueUps.get(1)!.toString());
        await sendUsage(h, customerId, subscription.id, callsIn(7) / 2 - LATE_JULY_CALLS, '2026-07-20T12:00:00.000Z');
      } else {
        const mid = `${month(m).slice(0, 8)}15T12:00:00.000Z`;
        await advance(clockId, mid);
        await sendUsage(h, customerId, subscription.id, callsIn(m), mid);
      }
      if (m === 9) {
        const amended = await expectJson<Contract>(
          await h.request('POST', `/admin/v1/contracts/${original.id}/amend`, {
            body: { reason: 'renegotiated', new_committed_amount_nanos: units(300n).toString(), effective_date: '2026-10-01', discount_bps: 2000 },
          }),
          201,
        );
        expect(amended.parent_contract_id).toBe(original.id);
        expect(amended.terms.map((t) => t.committed_amount_nanos)).toEqual([units(100n), phase2Commit, units(300n)].map(String));
        amendedId = amended.id;
      }
      await advance(clockId, `${nextMonth(m)}T01:00:00.000Z`);
    }

    const all = (await invoicesOf<Invoice>(h, `subscription_id=${subscription.id}&limit=200`));
    expect(all.map((i) => [i.period_start.slice(0, 10), i.status])).toEqual([...Array.from({ length: 12 }, (_, i) => [month(i + 1), 'Open']), ['2027-01-01', 'Draft']]);
    const invoices = all.slice(0, 12);
    // Each true-up is billed once its phase's grace period is over, on the Draft of that time: phase
    // 1 (ends 07-16) in July, phase 2 (ends 10-01) in October, phase 3 (ends with the contract) on
    // the Draft of January 2027, after the contract expired.
    const landing = new Map([[7, 1], [10, 2]]);
    expect(all[12]!.line_items.filter((l) => l.kind === 'true_up').map((l) => l.amount_nanos)).toEqual([trueUps.get(3)!.toString()]);
    invoices.forEach((invoice, index) => {
      const m = index + 1;
      const rated = expected.get(m)!;
      const phase = landing.get(m);
      const trueUp = phase === undefined ? 0n : trueUps.get(phase)!;
      expect([m, invoice.total_nanos]).toEqual([m, (rated.total_nanos + trueUp).toString()]);
      expect(invoice.line_items.filter((l) => l.kind === 'fee' || l.kind === 'usage').map((l) => l.amount_nanos)).toEqual(rated.lines.map((l) => l.amount_nanos.toString()));
      expect(invoice.line_items.filter((l) => l.kind === 'true_up').map((l) => l.amount_nanos)).toEqual(phase === undefined ? [] : [trueUp.toString()]);
    });
    // Golden totals by hand. January: (49 + 200 × 0.01) × 80% = 40.80. April, one 10% step:
    // (49 + 350 × 0.01) × 1.1 × 80% = 46.20. October, three steps and the amended 20% discount:
    // (49 + 650 × 0.01) × 1.331 × 80% = 59.0964.
    expect(invoices[0]!.total_nanos).toBe((4080n * UNIT / 100n).toString());
    expect(invoices[3]!.total_nanos).toBe((4620n * UNIT / 100n).toString());
    const charges = (invoice: Invoice) => invoice.line_items.filter((l) => l.kind === 'fee' || l.kind === 'usage').reduce((sum, l) => sum + BigInt(l.amount_nanos), 0n);
    expect(charges(invoices[9]!)).toBe(590964n * UNIT / 10000n);

    const ended = await expectJson<Contract>(await h.request('GET', `/admin/v1/contracts/${amendedId}`));
    expect(ended.status).toBe('Expired');
    expect(ended.escalation_steps).toBe(3);
    expect(ended.terms.map((t) => t.true_up_nanos)).toEqual([1, 2, 3].map((p) => trueUps.get(p)!.toString()));
    expect(ended.amendment_chain?.map((c) => [c.id, c.status])).toEqual([[original.id, 'Amended'], [amendedId, 'Expired']]);
    const handle = h.deps.temporal.client.workflow.getHandle(contractWorkflowId(amendedId));
    expect(await handle.result()).toEqual({ status: 'Expired', nextWakeAt: null });
    // Expired at its end, then trued up after the grace period by the same workflow.
    const truedUp = await h.deps.db.outboxEvent.findFirstOrThrow({ where: { aggregateId: amendedId, type: 'contract.trued_up' }, orderBy: { occurredAt: 'desc' } });
    expect(truedUp.occurredAt.toISOString()).toBe('2027-01-01T01:00:00.000Z');
    const moves = await h.deps.db.auditLogEntry.findMany({ where: { entityId: { in: [original.id, amendedId] } }, orderBy: { createdAt: 'asc' } });
    expect(moves.map((a) => a.action)).toEqual(
      expect.arrayContaining(['contract.created', 'contract.subscription_linked', 'contract.escalated', 'contract.trued_up', 'contract.amended', 'contract.expired']),
    );
    const expiredEvent = await h.deps.db.outboxEvent.findFirstOrThrow({ where: { aggregateId: amendedId, type: 'contract.expired' } });
    expect(expiredEvent.occurredAt.toISOString()).toBe('2027-01-01T00:00:00.000Z');
    await captureHistory(handle, 'amended-escalated-expired-then-trued-up');
  }, 600_000);
});

describe('true-ups owed after a contract left Active', () => {
  it('trues up a phase that ended before a termination once its grace period has passed', async () => {
    const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00.000Z');
    const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
    const contract = await expectJson<Contract>(
      await h.request('POST', '/admin/v1/contracts', {
        body: {
          customer_id: customerId,
          name: 'Terminated early',
          start_date: '2026-01-01',
          end_date: '2027-01-01',
          terms: [
            { phase: 1, start_date: '2026-01-01', end_date: '2026-04-01', committed_amount_nanos: units(10n).toString(), description: 'first' },
            { phase: 2, start_date: '2026-04-01', end_date: '2027-01-01', committed_amount_nanos: units(20n).toString(), description: 'second' },
          ],
        },
      }),
      201,
    );
    // Phase 1 has ended, its true-up waits for the grace period; the contract is terminated meanwhile.
    await advance(clockId, '2026-04-01T00:30:00.000Z');
    const terminated = await expectJson<Contract>(await h.request('POST', `/admin/v1/contracts/${contract.id}/terminate`, { body: { reason: 'merger' } }));
    expect([terminated.status, terminated.terms.map((t) => t.true_up_nanos)]).toEqual(['Terminated', [null, null]]);
    await advance(clockId, '2026-04-01T01:00:00.000Z');
    // Phase 1 is trued up by the same workflow; phase 2 (in force on the last day) was settled by the early-exit fee.
    const after = await expectJson<Contract>(await h.request('GET', `/admin/v1/contracts/${contract.id}`));
    expect([after.status, after.terms.map((t) => t.true_up_nanos)]).toEqual(['Terminated', [units(10n).toString(), null]]);
    expect(await h.deps.temporal.client.workflow.getHandle(contractWorkflowId(contract.id)).result()).toEqual({ status: 'Terminated', nextWakeAt: null });
  }, 120_000);
});

describe('contract billing errors', () => {
  it("holds a step that fails deterministically as the contract's billing_error, lets other contracts go on, and runs it again on an operator's retry", async () => {
    const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00.000Z');
    const contractOf = async () => {
      const body = {
        customer_id: await makeCustomer(h.deps.db, { testClockId: clockId }),
        name: 'Two phases',
        start_date: '2026-01-01',
        end_date: '2027-01-01',
        terms: [
          { phase: 1, start_date: '2026-01-01', end_date: '2026-04-01', committed_amount_nanos: units(10n).toString(), description: 'first' },
          { phase: 2, start_date: '2026-04-01', end_date: '2027-01-01', committed_amount_nanos: units(20n).toString(), description: 'second' },
        ],
      };
      return expectJson<Contract>(await h.request('POST', '/admin/v1/contracts', { body }), 201);
    };
    const held = await contractOf();
    const other = await contractOf();
    const contractView = async (id: string) => expectJson<Contract>(await h.request('GET', `/admin/v1/contracts/${id}`));
    const workflow = h.deps.temporal.client.workflow.getHandle(contractWorkflowId(held.id));
    // Recording the held contract's phase 1 true-up overflows (as a corrupt stored amount would).
    await withOverflow(h.deps.db, { table: 'contract_terms', when: `NEW.contract_id = '${held.id}'::uuid AND NEW.trued_up_at IS NOT NULL`, on: 'UPDATE' }, async () => {
      // Past phase 1's end and its grace period: the advance does not wait on the held contract.
      await advance(clockId, '2026-04-01T01:00:00.000Z');
      const failed = await contractView(held.id);
      expect(failed).toMatchObject({ status: 'Active', billing_error: { step: 'advanceContract', type: 'DeterministicFailure', failed_at: '2026-04-01T01:00:00.000Z' } });
      expect(failed.billing_error!.message).toMatch(/overflow/i);
      expect(failed.terms.map((t) => t.true_up_nanos)).toEqual([null, null]);
      const audit = await h.deps.db.auditLogEntry.findFirstOrThrow({ where: { entityId: held.id, action: 'contract.billing_error' } });
      expect([audit.actorType, audit.actorId]).toEqual(['workflow', workflow.workflowId]);
      expect((await workflow.describe()).status.name).toBe('RUNNING');
      // The other contract of the clock was trued up.
      expect(await contractView(other.id)).toMatchObject({ billing_error: null, terms: [{ true_up_nanos: units(10n).toString() }, { true_up_nanos: null }] });
    });

    // The cause is fixed: the operator's retry trues phase 1 up and clears the error.
    const retried = await expectJson<Contract>(await h.request('POST', `/admin/v1/contracts/${held.id}/retry`));
    expect(retried).toMatchObject({ status: 'Active', billing_error: null, terms: [{ true_up_nanos: units(10n).toString() }, { true_up_nanos: null }] });
    const retries = await h.deps.db.auditLogEntry.findMany({ where: { entityId: held.id, action: 'contract.billing_retried' } });
    expect(retries.map((entry) => [entry.actorType, entry.actorId])).toEqual([['admin', 'test-admin']]);
    const nothing = await h.request('POST', `/admin/v1/contracts/${held.id}/retry`);
    expect(nothing.status).toBe(409);
    expect(((await nothing.json()) as { error: { code: string } }).error.code).toBe('no_billing_error');
    await captureHistory(workflow, 'billing-error-then-operator-retry');
    for (const { id } of [held, other]) await h.deps.temporal.client.workflow.getHandle(contractWorkflowId(id)).terminate('test done');
  }, 120_000);

  it("accepts an operator retry sent while the contract's billing_error is being recorded, and trues the phase up", async () => {
    const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00.000Z');
    const body = {
      customer_id: await makeCustomer(h.deps.db, { testClockId: clockId }),
      name: 'Two phases',
      start_date: '2026-01-01',
      end_date: '2027-01-01',
      terms: [
        { phase: 1, start_date: '2026-01-01', end_date: '2026-04-01', committed_amount_nanos: units(10n).toString(), description: 'first' },
        { phase: 2, start_date: '2026-04-01', end_date: '2027-01-01', committed_amount_nanos: units(20n).toString(), description: 'second' },
      ],
    };
    const held = await expectJson<Contract>(await h.request('POST', '/admin/v1/contracts', { body }), 201);
    const workflow = h.deps.temporal.client.workflow.getHandle(contractWorkflowId(held.id));
    // Phase 1's true-up fails once (an overflow); the write of the contract's billing_error waits for the test.
    const once = await firstTimes(h.deps.db);
    const removeFault = await injectOverflow(h.deps.db, {
      table: 'contract_terms',
      when: `NEW.contract_id = '${held.id}'::uuid AND NEW.trued_up_at IS NOT NULL AND ${once.sql}`,
      on: 'UPDATE',
    });
    const window = await holdBillingErrorRecording(h.deps.db, 'contracts', `NEW.id = '${held.id}'::uuid`);
    let advancing: Promise<unknown> | undefined;
    let retry: WorkflowUpdateHandle<ContractSnapshot> | undefined;
    try {
      advancing = advance(clockId, '2026-04-01T01:00:00.000Z');
      await window.reached();
      // The error is being recorded: the retry is accepted (not 409 no_billing_error) and waits for it.
      retry = await retryAccepted(workflow, retryContractUpdate);
    } finally {
      await window.release();
      await removeFault();
      await once.drop();
    }
    expect(await retry!.result()).toMatchObject({ status: 'Active' });
    await advancing;
    expect(await expectJson<Contract>(await h.request('GET', `/admin/v1/contracts/${held.id}`))).toMatchObject({
      status: 'Active',
      billing_error: null,
      terms: [{ true_up_nanos: units(10n).toString() }, { true_up_nanos: null }],
    });
    expect(await billingErrorTrail(h.deps.db, 'contract', held.id)).toEqual([
      ['contract.billing_error', 'workflow'],
      ['contract.billing_retried', 'admin'],
    ]);
    await captureHistory(workflow, 'retry-accepted-while-billing-error-recorded');
    await workflow.terminate('test done');
  }, 120_000);
});

/**
 * The row of a one-phase contract (Jan-Feb 2026, 10.00 committed) as a create leaves it when its
 * process dies between the commit and the workflow start.
 */
const lostContractRow = (customerId: string, testClockId: string, status: 'Active' | 'Draft') => ({
  id: newId(),
  customer_id: customerId,
  name: `Lost ${status}`,
  status,
  start_date: '2026-01-01',
  end_date: '2026-03-01',
  discount_bps: null,
  rate_overrides: null,
  tier_overrides: null,
  escalation: null,
  parent_contract_id: null,
  amendment_reason: null,
  effective_date: null,
  escalation_steps: 0,
  test_clock_id: testClockId,
  created_at: new Date('2026-01-10T00:00:00.000Z'),
  terms: [
    {
      phase: 1,
      start_date: '2026-01-01',
      end_date: '2026-03-01',
      committed_amount_nanos: units(10n).toString(),
      description: 'only',
      discount_bps: null,
      rate_overrides: null,
      tier_overrides: null,
      commit_product_tag: null,
    },
  ],
});

describe('the contract workflow reconciler', () => {
  it('is a Temporal Schedule that starts the workflow of a contract whose start was lost after the commit', async () => {
    const scheduleHandle = h.deps.temporal.client.schedule.getHandle(CONTRACT_RECONCILE_SCHEDULE_ID);
    expect((await scheduleHandle.describe()).action).toMatchObject({ type: 'startWorkflow', workflowType: 'contractReconcileWorkflow' });

    // The rows as a create leaves them when its process dies between the commit and the start, and
    // a Coterm link whose realignment was lost the same way.
    const clockId = await makeTestClock(h.deps.db, '2026-01-10T00:00:00.000Z');
    const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
    const subscription = await expectJson<{ id: string }>(
      await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: await makePlan(h.deps.db), currency: 'USD' } }),
      201,
    );
    const row = (status: 'Active' | 'Draft') => lostContractRow(customerId, clockId, status);
    const active = await insertContract(h.deps.db, row('Active'));
    const draft = await insertContract(h.deps.db, row('Draft'));
    await insertLink(h.deps.db, { id: newId(), contract_id: active.id, subscription_id: subscription.id, adoption_type: 'Coterm', coterm_fee_nanos: null, created_at: new Date('2026-01-10T00:00:00.000Z') });
    const handle = h.deps.temporal.client.workflow.getHandle(contractWorkflowId(active.id));
    await expect(handle.describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);

    const before = (await scheduleHandle.describe()).info.recentActions.length;
    await scheduleHandle.trigger();
    const run = await eventually(async () => {
      const actions = (await scheduleHandle.describe()).info.recentActions;
      expect(actions.length).toBeGreaterThan(before);
      return h.deps.temporal.client.workflow.getHandle<() => Promise<ContractReconcileSummary>>(actions[actions.length - 1]!.action.workflow.workflowId);
    });
    const summary = await run.result();
    expect(summary.started).toContain(active.id);
    expect(summary.started).not.toContain(draft.id);
    expect(summary.realigned).toContain(subscription.id);
    expect((await handle.describe()).status.name).toBe('RUNNING');
    // The reconcile run, not its activity, started the contract's workflow: its child, which outlives it (issue 29).
    expect(await childStartsOf(run)).toContain(handle.workflowId);
    expect((await handle.describe()).parentExecution?.workflowId).toBe(run.workflowId);
    // Realigned on the day its period began: nothing served to cut, the period now ends on the aligned boundary.
    const realigned = await expectJson<{ period_start: string; period_end: string }>(await h.request('GET', `/v1/subscriptions/${subscription.id}`));
    expect([realigned.period_start, realigned.period_end]).toEqual(['2026-01-10T00:00:00.000Z', '2026-02-01T00:00:00.000Z']);

    // The started workflow runs the contract on its customer's clock: expired at its end, trued up after the grace.
    await advance(clockId, '2026-03-01T01:00:00.000Z');
    const ended = await expectJson<Contract>(await h.request('GET', `/admin/v1/contracts/${active.id}`));
    expect([ended.status, ended.terms[0]!.true_up_nanos]).toEqual(['Expired', units(10n).toString()]);
    expect(await handle.result()).toEqual({ status: 'Expired', nextWakeAt: null });
    // The true-up's Draft got its invoice workflow from the contract workflow, not from its activity.
    const trueUpInvoices = (await invoicesOf<{ id: string; line_items: { kind: string }[] }>(h, `customer_id=${customerId}&limit=50`)).filter((i) => i.line_items.some((l) => l.kind === 'true_up'));
    expect(trueUpInvoices).toHaveLength(1);
    expect(await childStartsOf(handle)).toEqual([invoiceWorkflowId(trueUpInvoices[0]!.id)]);
    await captureHistory(handle, 'started-by-reconciler-true-up-invoice-workflow-started-as-child');
    // A second run finds nothing of ours to start or realign.
    const again = await h.deps.temporal.client.workflow.execute('contractReconcileWorkflow', { taskQueue: h.deps.temporal.taskQueue, workflowId: `reconcile-test-${newId()}` });
    expect([again.started, again.realigned]).toEqual([expect.not.arrayContaining([active.id]), expect.not.arrayContaining([subscription.id])]);
    await captureHistory(run, 'starts-missing-contract-workflow-as-child');
  }, 120_000);

  it('starts the other missing workflows when one contract or coterm link fails deterministically, and names it in the summary', async () => {
    const healthyClock = await makeTestClock(h.deps.db, '2026-01-10T00:00:00.000Z');
    const poisonedClock = await makeTestClock(h.deps.db, '2026-01-10T00:00:00.000Z');
    const lost = async (testClockId: string) => insertContract(h.deps.db, lostContractRow(await makeCustomer(h.deps.db, { testClockId }), testClockId, 'Active'));
    const healthy = await lost(healthyClock);
    const poisoned = await lost(poisonedClock);
    // A Coterm link whose realignment was lost, to a subscription whose workflow has ended since: the realignment is refused.
    const customerId = await makeCustomer(h.deps.db, { testClockId: healthyClock });
    const ended = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: await makePlan(h.deps.db), currency: 'USD' } }), 201);
    await h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(ended.id)).terminate('simulated loss');
    await insertLink(h.deps.db, { id: newId(), contract_id: healthy.id, subscription_id: ended.id, adoption_type: 'Coterm', coterm_fee_nanos: null, created_at: new Date('2026-01-10T00:00:00.000Z') });

    // The poisoned contract's clock time is corrupt: starting its workflow fails on every attempt.
    const run = await withCorruptClockTime(h.deps.db, poisonedClock, async () => {
      const handle = await h.deps.temporal.client.workflow.start('contractReconcileWorkflow', { taskQueue: h.deps.temporal.taskQueue, workflowId: `reconcile-test-${newId()}` });
      const summary = (await handle.result()) as ContractReconcileSummary;
      expect(summary.started).toContain(healthy.id);
      expect(summary.started).not.toContain(poisoned.id);
      expect(summary.realigned).not.toContain(ended.id);
      expect(summary.failed).toEqual(
        expect.arrayContaining([
          { kind: 'contract', id: poisoned.id, message: expect.stringMatching(/invalid time value/i) },
          { kind: 'coterm_link', id: ended.id, message: expect.any(String) },
        ]),
      );
      return handle;
    });
    expect((await run.describe()).status.name).toBe('COMPLETED');
    expect(await activityAttempts(h, run.workflowId)).toEqual({ reconcileContractWorkflows: [1] });
    expect((await h.deps.temporal.client.workflow.getHandle(contractWorkflowId(healthy.id)).describe()).status.name).toBe('RUNNING');
    await expect(h.deps.temporal.client.workflow.getHandle(contractWorkflowId(poisoned.id)).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
    await captureHistory(run, 'one-contract-failed-others-started');
    // The refused link is not offered to later runs of other tests.
    await h.deps.db.contractSubscription.deleteMany({ where: { subscriptionId: ended.id } });
  }, 120_000);
});

describe('coterm adoption of a running subscription', () => {
  it('cuts the period in course at the adoption, bills a stub to the first aligned boundary and ends every later period on the contract end', async () => {
    const clockId = await makeTestClock(h.deps.db, '2026-01-10T00:00:00.000Z');
    const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
    // 31.00 a month and 0.01 per API call; the first period is [Jan 10, Feb 10), billed on demand at once.
    const planId = await makePlan(h.deps.db, { flatNanos: units(31n) });
    const subscription = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }), 201);
    await expectJson(await h.request('POST', `/admin/v1/subscriptions/${subscription.id}/bill`), 201);
    await advance(clockId, '2026-01-15T12:00:00.000Z');
    await sendUsage(h, customerId, subscription.id, 100, '2026-01-15T12:00:00.000Z');
    await advance(clockId, '2026-01-20T00:00:00.000Z');

    const contract = await expectJson<Contract>(
      await h.request('POST', '/admin/v1/contracts', {
        body: {
          customer_id: customerId,
          name: 'Coterm H1',
          start_date: '2026-01-01',
          end_date: '2026-07-01',
          terms: [{ phase: 1, start_date: '2026-01-01', end_date: '2026-07-01', committed_amount_nanos: '0', description: 'only' }],
        },
      }),
      201,
    );
    const link = await expectJson<{ aligned_at: string | null; coterm: Record<string, unknown> }>(
      await h.request('POST', `/admin/v1/contracts/${contract.id}/subscriptions`, { body: { subscription_id: subscription.id, adoption_type: 'Coterm' } }),
      201,
    );
    // The core's answer, independently: the aligned month containing Jan 20 is [Jan 1, Feb 1); the
    // stub's 12 days of it cost 31.00 × 12/31 = 12.00.
    const expected = coterm('2026-01-20', '2026-07-01', units(31n), 'Monthly');
    if (expected.kind !== 'Aligned') throw new Error('expected an aligned coterm');
    expect(expected).toMatchObject({ first_period_end: '2026-02-01', first_period_days: 12, first_period_days_in_period: 31, first_period_amount_nanos: units(12n), anchor_day: 1 });
    expect(link.coterm).toMatchObject({ kind: 'Aligned', first_period_end: '2026-02-01', first_period_amount_nanos: units(12n).toString() });
    expect(link.aligned_at).toBe('2026-01-20T00:00:00.000Z');
    const aligned = await expectJson<{ period_start: string; period_end: string }>(await h.request('GET', `/v1/subscriptions/${subscription.id}`));
    expect([aligned.period_start, aligned.period_end]).toEqual(['2026-01-20T00:00:00.000Z', '2026-02-01T00:00:00.000Z']);
    // The audit trail and the outbox have the move.
    const audit = await h.deps.db.auditLogEntry.findFirstOrThrow({ where: { entityId: subscription.id, action: 'subscription.cotermed' } });
    expect(audit.after).toMatchObject({ period_end: '2026-02-01T00:00:00.000Z', cut_period: { start: '2026-01-10T00:00:00.000Z', end: '2026-01-20T00:00:00.000Z' } });
    const event = await h.deps.db.outboxEvent.findFirstOrThrow({ where: { aggregateId: contract.id, type: 'contract.subscription_aligned' } });
    expect(event.payload).toMatchObject({ data: { subscription_id: subscription.id, period_end: '2026-02-01T00:00:00.000Z', aligned_to: '2026-07-01' } });
    // Realigning again (a retried activity, or the reconciler) answers what was done and changes nothing.
    const again = await alignSubscriptionToContract(h.deps.db, { subscriptionId: subscription.id, at: '2026-01-20T06:00:00.000Z', actor: { type: 'system', id: 'test' } });
    expect(again).toEqual({
      state: { status: 'Active', periodStart: '2026-01-20T00:00:00.000Z', periodEnd: '2026-02-01T00:00:00.000Z', trialEnd: null },
      closed: { start: '2026-01-10T00:00:00.000Z', end: '2026-01-20T00:00:00.000Z' },
    });
    expect(await h.deps.db.auditLogEntry.count({ where: { entityId: subscription.id, action: 'subscription.cotermed' } })).toBe(1);

    await advance(clockId, '2026-01-25T12:00:00.000Z');
    await sendUsage(h, customerId, subscription.id, 200, '2026-01-25T12:00:00.000Z');
    await advance(clockId, '2026-07-01T01:00:00.000Z');
    await expectJson(await h.request('POST', `/admin/v1/subscriptions/${subscription.id}/cancel`, { body: { reason: 'done' } }));
    await advance(clockId, '2026-08-01T02:00:00.000Z');

    type PeriodInvoice = Invoice & { period_end: string };
    const invoices = (await invoicesOf<PeriodInvoice>(h, `subscription_id=${subscription.id}&limit=50`));
    const lines = (invoice: Invoice, kind: string) => invoice.line_items.filter((l) => l.kind === kind).map((l) => BigInt(l.amount_nanos));
    expect(invoices.map((i) => [i.period_start, i.period_end, i.status, lines(i, 'fee'), lines(i, 'usage')])).toEqual([
      // The period in course, cut short at the adoption: 10 of its 31 days served, 100 calls.
      ['2026-01-10T00:00:00.000Z', '2026-01-20T00:00:00.000Z', 'Open', [units(10n)], [units(1n)]],
      // The stub, prorated as the core's coterm says, with the 200 calls made in it.
      ['2026-01-20T00:00:00.000Z', '2026-02-01T00:00:00.000Z', 'Open', [expected.first_period_amount_nanos], [units(2n)]],
      // Whole aligned months; the last one under the contract ends on its end date.
      ...['02', '03', '04', '05', '06'].map((m) => [`2026-${m}-01T00:00:00.000Z`, `2026-${String(Number(m) + 1).padStart(2, '0')}-01T00:00:00.000Z`, 'Open', [units(31n)], [0n]]),
      ['2026-07-01T00:00:00.000Z', '2026-08-01T00:00:00.000Z', 'Open', [units(31n)], [0n]],
    ]);
    const handle = h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(subscription.id));
    expect((await handle.result()).status).toBe('Expired');
    await captureHistory(handle, 'cotermed-to-contract-end-then-cancelled');
  }, 300_000);

  it('refuses to coterm a subscription with no paid period in course', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const planId = await makePlan(h.deps.db, { trialDays: 14 });
    const subscription = await expectJson<{ id: string; status: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD', trial_days: 14 } }), 201);
    expect(subscription.status).toBe('Trialing');
    const contract = await expectJson<Contract>(
      await h.request('POST', '/admin/v1/contracts', {
        body: {
          customer_id: customerId,
          name: 'Coterm trial',
          start_date: '2030-01-01',
          end_date: '2031-01-01',
          terms: [{ phase: 1, start_date: '2030-01-01', end_date: '2031-01-01', committed_amount_nanos: '0', description: 'only' }],
        },
      }),
      201,
    );
    const res = await h.request('POST', `/admin/v1/contracts/${contract.id}/subscriptions`, { body: { subscription_id: subscription.id, adoption_type: 'Coterm' } });
    expect(res.status).toBe(409);
    expect(await h.deps.db.contractSubscription.count({ where: { subscriptionId: subscription.id } })).toBe(0);
  });
});
