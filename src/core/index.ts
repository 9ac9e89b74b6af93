/**
 * Public API of the pure core: money, quantities, calendar dates, pricing/rating, contract and
 * metering math.
 * No I/O, no clock, no Node built-ins, so workflow code can import it as well as activities.
 */
export * from './errors.js';
export * from './money.js';
export * from './decimal.js';
export * from './calendar.js';
export * from './pricing.js';
export * from './dimensions.js';
export * from './contracts.js';
export * from './proration.js';
export * from './trueup.js';
export * from './coterm.js';
export * from './drawdown.js';
export * from './rating.js';
export * from './periods.js';
export * from './invoicing.js';
export * from './metering.js';
export * from './webhooks.js';
export * from './dunning.js';
export * from './ledger.js';
export * from './credit-allocation.js';
export * from './spend-alerts.js';
export * from './simulation.js';
export * from './explain.js';
export * from './entitlements.js';
export * from './lockstep.js';
