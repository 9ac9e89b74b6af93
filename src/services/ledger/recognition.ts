/**
 * The periodic revenue recognition run. Ratable recognition steps (core recognitionSteps: each UTC
 * month start inside a deferred line's service period, and its end) are posted for every customer
 * up to its now, whether or not a subscription period of the customer closes then, so an annual
 * customer's deferred revenue moves to revenue month by month, not once a year:
 * - in real time, by the Temporal Schedule `ledger-revenue-recognition` (daily just after midnight
 *   UTC, and once when a worker starts) for every customer on no test clock;
 * - on a test clock, as part of every advance of the clock, up to its new time, for its customers
 *   (src/services/subscriptions/test-clocks.ts).
 * Each step is one journal with its business key `revenue_recognition:<line>:<step>` dated at the
 * step, so a run posts only what no earlier run (nor a period close) posted, and balances as of a
 * date do not depend on when the run happened. Each customer is recognized in its own transaction:
 * a customer whose recognition fails deterministically is logged and left for the next run, the
 * others are posted; a transient failure fails the run, which Temporal retries.
 */
import type { Db } from '../../db/client.js';
import { customersWithRevenueDue } from '../../db/ledger.js';
import type { Logger } from '../../logger.js';
import type { RevenueRecognitionSummary } from '../../temporal/messages.js';
import { classifyFailure, describeFailure } from '../failures/taxonomy.js';
import { recognizeDeferredRevenue } from './postings.js';

/** Posts every recognition step due up to `upTo` for the customers on the test clock (or on none: null). */
export async function recognizeRevenueDue(deps: { db: Db; logger: Logger }, testClockId: string | null, upTo: Date): Promise<RevenueRecognitionSummary> {
  const customers = await customersWithRevenueDue(deps.db, { testClockId, upTo });
  const summary: RevenueRecognitionSummary = { upTo: upTo.toISOString(), customers: customers.length, journals: 0, failed: [] };
  for (const customerId of customers) {
    try {
      summary.journals += await deps.db.$transaction((tx) => recognizeDeferredRevenue(tx, customerId, upTo));
    } catch (err) {
      if (classifyFailure(err) === 'transient') throw err;
      summary.failed.push(customerId);
      deps.logger.error({ customerId, failure: describeFailure(err) }, 'revenue recognition failed for a customer; the next run tries again');
    }
  }
  if (summary.journals > 0) deps.logger.info({ testClockId, ...summary }, 'revenue recognized');
  return summary;
}
