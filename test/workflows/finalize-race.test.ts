/**
 * An operator finalizing a period's Draft at the moment the engine finalizes it itself (at the end
 * of the grace period, directly in the subscription's activity for a payer without a card): one of
 * them wins, the other is told the invoice moved on; each invoice is finalized once (one number,
 * one ledger journal, one audit entry) and ends with the workflow that collects and voids it.
 */
import { describe, expect, inject, it } from 'vitest';
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
