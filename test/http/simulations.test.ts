/**
 * Price simulations' list and results CSV over HTTP against the real database (the runs themselves
 * are in test/workflows/simulations.test.ts): the list is newest first, paginated like every list
 * and filtered by status; the CSV streams results read in chunks, in order across chunk boundaries.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ONE_UNIT } from '../../src/core/index.js';
import { toDecimal } from '../../src/db/money.js';
import { newId } from '../../src/ids.js';
import type { SimulationView } from '../../src/schemas/simulations.js';
import { expectJson, useHarness } from '../support/harness.js';

const h = useHarness();
const STATUSES = ['completed', 'failed', 'completed', 'running', 'completed'] as const;
let ids: string[];

async function insertSimulation(status: string): Promise<string> {
  const id = newId();
  await h.deps.db.simulation.create({
    data: { id, status, candidate: { kind: 'plan_version', plan_id: newId(), version: 1 }, scope: { kind: 'all' }, lastPeriods: 1, requestedBy: 'admin:list-test' },
  });
  return id;
}

beforeAll(async () => {
  ids = [];
  for (const status of STATUSES) ids.push(await insertSimulation(status));
});

describe('price simulations: list and CSV', () => {
  it('lists newest first, page by page, narrowed by status', async () => {
    const mine = (items: SimulationView[]) => items.filter((item) => ids.includes(item.id)).map((item) => item.id);
    const completed = ids.filter((_, i) => STATUSES[i] === 'completed').reverse();
    const first = await h.request('GET', '/admin/v1/simulations?status=completed&limit=2');
    const page1 = await expectJson<SimulationView[]>(first);
    expect(page1.every((item) => item.status === 'completed')).toBe(true);
    expect(first.headers.get('x-has-more')).toBe('true');
    const cursor = first.headers.get('x-next-cursor')!;
    const page2 = await expectJson<SimulationView[]>(await h.request('GET', `/admin/v1/simulations?status=completed&limit=200&starting_after=${cursor}`));
    expect([...mine(page1), ...mine(page2)]).toEqual(completed);
    const failed = await expectJson<SimulationView[]>(await h.request('GET', '/admin/v1/simulations?status=failed&limit=200'));
    expect(mine(failed)).toEqual([ids[1]]);
    expect(failed[0]).toMatchObject({ status: 'failed', progress: { subscriptions_done: 0 }, results_csv_url: `/admin/v1/simulations/${failed[0]!.id}/results.csv` });
    const bad = await expectJson<{ error: { code: string } }>(await h.request('GET', '/admin/v1/simulations?status=finished'), 400);
    expect(bad.error.code).toBe('validation_failed');
  });

  it('streams every result of a large simulation in order, across the chunks it is read in', async () => {
    const id = await insertSimulation('completed');
    // 2,500 rows: three chunks of the reader; customers and subscriptions interleaved so the order is the reader's, not the insert's.
    const customers = Array.from({ length: 5 }, () => newId());
    const rows = Array.from({ length: 2500 }, (_, i) => ({
      simulationId: id,
      customerId: customers[i % 5]!,
      subscriptionId: customers[(i * 7) % 5]!,
      periodStart: new Date(Date.UTC(2000, 0, 1 + Math.floor(i / 5))),
      periodEnd: new Date(Date.UTC(2000, 0, 2 + Math.floor(i / 5))),
      currency: 'USD',
      actualNanos: toDecimal(BigInt(i) * ONE_UNIT),
      candidateNanos: toDecimal(BigInt(i + 1) * ONE_UNIT),
    }));
    await h.deps.db.simulationResult.createMany({ data: rows });
    const res = await h.request('GET', `/admin/v1/simulations/${id}/results.csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    const [header, ...lines] = (await res.text()).split('\r\n');
    expect(header).toBe('customer_id,subscription_id,period_start,period_end,currency,actual_nanos,candidate_nanos,delta_nanos');
    expect(lines.pop()).toBe('');
    const expected = [...rows]
      .sort((a, b) => (a.customerId !== b.customerId ? (a.customerId < b.customerId ? -1 : 1) : a.subscriptionId !== b.subscriptionId ? (a.subscriptionId < b.subscriptionId ? -1 : 1) : a.periodStart.getTime() - b.periodStart.getTime()))
      .map((r) => [r.customerId, r.subscriptionId, r.periodStart.toISOString(), r.periodEnd.toISOString(), 'USD', r.actualNanos.toFixed(0), r.candidateNanos.toFixed(0), ONE_UNIT.toString()].join(','));
    expect(lines).toHaveLength(2500);
    expect(lines).toEqual(expected);
    const missing = await expectJson<{ error: { code: string } }>(await h.request('GET', `/admin/v1/simulations/${newId()}/results.csv`), 404);
    expect(missing.error.code).toBe('simulation_not_found');
  });
});
