/**
 * Searchable workflows: the custom search attributes (workflows/shared/messages.ts) let an operator find a
 * customer's workflows through the visibility API, and follow the subscription's and the invoice's
 * status. Visibility is eventually consistent, so every listing is awaited with a condition loop.
 */
import type { WorkflowExecutionInfo } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { BILLING_STATUS_ATTRIBUTE, CUSTOMER_ID_ATTRIBUTE, INVOICE_NUMBER_ATTRIBUTE, SUBSCRIPTION_ID_ATTRIBUTE, TEST_CLOCK_ID_ATTRIBUTE } from '../../workflows/shared/messages.js';
import { advanceClock } from '../support/clock-usage.js';
import { captureHistory } from '../support/histories.js';
import { makeCustomer, makePlan, makeTestClock } from '../support/fixtures.js';
import { expectJson, expectPage, useHarness } from '../support/harness.js';
import { eventually } from '../support/payments.js';

const h = useHarness();

async function list(query: string): Promise<WorkflowExecutionInfo[]> {
  const found: WorkflowExecutionInfo[] = [];
  for await (const execution of h.deps.temporal.client.workflow.list({ query })) found.push(execution);
  return found.sort((a, b) => a.workflowId.localeCompare(b.workflowId));
}

/** Lists until `expectation` holds (visibility lags the workflows by a moment). */
const listed = (query: string, expectation: (found: WorkflowExecutionInfo[]) => void) =>
  eventually(async () => {
    const found = await list(query);
    expectation(found);
    return found;
  });

interface InvoiceBody {
  id: string;
  status: string;
  invoice_number: string | null;
}

describe('searchable workflows', () => {
  it('finds a customer’s subscription and invoice workflows by customer id, status, invoice number and test clock', async () => {
    const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00.000Z');
    const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
    const other = await makeCustomer(h.deps.db, { testClockId: clockId });
    const planId = await makePlan(h.deps.db);
    const create = async (customer: string) =>
      (await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customer, plan_id: planId, currency: 'USD' } }), 201)).id;
    const subscriptionId = await create(customerId);
    await create(other);

    // Set at start: the customer, the subscription, its status and its test clock.
    const [subscription] = await listed(`CustomerId = '${customerId}'`, (found) => expect(found.map((w) => w.workflowId)).toEqual([`subscription:${subscriptionId}`]));
    expect(subscription!.type).toBe('subscriptionWorkflow');
    expect(subscription!.typedSearchAttributes.get(SUBSCRIPTION_ID_ATTRIBUTE)).toBe(subscriptionId);
    expect(subscription!.typedSearchAttributes.get(BILLING_STATUS_ATTRIBUTE)).toBe('Active');
    expect(subscription!.typedSearchAttributes.get(TEST_CLOCK_ID_ATTRIBUTE)).toBe(clockId);
    await listed(`TestClockId = '${clockId}' AND WorkflowType = 'subscriptionWorkflow'`, (found) => expect(found).toHaveLength(2));

    // Past the period end and its grace: the invoice is finalized (Open, numbered), and "all open
    // invoices of the customer" finds it with its number; its memo names the customer.
    await advanceClock(h, clockId, '2026-02-01T01:00:00.000Z');
    const invoices = (await expectPage<InvoiceBody>(await h.request('GET', `/admin/v1/invoices?subscription_id=${subscriptionId}`))).data;
    const invoice = invoices.find((candidate) => candidate.status === 'Open')!;
    expect(invoice.invoice_number).not.toBeNull();
    const [open] = await listed(`CustomerId = '${customerId}' AND WorkflowType = 'invoiceWorkflow' AND ExecutionStatus = 'Running' AND BillingStatus = 'Open'`, (found) =>
      expect(found.map((w) => w.workflowId)).toEqual([`invoice:${invoice.id}`]),
    );
    expect(open!.typedSearchAttributes.get(INVOICE_NUMBER_ATTRIBUTE)).toBe(invoice.invoice_number);
    expect(open!.typedSearchAttributes.get(SUBSCRIPTION_ID_ATTRIBUTE)).toBe(subscriptionId);
    expect(open!.typedSearchAttributes.get(CUSTOMER_ID_ATTRIBUTE)).toBe(customerId);
    expect(await open!.memo).toMatchObject({ customer_id: customerId, subscription_id: subscriptionId, currency: 'USD' });
    await listed(`InvoiceNumber = '${invoice.invoice_number}'`, (found) => expect(found.map((w) => w.workflowId)).toEqual([`invoice:${invoice.id}`]));

    // Status changes are upserted: a paid invoice's workflow completes as Paid; a paused subscription is found as Paused.
    await expectJson(await h.request('POST', `/admin/v1/invoices/${invoice.id}/pay`, { body: { actor_id: 'ops-1', actor_name: 'Ops' } }));
    await listed(`CustomerId = '${customerId}' AND BillingStatus = 'Paid'`, (found) => {
      expect(found.map((w) => [w.workflowId, w.status.name])).toEqual([[`invoice:${invoice.id}`, 'COMPLETED']]);
    });
    await expectJson(await h.request('POST', `/admin/v1/subscriptions/${subscriptionId}/pause`));
    await listed(`WorkflowType = 'subscriptionWorkflow' AND BillingStatus = 'Paused' AND CustomerId = '${customerId}'`, (found) =>
      expect(found.map((w) => w.workflowId)).toEqual([`subscription:${subscriptionId}`]),
    );
    await captureHistory(h.deps.temporal.client.workflow.getHandle(`invoice:${invoice.id}`), 'finalized-by-period-close-lean-then-paid');
    await captureHistory(h.deps.temporal.client.workflow.getHandle(`subscription:${subscriptionId}`), 'period-closed-and-rolled-in-one-activity-paused');
  });
});
