/**
 * Scale-out: two worker processes and two API processes against one Temporal server and one
 * PostgreSQL database bill the same invoices as the single in-process worker of the test run.
 *
 * One scenario (a Flat + usage plan on a test clock, customers with different usage, an advance
 * over the period end and the invoice grace period) runs twice: through the test run's app and
 * worker, and through `src/main.ts` ×2 and `src/worker.ts` ×2 on a database and task queue of their
 * own, every call alternating between the two APIs. The invoices must be identical (amounts, lines,
 * periods, statuses), match the price list computed here, carry gapless numbers, and the
 * histories must show both workers did work.
 */
import { type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import { LOCAL_PROCESSOR_SECRET_KEY } from '../../src/config.js';
import { dropDatabase, ensureDatabase, migrateDatabase, withDatabase } from '../../src/dev/embedded-postgres.js';
import { freePort, startProjectProcess, stopProcess, waitFor } from '../../src/dev/processes.js';
import { apiKeyHash, generateSecrets } from '../../src/dev/secrets.js';
import { connectTemporal } from '../../src/temporal/client.js';
import { invoiceWorkflowId } from '../../workflows/invoice/messages.js';
import { subscriptionWorkflowId } from '../../workflows/subscription/messages.js';
import { createHarness, type Harness } from '../support/harness.js';

const CUSTOMERS = 8;
const CLOCK_START = '2026-01-01T00:00:00Z';
const USAGE_AT = '2026-01-15T12:00:00Z';
/** The period end plus the one-hour invoice grace period of the test run and of the default configuration. */
const BILLED_BY = '2026-02-01T01:00:00Z';
const FLAT_NANOS = 49_000_000_000_000n;
const PER_CALL_NANOS = 10_000_000_000n;
const callsOf = (i: number) => (i + 1) * 7;

/** One API call: the JSON body, or a thrown error naming the status and body. */
type Call = <T>(method: string, route: string, body?: unknown) => Promise<T>;

interface InvoiceLine {
  description: string;
  quantity: string;
  amount_nanos: string;
}
interface Invoice {
  id: string;
  invoice_number: string | null;
  status: string;
  currency: string;
  period_start: string;
  period_end: string;
  total_nanos: string;
  line_items: InvoiceLine[];
}

const fromHarness = (h: Harness): Call => async (method, route, body) => {
  const res = await h.request(method, route, body === undefined ? {} : { body });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${route} answered ${res.status}: ${text}`);
  return JSON.parse(text);
};

/** Calls spread over several API processes in turn. */
function roundRobin(bases: string[], apiKey: string): Call {
  let next = 0;
  return async (method, route, body) => {
    const base = bases[next++ % bases.length]!;
    const res = await fetch(`${base}${route}`, {
      method,
      headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${base}${route} answered ${res.status}: ${text}`);
    return JSON.parse(text);
  };
}

/** Advances the clock and waits until it reports `ready` (the advance may answer before the workflows catch up). */
async function advance(call: Call, clockId: string, to: string): Promise<void> {
  await call('POST', `/admin/v1/test-clocks/${clockId}/advance`, { frozen_time: to });
  await waitFor('the test clock to be ready', async () => {
    const clock = await call<{ status: string; frozen_time: string }>('GET', `/admin/v1/test-clocks/${clockId}`);
    if (clock.status !== 'ready' || Date.parse(clock.frozen_time) !== Date.parse(to)) throw new Error(`clock ${clock.status} at ${clock.frozen_time}`);
  }, 300_000, 250);
}

/** The scenario; answers each customer's invoices (in customer order) and the subscription ids. */
async function billOnePeriod(call: Call, run: string): Promise<{ invoices: Invoice[][]; subscriptionIds: string[] }> {
  const plan = await call<{ id: string }>('POST', '/admin/v1/catalog/plans', { name: 'Scale-out', billing_cadence: 'Monthly' });
  await call('POST', '/admin/v1/catalog/skus', { plan_id: plan.id, name: 'Base fee', pricing_model: 'Flat', unit_amount_nanos: FLAT_NANOS.toString(), currency: 'USD' });
  await call('POST', '/admin/v1/catalog/skus', { plan_id: plan.id, name: 'API calls', pricing_model: 'PerUnit', unit_amount_nanos: PER_CALL_NANOS.toString(), meter_event_type: 'api_calls', currency: 'USD' });
  const clock = await call<{ id: string }>('POST', '/admin/v1/test-clocks', { name: `scale ${run}`, frozen_time: CLOCK_START });
  const parties = await Promise.all(
    Array.from({ length: CUSTOMERS }, async (_, i) => {
      const customer = await call<{ id: string }>('POST', '/admin/v1/customers', {
        display_name: `Scale ${run} ${i}`,
        email: `scale-${run}-${i}@example.com`,
        currency: 'USD',
        account_type: 'Organization',
        test_clock_id: clock.id,
      });
      const subscription = await call<{ id: string }>('POST', '/v1/subscriptions', { customer_id: customer.id, plan_id: plan.id, currency: 'USD' });
      return { customerId: customer.id, subscriptionId: subscription.id };
    }),
  );
  await advance(call, clock.id, USAGE_AT);
  await Promise.all(
    parties.map(({ customerId, subscriptionId }, i) =>
      call('POST', '/v1/events/batch', {
        events: Array.from({ length: callsOf(i) }, (_, n) => ({ id: `scale-${run}-${i}-${n}`, event_type: 'api_calls', customer_id: customerId, subscription_id: subscriptionId, timestamp: USAGE_AT, properties: {} })),
      }),
    ),
  );
  await advance(call, clock.id, BILLED_BY);
  const invoices = await Promise.all(
    parties.map(async ({ customerId }) => {
      const listed = await call<{ id: string }[]>('GET', `/admin/v1/invoices?customer_id=${customerId}`);
      return Promise.all(listed.map((summary) => call<Invoice>('GET', `/admin/v1/invoices/${summary.id}`)));
    }),
  );
  return { invoices, subscriptionIds: parties.map((p) => p.subscriptionId) };
}

/** What must be the same whichever processes billed it. */
const comparable = (invoices: Invoice[][]) =>
  invoices.map((list) =>
    list
      .map((inv) => ({
        status: inv.status,
        currency: inv.currency,
        period: [inv.period_start, inv.period_end],
        total: inv.total_nanos,
        lines: inv.line_items.map((l) => [l.description, l.quantity, l.amount_nanos]).sort(),
      }))
      .sort((a, b) => a.period[0]!.localeCompare(b.period[0]!)),
  );

describe('two workers and two API processes on one Temporal server and one PostgreSQL', () => {
  const processes: ChildProcess[] = [];
  const cleanup: (() => Promise<void>)[] = [];
  let call: Call;
  let taskQueue: string;
  let workerPids: number[] = [];

  beforeAll(async () => {
    const databaseUrl = withDatabase(inject('databaseUrl'), `billing_scale_${Date.now().toString(36)}`);
    await ensureDatabase(databaseUrl);
    cleanup.push(() => dropDatabase(databaseUrl));
    migrateDatabase(databaseUrl);
    // A task queue of their own: the test run's worker polls another, so only these two workers bill this scenario.
    taskQueue = `scale-${randomUUID().slice(0, 8)}`;
    const secrets = generateSecrets();
    const ports = [await freePort(), await freePort()];
    const env = {
      NODE_ENV: 'development',
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      TEMPORAL_TASK_QUEUE: taskQueue,
      INVOICE_GRACE_PERIOD_SECONDS: String(inject('invoiceGraceMs') / 1000),
      LOG_LEVEL: 'info',
      JWT_SECRET: secrets.jwt_secret,
      API_KEY_HASH: apiKeyHash(secrets.api_key),
      PROCESSOR_WEBHOOK_SECRET: secrets.processor_webhook_secret,
      HOSTED_LINK_SECRET: secrets.hosted_link_secret,
      PROCESSOR_SECRET_KEY: LOCAL_PROCESSOR_SECRET_KEY,
      PROCESSOR_API_BASE: inject('stripeMockUrl'),
      RATE_LIMIT_RPS: '100000',
      RATE_LIMIT_BURST: '100000',
    };
    const workers = await Promise.all([0, 1].map(async () => (await startProjectProcess('src/worker.ts', env, 'worker ready')).child));
    processes.push(...workers);
    workerPids = workers.map((w) => w.pid!);
    const apis = await Promise.all(ports.map(async (port) => (await startProjectProcess('src/main.ts', { ...env, PORT: String(port) }, 'api listening')).child));
    processes.push(...apis);
    call = roundRobin(
      ports.map((port) => `http://127.0.0.1:${port}`),
      secrets.api_key,
    );
  }, 240_000);

  afterAll(async () => {
    await Promise.allSettled(processes.map((child) => stopProcess(child)));
    for (const step of cleanup.reverse()) await step().catch(() => {});
  });

  it('bills the same invoices as one worker, with gapless numbers, and both workers take part', async () => {
    const h = await createHarness();
    cleanup.push(() => h.close());
    const single = await billOnePeriod(fromHarness(h), `single-${randomUUID().slice(0, 8)}`);
    const scaled = await billOnePeriod(call, `scaled-${randomUUID().slice(0, 8)}`);

    expect(comparable(scaled.invoices)).toEqual(comparable(single.invoices));

    // The figures themselves, from the price list: one Open invoice per customer, Flat fee + calls × unit price.
    scaled.invoices.forEach((list, i) => {
      expect(list).toHaveLength(1);
      const [invoice] = list;
      expect(invoice!.status).toBe('Open');
      expect([invoice!.period_start, invoice!.period_end].map((d) => Date.parse(d))).toEqual([Date.parse(CLOCK_START), Date.parse('2026-02-01T00:00:00Z')]);
      expect(BigInt(invoice!.total_nanos)).toBe(FLAT_NANOS + BigInt(callsOf(i)) * PER_CALL_NANOS);
    });
    // One numbering sequence in the one database, whichever worker finalized: no gap, no duplicate.
    const numbers = scaled.invoices.flat().map((inv) => inv.invoice_number!);
    const sequence = numbers.map((n) => Number(/(\d+)$/.exec(n)![1])).sort((a, b) => a - b);
    expect(new Set(numbers).size).toBe(CUSTOMERS);
    expect(sequence.at(-1)! - sequence[0]!).toBe(CUSTOMERS - 1);

    // Both worker processes ran workflow or activity tasks of this scenario (identity = pid@host).
    const temporal = await connectTemporal(inject('temporalAddress'), 'default');
    cleanup.push(() => temporal.connection.close());
    const identities = new Set<string>();
    const workflowIds = [...scaled.subscriptionIds.map(subscriptionWorkflowId), ...scaled.invoices.flat().map((inv) => invoiceWorkflowId(inv.id))];
    for (const workflowId of workflowIds) {
      // Every run of the id: a subscription workflow may have continued as new.
      for await (const execution of temporal.client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
        const history = await temporal.client.workflow.getHandle(workflowId, execution.runId).fetchHistory();
        for (const event of (JSON.parse(historyToJSON(history)) as { events: Record<string, unknown>[] }).events) {
          for (const attributes of Object.values(event)) {
            const identity = typeof attributes === 'object' && attributes !== null ? (attributes as { identity?: unknown }).identity : undefined;
            if (typeof identity === 'string' && identity) identities.add(identity);
          }
        }
      }
    }
    for (const pid of workerPids) expect([...identities]).toContain(`${pid}@${os.hostname()}`);
  }, 600_000);
});
