/**
 * Issue 29, the starts: the scheduled runs (late-usage corrections, the contract reconciler, the daily
 * dunning check) and the contract workflow start what their activity found missing or due themselves,
 * from the follow-ups the activity hands back: children that outlive them (ParentClosePolicy ABANDON),
 * and a finalize asked of a correction invoice's workflow waits for its answer. The activities are
 * mocks; the children run on this file's worker (the invoice ones on its invoice queue, where none runs).
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { FollowUp } from '../../workflows/follow-ups/messages.js';
import { contractWorkflowId, type ContractWorkflowInput } from '../../workflows/contract/messages.js';
import { dunningWorkflowId, type DunningWorkflowInput } from '../../workflows/dunning/messages.js';
import { finalizeAnsweredSignal, invoiceWorkflowId, type InvoiceWorkflowFacts, type InvoiceWorkflowInput } from '../../workflows/invoice/messages.js';
import { processorEventWorkflowId } from '../../workflows/processor-event/messages.js';
import { TASK_QUEUE_SUFFIXES } from '../../workflows/shared/messages.js';
import { childStartsOf } from '../support/histories.js';
import { eventually } from '../support/payments.js';
import { useWorkflowLogic } from '../support/workflow-logic.js';

const logic = useWorkflowLogic(['billLateUsageCorrections', 'reconcileContractWorkflows', 'advanceContract', 'checkDueDunningAttempts', 'requestProcessorEvent', 'applyProcessorEvent', 'runDunningAttempt', 'concludeDunning', 'recordBillingError', 'clearBillingError']);

const AT = '2026-03-01T00:00:00.000Z';
const facts = (invoiceId: string): InvoiceWorkflowFacts => ({ invoiceId, status: 'Draft', customerId: randomUUID(), subscriptionId: null, invoiceNumber: null, testClockId: null, currency: 'USD' });

/** Which workflow started a child, and on which task queue (its describe). */
async function childOf(workflowId: string) {
  const description = await logic.client.workflow.getHandle(workflowId).describe();
  return { parent: description.parentExecution?.workflowId, taskQueue: description.taskQueue };
}

async function startInputOf<T>(workflowId: string): Promise<T> {
  const [started] = (await logic.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  return JSON.parse(Buffer.from(started!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!.data!).toString('utf8')) as T;
}

describe.concurrent('starts handed back by activities run by their workflow', () => {
  it('the late-usage run starts a correction invoice workflow as its child, asks a finalize with the start and waits for the answer', async () => {
    const [lean, charged] = [randomUUID(), randomUUID()];
    const followUps: FollowUp[] = [
      { kind: 'start_invoice', invoice: { ...facts(lean), status: 'Open' }, lean: true },
      { kind: 'finalize_invoice', invoice: facts(charged), command: { actor: { type: 'workflow', id: 'late-usage' }, reason: 'period_closed', at: AT } },
    ];
    const summary = { at: AT, subscriptions: 2, invoices: [lean, charged], failed: [] };
    const run = logic.mock(`late-usage-${randomUUID()}`, { billLateUsageCorrections: async () => ({ ...summary, followUps }) });
    // Registered so the file's end terminates them (no invoice worker runs here).
    for (const id of [lean, charged]) logic.mock(invoiceWorkflowId(id), {});
    const handle = await logic.start('lateUsageCorrectionsWorkflow', run.id, []);

    // The finalize rides on the charged invoice's child start; the run waits for its answer.
    const request = await eventually(async () => (await startInputOf<InvoiceWorkflowInput>(invoiceWorkflowId(charged))).finalize!);
    expect(request).toMatchObject({ replyTo: run.id, command: { reason: 'period_closed', at: AT } });
    expect((await handle.describe()).status.name).toBe('RUNNING');
    await handle.signal(finalizeAnsweredSignal, { requestId: request.requestId, status: 'Open', deferred: null, failed: null });

    expect(await handle.result()).toEqual(summary);
    expect(await childStartsOf(handle)).toEqual([invoiceWorkflowId(lean), invoiceWorkflowId(charged)]);
    const invoiceQueue = `${logic.taskQueue}${TASK_QUEUE_SUFFIXES.invoices}`;
    for (const id of [lean, charged]) expect(await childOf(invoiceWorkflowId(id))).toEqual({ parent: run.id, taskQueue: invoiceQueue });
    expect(await startInputOf<InvoiceWorkflowInput>(invoiceWorkflowId(lean))).toEqual({ invoiceId: lean, status: 'Open', lean: true });
  });

  it('the contract reconciler starts a missing contract workflow as its child, which outlives it', async () => {
    const contractId = randomUUID();
    const input: ContractWorkflowInput = { contractId, testClock: null };
    const summary = { checked: 1, started: [contractId], closed: [], realigned: [], failed: [] };
    const run = logic.mock(`reconcile-${randomUUID()}`, {
      reconcileContractWorkflows: async () => ({ ...summary, followUps: [{ kind: 'start_contract', input, customerId: randomUUID(), testClockId: null }] }),
    });
    // The started contract has a step due a day later: its workflow waits on after the reconciler ended.
    const contract = logic.mock(contractWorkflowId(contractId), { advanceContract: async () => ({ status: 'Active', nextWakeAt: '2099-01-01T00:00:00.000Z' }) });
    const handle = await logic.start('contractReconcileWorkflow', run.id, []);

    expect(await handle.result()).toEqual(summary);
    expect(await childStartsOf(handle)).toEqual([contractWorkflowId(contractId)]);
    expect(await childOf(contractWorkflowId(contractId))).toEqual({ parent: run.id, taskQueue: logic.taskQueue });
    await contract.called('advanceContract');
    expect((await logic.client.workflow.getHandle(contractWorkflowId(contractId)).describe()).status.name).toBe('RUNNING');
  });

  it("the contract workflow starts the invoice workflow of its step's Draft as its child", async () => {
    const [contractId, invoiceId] = [randomUUID(), randomUUID()];
    const run = logic.mock(contractWorkflowId(contractId), {
      advanceContract: async () => ({ status: 'Expired', nextWakeAt: null, followUps: [{ kind: 'start_invoice', invoice: facts(invoiceId) }] }),
    });
    logic.mock(invoiceWorkflowId(invoiceId), {});
    const handle = await logic.start('contractWorkflow', run.id, [{ contractId, testClock: null } satisfies ContractWorkflowInput]);

    expect(await handle.result()).toEqual({ status: 'Expired', nextWakeAt: null });
    expect(await childStartsOf(handle)).toEqual([invoiceWorkflowId(invoiceId)]);
    expect(await childOf(invoiceWorkflowId(invoiceId))).toEqual({ parent: run.id, taskQueue: `${logic.taskQueue}${TASK_QUEUE_SUFFIXES.invoices}` });
  });

  it('the daily dunning check starts the re-driven schedule and the stale notification as its children', async () => {
    const [invoiceId, eventId] = [randomUUID(), `evt_${randomUUID()}`];
    const input: DunningWorkflowInput = { invoiceId, failedAt: AT, scheduleDays: [3], attemptCount: 1, testClock: null };
    const summary = { overdue: 1, redriven: [invoiceId], notificationsRedriven: 1, failed: [] };
    const run = logic.mock(`dunning-check-${randomUUID()}`, {
      checkDueDunningAttempts: async () => ({
        ...summary,
        followUps: [
          { kind: 'start_dunning', input, customerId: randomUUID(), testClockId: null },
          { kind: 'start_processor_event', eventId },
        ],
      }),
    });
    // Its retries made: the re-driven schedule concludes; the notification is applied.
    const dunning = logic.mock(dunningWorkflowId(invoiceId), { concludeDunning: async () => ({ status: 'Exhausted', attemptCount: 1 }) });
    const notification = logic.mock(processorEventWorkflowId(eventId), {
      // Nothing to ask of an invoice's workflow: the activity applies it.
      requestProcessorEvent: async () => ({ asked: false, followUps: [] }),
      applyProcessorEvent: async () => ({ outcome: 'ignored' }),
    });
    const handle = await logic.start('dunningCheckWorkflow', run.id, []);

    expect(await handle.result()).toEqual(summary);
    expect(await childStartsOf(handle)).toEqual([dunningWorkflowId(invoiceId), processorEventWorkflowId(eventId)]);
    for (const id of [dunningWorkflowId(invoiceId), processorEventWorkflowId(eventId)]) expect(await childOf(id)).toEqual({ parent: run.id, taskQueue: logic.taskQueue });
    expect(await notification.called('applyProcessorEvent')).toEqual({ activity: 'applyProcessorEvent', args: [eventId] });
    await dunning.called('concludeDunning');
  });
});
