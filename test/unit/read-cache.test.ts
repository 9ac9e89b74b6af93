/**
 * The read cache of entitlement checks and usage summaries (src/services/read-cache.ts): an answer is
 * kept for its maximum age, and an answer computed while its customer's answers were forgotten is never kept.
 */
import { describe, expect, it } from 'vitest';
import { ReadCache } from '../../src/services/read-cache.js';

describe('ReadCache', () => {
  it('keeps an answer younger than the maximum age, per customer and feature', () => {
    const cache = new ReadCache<string>();
    cache.set('C1', 'calls', cache.generation('C1'), 'answer', 1_000);
    expect(cache.get('c1', 'calls', 1_999, 1_000)).toBe('answer');
    expect(cache.get('C1', 'seats', 1_500, 1_000)).toBeUndefined();
    expect(cache.get('C1', 'calls', 2_000, 1_000)).toBeUndefined();
    // A clock that went back does not read an answer from its future.
    cache.set('C1', 'calls', cache.generation('C1'), 'answer', 5_000);
    expect(cache.get('C1', 'calls', 4_999, 1_000)).toBeUndefined();
  });

  it('does not keep an answer computed while its customer or every entry was forgotten', () => {
    const cache = new ReadCache<string>();
    const before = cache.generation('C1');
    cache.forgetCustomers(['C1']);
    cache.set('C1', 'calls', before, 'stale', 0);
    expect(cache.get('C1', 'calls', 0, 1_000)).toBeUndefined();

    const other = cache.generation('C2');
    cache.forgetCustomers(['C1']);
    cache.set('C2', 'calls', other, 'fresh', 0);
    expect(cache.get('C2', 'calls', 0, 1_000)).toBe('fresh');

    const beforeAll = cache.generation('C2');
    cache.forgetAll();
    cache.set('C2', 'seats', beforeAll, 'stale', 0);
    expect(cache.get('C2', 'seats', 0, 1_000)).toBeUndefined();
    expect(cache.get('C2', 'calls', 0, 1_000)).toBeUndefined();
  });

  it('forgets the customers named, not the others', () => {
    const cache = new ReadCache<string>();
    for (const id of ['C1', 'C2']) cache.set(id, 'calls', cache.generation(id), id, 0);
    cache.forgetCustomers(['c1']);
    expect(cache.get('C1', 'calls', 0, 1_000)).toBeUndefined();
    expect(cache.get('C2', 'calls', 0, 1_000)).toBe('C2');
  });
});
