/**
 * What the worker logs: one pino JSON line, with ids, for each period close, invoice finalization,
 * payment attempt (info when it succeeded, warn with the processor's reason when it failed) and
 * workflow failure (billing_error), written by the activities; and the Temporal SDK's
 * own lines (failures with workflow ids, the bundler) as JSON through the same logger. The
 * activities run here with a logger writing into memory, on the real database, Temporal and
 * stripe-mock.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, inject, it } from 'vitest';
import { createActivities } from '../../activities/index.js';
import { DEFAULT_DUNNING_SCHEDULE_DAYS } from '../../src/core/index.js';
import { LOCAL_PROCESSOR_SECRET_KEY } from '../../src/config.js';
import { createStripeProcessor } from '../../src/processor/stripe.js';
import { SYSTEM_ACTOR } from '../../src/services/audit.js';
import { zeroTax } from '../../src/services/billing/tax.js';
import { sdkLogger } from '../../src/temporal/sdk-logs.js';
import { invoiceWorkflowId } from '../../workflows/invoice/messages.js';
import { subscriptionWorkflowId } from '../../workflows/subscription/messages.js';
import { makeCustomer, makePlan, makeTestClock } from '../support/fixtures.js';
import { expectJson, useHarness } from '../support/harness.js';
import { attachCard } from '../support/payments.js';

const h = useHarness();

/** A pino logger like the worker's, its lines kept as parsed JSON. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const logger = pino({ level: 'info', name: 'worker', base: { service: 'billing', component: 'worker' } }, stream);
  return { logger, lines, line: (msg: string) => lines.find((l) => l.msg === msg) };
}

describe('worker logs', () => {
  it('writes one JSON line with ids for a period close, an invoice finalization, a payment and a billing failure', async () => {
    const { logger, line } = capturingLogger();
    const activities = createActivities({
      ...h.deps,
      logger,
      tax: zeroTax,
      processor: createStripeProcessor({ apiBase: inject('stripeMockUrl'), secretKey: LOCAL_PROCESSOR_SECRET_KEY }),
      settings: {
        invoiceGraceMs: inject('invoiceGraceMs'),
        webhooks: { ...inject('webhookSettings'), allowPrivateUrls: true },
        dunningScheduleDays: DEFAULT_DUNNING_SCHEDULE_DAYS,
        documents: inject('documentSettings'),
      },
    });
    const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00.000Z');
    const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
    await attachCard(h, customerId);
    const sub = await expectJson<{ id: string }>(
      await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: await makePlan(h.deps.db), currency: 'USD' } }),
      201,
    );
    // The subscription's own workflow stays idle (its clock is not advanced): these calls are the activities'.
    const period = { start: '2026-01-01T00:00:00.000Z', end: '2026-02-01T00:00:00.000Z' };
    const closed = await activities.closeSubscriptionPeriod({ subscriptionId: sub.id, period, reason: 'subscription_cycle' });
    expect(closed.invoiceId).not.toBeNull();
    const invoiceId = closed.invoiceId!;
    expect(line('period closed')).toMatchObject({ level: 30, component: 'worker', subscriptionId: sub.id, invoiceId, periodStart: period.start, periodEnd: period.end });

    const finalized = await activities.finalizeInvoiceRecord(invoiceId, { actor: SYSTEM_ACTOR, reason: 'period_closed', at: '2026-02-01T01:00:00.000Z' });
    expect(line('invoice finalized')).toMatchObject({ invoiceId, customerId, invoiceNumber: finalized.invoiceNumber, status: 'Open' });
    expect(finalized.invoiceNumber).toMatch(/^INV-\d{6}$/);

    const charged = await activities.chargeInvoice(invoiceId, { kind: 'charge', requestKey: `log-test:${invoiceId}`, source: 'auto_charge', actor: SYSTEM_ACTOR });
    expect(charged.paymentId).not.toBeNull();
    // stripe-mock refuses the card: the line says so, as a warning with the processor's reason, and
    // nothing claims the payment was charged.
    expect(charged.paymentStatus).toBe('Failed');
    const payment = await h.deps.db.payment.findUniqueOrThrow({ where: { id: charged.paymentId! } });
    expect(payment.failureCode).toEqual(expect.any(String));
    expect(line('payment failed')).toMatchObject({
      level: 40,
      invoiceId,
      paymentId: charged.paymentId,
      paymentStatus: 'Failed',
      invoiceStatus: 'Open',
      source: 'auto_charge',
      failureCode: payment.failureCode,
      failureMessage: payment.failureMessage,
    });
    expect(line('payment charged')).toBeUndefined();

    await activities.recordBillingError({
      entity: 'subscription',
      id: sub.id,
      error: { step: 'close_period', type: 'DeterministicFailure', message: 'a broken invariant', failedAt: period.end },
    });
    expect(line('subscription billing failed; waiting for an operator retry')).toMatchObject({ level: 50, subscriptionId: sub.id, billingError: { step: 'close_period' } });

    for (const id of [subscriptionWorkflowId(sub.id), invoiceWorkflowId(invoiceId)]) {
      await h.deps.temporal.client.workflow.getHandle(id).terminate('test done').catch(() => undefined);
    }
  });

  it('writes the Temporal SDK lines as JSON with their ids, tagged temporal-sdk', () => {
    const { logger, lines } = capturingLogger();
    const sdk = sdkLogger(logger);
    sdk.warn('Activity failed', { workflowId: 'subscription:42', runId: 'run-1', activityType: 'closeSubscriptionPeriod', error: new Error('database down') });
    sdk.debug('below the level');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 40,
      component: 'temporal-sdk',
      msg: 'Activity failed',
      workflowId: 'subscription:42',
      runId: 'run-1',
      activityType: 'closeSubscriptionPeriod',
      err: { message: 'database down' },
    });
  });
});
