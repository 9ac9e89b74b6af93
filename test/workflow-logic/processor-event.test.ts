/**
 * The processor-event workflow asks the invoice's workflow to apply a notification about a Draft or
 * Open invoice (a payment request and its answer), then reads the outcome; other notifications are
 * applied by its activity alone.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { invoiceWorkflowId, type InvoiceWorkflowFacts } from '../../workflows/invoice/messages.js';
import { processorEventWorkflowId } from '../../workflows/processor-event/messages.js';
import { useWorkflowLogic } from '../support/workflow-logic.js';

const logic = useWorkflowLogic(['requestProcessorEvent', 'applyProcessorEvent', 'applyPaymentNotification', 'renderInvoiceDocument', 'recordBillingError', 'clearBillingError']);

describe.concurrent('processor notification through the invoice workflow', () => {
  it('asks the running invoice workflow by signal, which applies it once and answers; the outcome is read after', async () => {
    const invoiceId = randomUUID();
    const eventId = `evt_${randomUUID()}`;
    const facts: InvoiceWorkflowFacts = { invoiceId, status: 'Open', customerId: randomUUID(), subscriptionId: null, invoiceNumber: 'INV-0100', testClockId: null, currency: 'USD' };
    const invoice = logic.mock(invoiceWorkflowId(invoiceId), {
      applyPaymentNotification: async () => ({ invoice: { status: 'Paid', invoiceNumber: 'INV-0100' }, paymentId: null, paymentStatus: null, followUps: [] }),
      renderInvoiceDocument: async () => null,
    });
    const invoiceHandle = await logic.start('invoiceWorkflow', invoice.id, [{ invoiceId, status: 'Open' }]);
    const run = logic.mock(processorEventWorkflowId(eventId), {
      requestProcessorEvent: async () => ({ asked: true, followUps: [{ kind: 'invoice_payment', invoice: facts, command: { kind: 'notification', eventId }, running: true }] }),
      applyProcessorEvent: async () => ({ outcome: 'payment_succeeded', followUps: [] }),
    });
    const handle = await logic.start('processorEventWorkflow', run.id, [{ eventId }]);

    expect(await handle.result()).toBe('payment_succeeded');
    expect(await invoiceHandle.result()).toEqual({ status: 'Paid', invoiceNumber: 'INV-0100' });
    expect(invoice.argsOf('applyPaymentNotification')).toEqual([[invoiceId, eventId]]);
    expect(run.calls).toEqual([
      { activity: 'requestProcessorEvent', args: [eventId] },
      { activity: 'applyProcessorEvent', args: [eventId, { requestId: expect.any(String), result: { invoice: { status: 'Paid', invoiceNumber: 'INV-0100' }, paymentId: null, paymentStatus: null }, failure: null }] },
    ]);
  });

  it('leaves a notification nothing is asked for to its activity', async () => {
    const eventId = `evt_${randomUUID()}`;
    const run = logic.mock(processorEventWorkflowId(eventId), {
      requestProcessorEvent: async () => ({ asked: false, followUps: [] }),
      applyProcessorEvent: async () => ({ outcome: 'refund_recorded', followUps: [] }),
    });
    const handle = await logic.start('processorEventWorkflow', run.id, [{ eventId }]);
    expect(await handle.result()).toBe('refund_recorded');
    expect(run.calls).toEqual([
      { activity: 'requestProcessorEvent', args: [eventId] },
      { activity: 'applyProcessorEvent', args: [eventId] },
    ]);
  });
});
