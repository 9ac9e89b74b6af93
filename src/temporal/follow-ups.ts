/**
 * Runs follow-ups (workflows/follow-ups/messages.ts) through the gateway: what a service asks of
 * other workflows when the API, not a workflow, called it. A workflow's activity hands them back to
 * its workflow instead (workflows/follow-ups/index.ts runs them there).
 */
import type { FollowUp } from '../../workflows/follow-ups/messages.js';
import type { TemporalGateway } from './gateway.js';
import { startContractWorkflow } from './workflows/contract.js';
import { signalDunningClosed, startDunningWorkflowRun } from './workflows/dunning.js';
import { invoicePaymentThroughWorkflow, moveInvoiceWorkflow, startInvoiceWorkflow } from './workflows/invoice.js';
import { startProcessorEventWorkflow } from './workflows/processor-event.js';
import { signalPaymentOutcome } from './workflows/subscription.js';
import { startWalletRechargeWorkflow } from './workflows/wallet-recharge.js';

export async function runFollowUpsThroughGateway(gateway: TemporalGateway, followUps: readonly FollowUp[]): Promise<void> {
  for (const followUp of followUps) {
    switch (followUp.kind) {
      case 'start_wallet_recharge':
        await startWalletRechargeWorkflow(gateway, followUp.topUpId, followUp.customerId);
        break;
      case 'start_dunning':
        await startDunningWorkflowRun(gateway, followUp.input, { customerId: followUp.customerId, testClockId: followUp.testClockId });
        break;
      case 'start_contract':
        await startContractWorkflow(gateway, followUp.input, { customerId: followUp.customerId, testClockId: followUp.testClockId });
        break;
      case 'start_processor_event':
        await startProcessorEventWorkflow(gateway, followUp.eventId);
        break;
      case 'payment_outcome':
        await signalPaymentOutcome(gateway, followUp.subscriptionId, followUp.outcome);
        break;
      case 'dunning_closed':
        await signalDunningClosed(gateway, followUp.invoiceId, followUp.state);
        break;
      case 'start_invoice':
        await startInvoiceWorkflow(gateway, followUp.invoice, { lean: followUp.lean === true });
        break;
      case 'finalize_invoice':
        await moveInvoiceWorkflow(gateway, followUp.invoice, 'finalize', followUp.command);
        break;
      case 'invoice_payment':
        await invoicePaymentThroughWorkflow(gateway, followUp.invoice, followUp.command);
        break;
    }
  }
}
