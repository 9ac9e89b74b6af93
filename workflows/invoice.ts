/**
 * One workflow per invoice (id `invoice:<uuid>`, on the invoice task queue): Draft → Open →
 * Paid | Void (SPEC §3). Finalize, pay and void are updates; their validators reject moves the
 * state machine does not allow before anything is recorded, and each accepted move is one activity
 * transaction (row, gapless number, outbox event, audit entry). Concurrent moves are serialised and
 * each is re-checked when its turn comes. The workflow ends when the invoice is Paid or Void.
 */
import { ApplicationFailure, allHandlersFinished, condition, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import {
  finalizeInvoiceUpdate,
  INVALID_TRANSITION,
  invoiceStateQuery,
  NOT_FOUND,
  payInvoiceUpdate,
  UNPROCESSABLE,
  voidInvoiceUpdate,
  type InvoiceOutcome,
  type InvoiceStatus,
  type InvoiceWorkflowInput,
  type SubscriptionCommand,
} from './messages.js';
import { Mutex } from './mutex.js';

const { finalizeInvoiceRecord, payInvoiceRecord, voidInvoiceRecord } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: {
    initialInterval: '1 second',
    maximumInterval: '1 minute',
    nonRetryableErrorTypes: [INVALID_TRANSITION, NOT_FOUND, UNPROCESSABLE],
  },
});

const ALLOWED: Record<'finalize' | 'pay' | 'void', InvoiceStatus> = { finalize: 'Draft', pay: 'Open', void: 'Open' };

export async function invoiceWorkflow(input: InvoiceWorkflowInput): Promise<InvoiceOutcome> {
  let state: InvoiceOutcome = { status: input.status, invoiceNumber: null };
  const mutex = new Mutex();

  const assertAllowed = (move: keyof typeof ALLOWED) => {
    if (state.status !== ALLOWED[move]) {
      throw ApplicationFailure.nonRetryable(`cannot ${move} an invoice in state ${state.status}`, INVALID_TRANSITION, {
        move,
        status: state.status,
      });
    }
  };
  const guard = (move: keyof typeof ALLOWED) => (_command: SubscriptionCommand) => assertAllowed(move);
  const run = (move: keyof typeof ALLOWED, persist: () => Promise<InvoiceOutcome>) =>
    mutex.run(async () => {
      // Re-checked: another update may have moved the invoice while this one waited its turn.
      assertAllowed(move);
      state = await persist();
      return state;
    });

  setHandler(finalizeInvoiceUpdate, (command) => run('finalize', () => finalizeInvoiceRecord(input.invoiceId, command)), {
    validator: guard('finalize'),
  });
  setHandler(payInvoiceUpdate, (command) => run('pay', () => payInvoiceRecord(input.invoiceId, command)), { validator: guard('pay') });
  setHandler(voidInvoiceUpdate, (command) => run('void', () => voidInvoiceRecord(input.invoiceId, command)), { validator: guard('void') });
  setHandler(invoiceStateQuery, () => state);

  await condition(() => state.status === 'Paid' || state.status === 'Void');
  await condition(allHandlersFinished);
  return state;
}
