/** Bundle entry of the worker: every workflow type the worker runs is exported here. */
export { contractWorkflow } from './contract.js';
export { invoiceWorkflow } from './invoice.js';
export { subscriptionWorkflow } from './subscription/index.js';
export { webhookDeliveryWorkflow } from './webhook-delivery.js';
export { dunningWorkflow } from './dunning.js';
export { processorEventWorkflow } from './processor-event.js';
export { dunningCheckWorkflow } from './dunning-check.js';
export { contractReconcileWorkflow } from './contract-reconcile.js';
export { revenueRecognitionWorkflow } from './revenue-recognition.js';
export { lateUsageCorrectionsWorkflow } from './late-usage-corrections.js';
export { walletRechargeWorkflow } from './wallet-recharge.js';
export { spendAlertWorkflow } from './spend-alerts.js';
export { testClockAdvanceWorkflow } from './test-clock-advance.js';
