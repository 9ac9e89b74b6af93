/**
 * The dunning workflow's schedule on a test clock (SPEC §3 Dunning schedule): retries due the
 * schedule's days after the failure, the wait for the last outcome, the schedule closed from outside,
 * and a retry failing for good held as the schedule's billing_error until an operator retries it.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { nextWakeQuery, NO_BILLING_ERROR, type SubscriptionCommand } from '../../workflows/shared/messages.js';
import { invoiceWorkflowId, paymentRequestSignal, type ChargeInvoiceCommand, type InvoicePaymentResult, type InvoiceWorkflowFacts } from '../../workflows/invoice/messages.js';
import { advanceDunningClockUpdate, dunningClosedSignal, type DunningState, dunningStateQuery, dunningWorkflowId, type DunningWorkflowInput, retryDunningUpdate } from '../../workflows/dunning/messages.js';
import { deterministicFailure, updateFailureType, useWorkflowLogic, type ActivityMocks } from '../support/workflow-logic.js';

const logic = useWorkflowLogic(['requestDunningCharge', 'runDunningAttempt', 'concludeDunning', 'recordBillingError', 'clearBillingError', 'chargeInvoice', 'renderInvoiceDocument']);

const FAILED_AT = '2026-03-01T10:00:00.000Z';
const DAY_MS = 86_400_000;
const day = (n: number) => new Date(Date.parse(FAILED_AT) + n * DAY_MS).toISOString();
const OPERATOR: SubscriptionCommand = { actor: { type: 'admin', id: 'ops-1' }, requestId: 'req-retry-1' };

/** A schedule whose retries never collect: each leaves it Active at the attempt made; the conclusion finds it Exhausted. */
const uncollected = (overrides: ActivityMocks = {}): ActivityMocks => ({
  // Nothing to ask of an invoice workflow here (the request and answer have their own test below).
  requestDunningCharge: async () => ({ asked: false, followUps: [] }),
  runDunningAttempt: async ({ attempt }) => ({ status: 'Active', attemptCount: attempt }),
  concludeDunning: async () => ({ status: 'Exhausted', attemptCount: 4 }),
  recordBillingError: async () => {},
  clearBillingError: async () => {},
  ...overrides,
});

async function startSchedule(mocks: ActivityMocks, scheduleDays = [3, 7, 14, 21], invoiceId: string = randomUUID()) {
  const run = logic.mock(dunningWorkflowId(invoiceId), mocks);
  const input: DunningWorkflowInput = { invoiceId, failedAt: FAILED_AT, scheduleDays, attemptCount: 0, testClock: { id: `clock-${invoiceId}`, now: FAILED_AT } };
  const handle = await logic.start('dunningWorkflow', run.id, [input]);
  const advance = (to: string) => handle.executeUpdate(advanceDunningClockUpdate, { args: [to] });
  return { invoiceId, run, handle, advance };
}

describe.concurrent('dunning schedule on a test clock', () => {
  it('retries at +3, +7, +14 and +21 days after the failure, then concludes 7 days after the last retry', async () => {
    const { invoiceId, run, handle, advance } = await startSchedule(uncollected());
    expect(await advance(FAILED_AT)).toEqual({ caughtUp: true });
    expect(await handle.query(nextWakeQuery)).toBe(day(3));

    // Up to a millisecond before the first retry is due, nothing runs.
    await advance(new Date(Date.parse(day(3)) - 1).toISOString());
    expect(run.calls).toEqual([]);

    for (const [attempt, due] of [
      [1, 3],
      [2, 7],
      [3, 14],
      [4, 21],
    ] as const) {
      expect(await advance(day(due))).toEqual({ caughtUp: true });
      expect(run.argsOf('runDunningAttempt').at(-1)).toEqual([{ invoiceId, attempt, at: day(due), handBack: true }]);
      expect(await handle.query(dunningStateQuery)).toEqual({ status: 'Active', attemptCount: attempt });
    }
    // The last retry's outcome may stay pending at the processor: the schedule waits a week for it.
    expect(await handle.query(nextWakeQuery)).toBe(day(28));
    await advance(day(28));

    expect(await handle.result()).toEqual({ status: 'Exhausted', attemptCount: 4 });
    expect(run.calls.map((call) => call.activity)).toEqual([...Array.from({ length: 4 }, () => ['requestDunningCharge', 'runDunningAttempt']).flat(), 'concludeDunning']);
    expect(run.argsOf('concludeDunning')).toEqual([[{ invoiceId, at: day(28) }]]);
  });

  it('follows a configured schedule (+1, +2 days)', async () => {
    const { invoiceId, run, handle, advance } = await startSchedule(uncollected({ concludeDunning: async () => ({ status: 'Exhausted', attemptCount: 2 }) }), [1, 2]);
    await advance(day(1));
    await advance(day(2));
    expect(await handle.query(nextWakeQuery)).toBe(day(9));
    await advance(day(9));
    expect(await handle.result()).toEqual({ status: 'Exhausted', attemptCount: 2 });
    expect(run.calls).toEqual([
      { activity: 'requestDunningCharge', args: [{ invoiceId, attempt: 1, at: day(1) }] },
      { activity: 'runDunningAttempt', args: [{ invoiceId, attempt: 1, at: day(1), handBack: true }] },
      { activity: 'requestDunningCharge', args: [{ invoiceId, attempt: 2, at: day(2) }] },
      { activity: 'runDunningAttempt', args: [{ invoiceId, attempt: 2, at: day(2), handBack: true }] },
      { activity: 'concludeDunning', args: [{ invoiceId, at: day(9) }] },
    ]);
  });

  it('ends Resolved without another retry when the schedule is closed from outside (invoice paid)', async () => {
    const { run, handle, advance } = await startSchedule(uncollected());
    await advance(day(3));
    await handle.signal(dunningClosedSignal, { status: 'Resolved', attemptCount: 1 });

    expect(await handle.result()).toEqual({ status: 'Resolved', attemptCount: 1 });
    expect(run.calls.map((call) => call.activity)).toEqual(['requestDunningCharge', 'runDunningAttempt']);
  });

  it('retries a transient activity failure on its backoff schedule instead of holding it', async () => {
    let failures = 0;
    const { invoiceId, run, handle, advance } = await startSchedule(
      uncollected({
        runDunningAttempt: async ({ attempt }) => {
          if (failures++ === 0) throw new Error('processor unreachable');
          return { status: 'Active', attemptCount: attempt };
        },
      }),
    );
    await advance(day(3));
    expect(run.argsOf('runDunningAttempt')).toEqual([
      [{ invoiceId, attempt: 1, at: day(3), handBack: true }],
      [{ invoiceId, attempt: 1, at: day(3), handBack: true }],
    ]);
    expect(run.argsOf('recordBillingError')).toEqual([]);
    expect(await handle.query(dunningStateQuery)).toEqual({ status: 'Active', attemptCount: 1 });
  });
});

describe.concurrent('dunning retry failing for good: held as the schedule billing_error', () => {
  /** The second retry fails deterministically once; every other call succeeds. */
  const failingSecondRetry = () => {
    let failed = false;
    return uncollected({
      runDunningAttempt: async ({ attempt }): Promise<DunningState> => {
        if (attempt === 2 && !failed) {
          failed = true;
          throw deterministicFailure('invoice total overflows the ledger');
        }
        return { status: 'Active', attemptCount: attempt };
      },
    });
  };

  it('records the billing_error, holds while the clock moves on, and runs the retry again on the operator retry', async () => {
    const { invoiceId, run, handle, advance } = await startSchedule(failingSecondRetry());
    await advance(day(3));

    // An operator retry with nothing held is refused before anything is recorded.
    expect(await updateFailureType(handle.executeUpdate(retryDunningUpdate, { args: [OPERATOR] }))).toBe(NO_BILLING_ERROR);

    expect(await advance(day(7))).toEqual({ caughtUp: true });
    const error = { step: 'runDunningAttempt', type: 'DeterministicFailure', message: 'invoice total overflows the ledger', failedAt: day(7) };
    expect(run.argsOf('recordBillingError')).toEqual([[{ entity: 'dunning_schedule', id: invoiceId, error }]]);

    // Held: the clock goes on without running anything, past the next retry's date too.
    const before = run.calls.length;
    expect(await advance(day(15))).toEqual({ caughtUp: true });
    expect(run.calls.length).toBe(before);
    expect(await handle.query(dunningStateQuery)).toEqual({ status: 'Active', attemptCount: 1 });

    // The operator's retry clears the billing_error and answers once the retry ran again (at the clock's time).
    expect(await handle.executeUpdate(retryDunningUpdate, { args: [OPERATOR] })).toEqual({ status: 'Active', attemptCount: 2 });
    // (The schedule carries on at once: the third retry, due at +14, may already be running.)
    expect(run.calls.slice(before, before + 3)).toEqual([
      { activity: 'clearBillingError', args: [{ entity: 'dunning_schedule', id: invoiceId, command: OPERATOR }] },
      { activity: 'requestDunningCharge', args: [{ invoiceId, attempt: 2, at: day(15) }] },
      { activity: 'runDunningAttempt', args: [{ invoiceId, attempt: 2, at: day(15), handBack: true }] },
    ]);

    // The third retry was due at +14, already passed: it runs at the clock's time, right after.
    expect(await advance(day(15))).toEqual({ caughtUp: true });
    expect(run.argsOf('runDunningAttempt').at(-1)).toEqual([{ invoiceId, attempt: 3, at: day(15), handBack: true }]);
    expect(await handle.query(nextWakeQuery)).toBe(day(21));
  });

  it('ends Resolved when the schedule is closed while held (the closing cleared the billing_error)', async () => {
    const { run, handle, advance } = await startSchedule(failingSecondRetry());
    await advance(day(7));
    await run.called('recordBillingError');
    await handle.signal(dunningClosedSignal, { status: 'Resolved', attemptCount: 2 });

    expect(await handle.result()).toEqual({ status: 'Resolved', attemptCount: 2 });
    expect(run.argsOf('clearBillingError')).toEqual([]);
    expect(run.calls.map((call) => call.activity)).toEqual(['requestDunningCharge', 'runDunningAttempt', 'requestDunningCharge', 'runDunningAttempt', 'recordBillingError']);
  });
});

describe.concurrent('a retry\'s charge asked of the invoice\'s workflow (a request and an answer)', () => {
  const chargeOf = (attempt: number, at: string): ChargeInvoiceCommand => ({
    kind: 'charge',
    actor: { type: 'system', id: 'billing-engine' },
    requestKey: `dunning:${attempt}`,
    source: 'dunning',
    dunningAttempt: attempt,
    at,
  });
  const result = (status: 'Open' | 'Paid', paymentStatus: 'Failed' | 'Succeeded', paymentId: string): InvoicePaymentResult => ({ invoice: { status, invoiceNumber: 'INV-0007' }, paymentId, paymentStatus });

  /** The invoice's workflow, running Open, with its charges answered by `charges` in turn. */
  async function invoiceWorkflowCharging(invoiceId: string, charges: ((command: ChargeInvoiceCommand) => Promise<InvoicePaymentResult>)[]) {
    const run = logic.mock(invoiceWorkflowId(invoiceId), {
      chargeInvoice: async (_id, command) => ({ ...(await charges.shift()!(command)), followUps: [] }),
      renderInvoiceDocument: async () => null,
      recordBillingError: async () => {},
      clearBillingError: async () => {},
    });
    const handle = await logic.start('invoiceWorkflow', run.id, [{ invoiceId, status: 'Open' }]);
    return { run, handle };
  }

  it('sends each charge by signal, runs it once in the invoice workflow and settles the retry from the answer: failed, then a billing failure, then paid', async () => {
    const invoiceId = randomUUID();
    const facts: InvoiceWorkflowFacts = { invoiceId, status: 'Open', customerId: randomUUID(), subscriptionId: null, invoiceNumber: 'INV-0007', testClockId: null, currency: 'USD' };
    const invoice = await invoiceWorkflowCharging(invoiceId, [
      async () => result('Open', 'Failed', 'pay-1'),
      async () => {
        throw deterministicFailure('payment row overflows');
      },
      async () => result('Paid', 'Succeeded', 'pay-2'),
    ]);
    const { run, handle, advance } = await startSchedule(
      uncollected({
        requestDunningCharge: async ({ attempt, at }) => ({ asked: true, followUps: [{ kind: 'invoice_payment', invoice: facts, command: chargeOf(attempt, at), running: true }] }),
        runDunningAttempt: async ({ attempt, charge }) => ({ status: charge?.result?.invoice.status === 'Paid' ? 'Resolved' : 'Active', attemptCount: attempt }),
      }),
      undefined,
      invoiceId,
    );

    await advance(day(3));
    const [[first]] = run.argsOf('runDunningAttempt') as [[{ charge: { requestId: string } }]];
    expect(first).toEqual({ invoiceId, attempt: 1, at: day(3), handBack: true, charge: { requestId: expect.any(String), result: result('Open', 'Failed', 'pay-1'), failure: null } });
    expect(invoice.run.argsOf('chargeInvoice')).toEqual([[invoiceId, chargeOf(1, day(3))]]);

    // A billing failure in the invoice's workflow: held there (its billing_error), answered as the failure.
    await advance(day(7));
    expect(run.argsOf('runDunningAttempt').at(-1)).toEqual([
      { invoiceId, attempt: 2, at: day(7), handBack: true, charge: { requestId: expect.any(String), result: null, failure: { type: 'DeterministicFailure', message: 'payment row overflows', details: null } } },
    ]);
    expect(invoice.run.argsOf('recordBillingError')).toHaveLength(1);

    await advance(day(14));
    expect(await handle.result()).toEqual({ status: 'Resolved', attemptCount: 3 });
    expect(await invoice.handle.result()).toEqual({ status: 'Paid', invoiceNumber: 'INV-0007' });
    expect(invoice.run.argsOf('chargeInvoice').map(([, command]) => (command as ChargeInvoiceCommand).requestKey)).toEqual(['dunning:1', 'dunning:2', 'dunning:3']);
    const requestIds = run.argsOf('runDunningAttempt').map(([input]) => (input as { charge: { requestId: string } }).charge.requestId);
    expect(new Set(requestIds).size).toBe(3);

    // The history shows the orchestration: a request signal out and its answer back, per retry.
    const { events } = await handle.fetchHistory();
    expect((events ?? []).flatMap((e) => e.signalExternalWorkflowExecutionInitiatedEventAttributes?.signalName ?? [])).toEqual(['paymentRequest', 'paymentRequest', 'paymentRequest']);
    expect((events ?? []).flatMap((e) => e.workflowExecutionSignaledEventAttributes?.signalName ?? [])).toEqual(['paymentAnswered', 'paymentAnswered', 'paymentAnswered']);
  });

  it('answers null to the settling step when the invoice\'s workflow completed (no request is taken)', async () => {
    const invoiceId = randomUUID();
    const facts: InvoiceWorkflowFacts = { invoiceId, status: 'Open', customerId: randomUUID(), subscriptionId: null, invoiceNumber: 'INV-0008', testClockId: null, currency: 'USD' };
    const invoice = await invoiceWorkflowCharging(invoiceId, [async () => result('Paid', 'Succeeded', 'pay-3')]);
    await invoice.handle.signal(paymentRequestSignal, { requestId: 'by-hand', replyTo: `nobody-${invoiceId}`, command: chargeOf(1, day(1)) });
    expect(await invoice.handle.result()).toMatchObject({ status: 'Paid' });

    const { run, advance } = await startSchedule(
      uncollected({ requestDunningCharge: async ({ attempt, at }) => ({ asked: true, followUps: [{ kind: 'invoice_payment', invoice: facts, command: chargeOf(attempt, at), running: true }] }) }),
      undefined,
      invoiceId,
    );
    await advance(day(3));
    expect(run.argsOf('runDunningAttempt')).toEqual([[{ invoiceId, attempt: 1, at: day(3), handBack: true, charge: null }]]);
    expect(invoice.run.argsOf('chargeInvoice')).toHaveLength(1);
  });

  it('runs a request delivered twice once (the invoice workflow takes each request id once)', async () => {
    const invoiceId = randomUUID();
    const invoice = await invoiceWorkflowCharging(invoiceId, [async () => result('Open', 'Failed', 'pay-4'), async () => result('Open', 'Failed', 'pay-5')]);
    const request = { requestId: 'request-a', replyTo: `nobody-${invoiceId}`, command: chargeOf(1, day(3)) };
    await invoice.handle.signal(paymentRequestSignal, request);
    await invoice.handle.signal(paymentRequestSignal, request);
    await invoice.handle.signal(paymentRequestSignal, { ...request, requestId: 'request-b', command: chargeOf(2, day(7)) });
    await invoice.run.called('chargeInvoice', 2);
    expect(invoice.run.argsOf('chargeInvoice')).toEqual([
      [invoiceId, chargeOf(1, day(3))],
      [invoiceId, chargeOf(2, day(7))],
    ]);
    await invoice.handle.terminate('test done');
  });
});
