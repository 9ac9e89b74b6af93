/**
 * An operator finalizing a period's Draft at the moment the engine finalizes it itself (at the end
 * of the grace period, directly in the subscription's activity for a payer without a card): one of
 * them wins, the other is told the invoice moved on; each invoice is finalized once (one number,
 * one ledger journal, one audit entry) and ends with the workflow that collects and voids it.
 */
import { describe, expect, inject, it } from 'vitest';
import type { DbClient } from '../../src/db/client.js';
import { lockInvoice } from '../../src/db/invoices.js';
import { lockSubscription } from '../../src/db/subscriptions.js';
import { waitFor } from '../../src/dev/processes.js';
import { invoiceWorkflowId } from '../../workflows/invoice/messages.js';
import { advanceClock } from '../support/clock-usage.js';
import { makeCustomer, makePlan, makeTestClock } from '../support/fixtures.js';
import { expectJson, useHarness } from '../support/harness.js';
import { invoicesOf } from '../support/invoices.js';

const h = useHarness();

const CUSTOMERS = 8;

interface ErrorBody {
  error: { code: string };
}

interface Invoice {
  id: string;
  status: string;
  invoice_number: string | null;
  period_start: string;
}

describe('operator finalize racing the finalization at grace end', () => {
  it('finalizes each Draft exactly once, whoever wins', async () => {
    const clockId = await makeTestClock(h.deps.db, '2026-03-01T00:00:00.000Z');
    const planId = await makePlan(h.deps.db);
    const customerIds: string[] = [];
    for (let i = 0; i < CUSTOMERS; i += 1) {
      const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
      await expectJson(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }), 201);
      customerIds.push(customerId);
    }
    // Past the period end, inside the grace: every period's Draft is written, none finalized yet.
    await advanceClock(h, clockId, '2026-04-01T00:30:00.000Z');
    const drafts = await Promise.all(customerIds.map(async (customerId) => (await invoicesOf<Invoice>(h, `customer_id=${customerId}`)).find((i) => i.status === 'Draft')!));
    expect(drafts.every((draft) => draft !== undefined)).toBe(true);

    // The advance past the grace end and an operator's finalize of every Draft, at the same time.
    const grace = inject('invoiceGraceMs');
    const beyondGrace = new Date(Date.parse('2026-04-01T00:00:00.000Z') + grace + 60_000).toISOString();
    const [, answers] = await Promise.all([
      advanceClock(h, clockId, beyondGrace),
      Promise.all(drafts.map((draft) => h.request('POST', `/admin/v1/invoices/${draft.id}/finalize`))),
    ]);
    for (const answer of answers) {
      if (answer.status === 200) continue;
      expect((await expectJson<ErrorBody>(answer, 409)).error.code).toBe('invalid_state_transition');
    }

    const finalized = await Promise.all(drafts.map(async (draft) => expectJson<Invoice>(await h.request('GET', `/admin/v1/invoices/${draft.id}`))));
    expect(finalized.map((invoice) => invoice.status)).toEqual(Array(CUSTOMERS).fill('Open'));
    expect(new Set(finalized.map((invoice) => invoice.invoice_number)).size).toBe(CUSTOMERS);
    for (const invoice of finalized) {
      const journals = await h.deps.db.ledgerJournal.count({ where: { sourceType: 'invoice', sourceId: invoice.id } });
      expect(journals, `finalization journals of ${invoice.id}`).toBe(1);
      const audits = await h.deps.db.auditLogEntry.count({ where: { entityId: invoice.id, action: 'invoice.finalized' } });
      expect(audits, `finalization audit entries of ${invoice.id}`).toBe(1);
      // Whoever finalized it, its workflow is there to take the payment.
      const run = await h.deps.temporal.client.workflow.getHandle(invoiceWorkflowId(invoice.id)).describe();
      expect(run.type).toBe('invoiceWorkflow');
    }
  });
});

describe('an invoice move racing the billing of its subscription', () => {
  // Billing takes the subscription FOR UPDATE, then its Draft. A move of the invoice (finalize, pay)
  // that updates the invoice row twice re-checks its foreign key to the subscription on the second
  // update; without the subscription share-locked before the invoice, that check waits for the
  // billing, which waits for the invoice: a deadlock PostgreSQL breaks by failing one of them.
  it('orders the locks as billing does: the move runs first, the billing waits, neither fails', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const planId = await makePlan(h.deps.db);
    const subscription = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }), 201);
    const draft = await expectJson<Invoice>(await h.request('POST', `/admin/v1/subscriptions/${subscription.id}/bill`), 201);
    const touch = (tx: DbClient) => tx.$executeRaw`UPDATE invoices SET updated_at = now() WHERE id = ${draft.id}::uuid`;
    const order: string[] = [];
    let releaseMove!: () => void;
    const billingMayStart = new Promise<void>((resolve) => (releaseMove = resolve));

    const move = h.deps.db.$transaction(async (tx) => {
      await lockInvoice(tx, draft.id);
      await touch(tx);
      const pid = (await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`)[0]!.pid;
      releaseMove();
      // The billing is now waiting on this transaction (for the subscription, or for the invoice).
      await waitFor('the billing to wait for the move', async () => {
        const blocked = await h.deps.db.$queryRaw<{ pid: number }[]>`SELECT pid FROM pg_stat_activity WHERE ${pid}::int = ANY(pg_blocking_pids(pid))`;
        if (blocked.length === 0) throw new Error('not waiting yet');
      }, 20_000, 20);
      await touch(tx);
      order.push('move');
    }, { timeout: 30_000 });
    const billing = billingMayStart.then(() =>
      h.deps.db.$transaction(async (tx) => {
        await lockSubscription(tx, subscription.id);
        await lockInvoice(tx, draft.id);
        order.push('billing');
      }, { timeout: 30_000 }),
    );
    const outcomes = await Promise.allSettled([move, billing]);
    expect(outcomes.map((o) => (o.status === 'rejected' ? String((o.reason as Error).message) : 'ok'))).toEqual(['ok', 'ok']);
    expect(order).toEqual(['move', 'billing']);
    await expectJson(await h.request('POST', `/admin/v1/subscriptions/${subscription.id}/cancel`));
  });
});
