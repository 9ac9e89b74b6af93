/** Bundle entry of the worker: every workflow type the worker runs is exported here. */
export { contractWorkflow } from './contract/index.js';
export { invoiceWorkflow } from './invoice/index.js';
export { subscriptionWorkflow } from './subscription/index.js';
export { webhookDeliveryWorkflow } from './webhook-delivery/index.js';
export { dunningWorkflow } from './dunning/index.js';
export { processorEventWorkflow } from './processor-event/index.js';
export { dunningCheckWorkflow } from './dunning-check/index.js';
export { contractReconcileWorkflow } from './contract-reconcile/index.js';
export { revenueRecognitionWorkflow } from './revenue-recognition/index.js';
export { lateUsageCorrectionsWorkflow } from './late-usage-corrections/index.js';
export { usageEventRetentionWorkflow } from './usage-event-retention/index.js';
export { walletRechargeWorkflow } from './wallet-recharge/index.js';
export { spendAlertWorkflow } from './spend-alerts/index.js';
export { testClockAdvanceWorkflow, testClockDriveBatchWorkflow } from './test-clock-advance/index.js';
export { simulationWorkflow } from './simulation/index.js';
