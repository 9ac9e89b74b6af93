/**
 * One workflow per invoice (id `invoice:<uuid>`): Draft → Open → Paid | Void (SPEC §3). Finalize,
 * pay and void are updates; their validators reject moves the state machine does not allow before
 * anything is recorded, and each accepted move is one activity transaction (row, gapless number,
 * outbox event, audit entry). The workflow ends when the invoice is Paid or Void.
 */
import { ApplicationFailure, allHandlersFinished, condition, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import {
  finalizeInvoiceUpdate,
  INVALID_TRANSITION,
  invoiceStateQuery,
  payInvoiceUpdate,
  voidInvoiceUpdate,
  type InvoiceOutcome,
  type InvoiceStatus,
  type InvoiceWorkflowInput,
  type SubscriptionCommand,
} from './messages.js';

const { finalizeInvoiceRecord, payInvoiceRecord, voidInvoiceRecord } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: {
    initialInterval: '1 second',
    maximumInterval: '1 minute',
    nonRetryableErrorTypes: [INVALID_TRANSITION, 'NotFound', 'Unprocessable'],
  },
});

const ALLOWED: Record<'finalize' | 'pay' | 'void', InvoiceStatus> = { finalize: 'Draft', pay: 'Open', void: 'Open' };

export async function invoiceWorkflow(input: InvoiceWorkflowInput): Promise<InvoiceOutcome> {
  let state: InvoiceOutcome = { status: input.status, invoiceNumber: null };
  let busy = false;

  const assertAllowed = (move: keyof typeof ALLOWED) => {
    if (state.status !== ALLOWED[move] || busy) {
      throw ApplicationFailure.nonRetryable(`cannot ${move} an invoice in state ${state.status}`, INVALID_TRANSITION, {
        move,
        status: state.status,
      });
    }
  };
  const guard = (move: keyof typeof ALLOWED) => (_command: SubscriptionCommand) => assertAllowed(move);
  const run = async (move: keyof typeof ALLOWED, persist: () => Promise<InvoiceOutcome>) => {
    // Re-checked: another update may have moved the invoice since this one was validated.
    assertAllowed(move);
    busy = true;
    try {
      state = await persist();
      return state;
    } finally {
      busy = false;
    }
  };

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
