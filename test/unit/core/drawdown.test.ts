import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CoreValidationError, drawDown, type Charge, type Commit } from '../../../src/core/index.js';

const U = 1_000_000_000_000n;

describe('drawDown', () => {
  it('consumes commits by priority then id, tag-scoped commits only for matching charges', () => {
    const commits: Commit[] = [
      { id: 'promo', priority: 2, remaining_nanos: 20n * U },
      { id: 'ai-credit', priority: 1, remaining_nanos: 30n * U, product_tag: 'ai' },
      { id: 'general', priority: 2, remaining_nanos: 100n * U },
    ];
    const charges: Charge[] = [
      { line_id: 'l1', amount_nanos: 50n * U, tags: ['ai'] },
      { line_id: 'l2', amount_nanos: 90n * U, tags: ['api'] },
      { line_id: 'l3', amount_nanos: 10n * U, tags: ['ai'] },
    ];
    const result = drawDown(commits, charges);
    expect(result.applications).toEqual([
      { line_id: 'l1', commit_id: 'ai-credit', amount_nanos: 30n * U },
      { line_id: 'l1', commit_id: 'general', amount_nanos: 20n * U },
      { line_id: 'l2', commit_id: 'general', amount_nanos: 80n * U },
      { line_id: 'l2', commit_id: 'promo', amount_nanos: 10n * U },
      { line_id: 'l3', commit_id: 'promo', amount_nanos: 10n * U },
    ]);
    expect(result.commits).toEqual([
      { id: 'ai-credit', applied_nanos: 30n * U, remaining_nanos: 0n },
      { id: 'general', applied_nanos: 100n * U, remaining_nanos: 0n },
      { id: 'promo', applied_nanos: 20n * U, remaining_nanos: 0n },
    ]);
    expect(result.uncovered).toEqual([]);
    expect(result.total_applied_nanos).toBe(150n * U);
  });

  it('reports what no commit could cover', () => {
    const result = drawDown(
      [{ id: 'x', priority: 1, remaining_nanos: 10n * U, product_tag: 'ai' }],
      [
        { line_id: 'l1', amount_nanos: 25n * U, tags: ['api'] },
        { line_id: 'l2', amount_nanos: 15n * U, tags: ['ai'] },
      ],
    );
    expect(result.charges).toEqual([
      { line_id: 'l1', amount_nanos: 25n * U, applied_nanos: 0n, uncovered_nanos: 25n * U },
      { line_id: 'l2', amount_nanos: 15n * U, applied_nanos: 10n * U, uncovered_nanos: 5n * U },
    ]);
    expect(result.uncovered.map((c) => c.line_id)).toEqual(['l1', 'l2']);
    expect(result.total_uncovered_nanos).toBe(30n * U);
    expect(result.commits).toEqual([{ id: 'x', applied_nanos: 10n * U, remaining_nanos: 0n }]);
  });

  it('refuses negative amounts and duplicate commits', () => {
    expect(() => drawDown([{ id: 'a', priority: 1, remaining_nanos: -1n }], [])).toThrow(CoreValidationError);
    expect(() => drawDown([], [{ line_id: 'l', amount_nanos: -1n, tags: [] }])).toThrow(CoreValidationError);
    expect(() => drawDown([{ id: 'a', priority: 1, remaining_nanos: 1n }, { id: 'a', priority: 2, remaining_nanos: 1n }], [])).toThrow(CoreValidationError);
  });

  it('never over-draws and conserves every raw unit (property)', () => {
    const tag = fc.constantFrom('ai', 'api', 'storage');
    const commits = fc.uniqueArray(
      fc.record({ id: fc.string({ minLength: 1, maxLength: 4 }), priority: fc.integer({ min: 0, max: 3 }), remaining_nanos: fc.bigInt({ min: 0n, max: 10n ** 15n }), product_tag: fc.option(tag, { nil: undefined }) }),
      { selector: (c) => c.id, maxLength: 6 },
    );
    const charges = fc.uniqueArray(
      fc.record({ line_id: fc.string({ maxLength: 4 }), amount_nanos: fc.bigInt({ min: 0n, max: 10n ** 15n }), tags: fc.array(tag, { maxLength: 2 }) }),
      { selector: (c) => c.line_id, maxLength: 8 },
    );
    fc.assert(
      fc.property(commits, charges, (cs, ch) => {
        const clean: Commit[] = cs.map(({ product_tag, ...rest }) => (product_tag === undefined ? rest : { ...rest, product_tag }));
        const result = drawDown(clean, ch);
        result.charges.forEach((c, i) => {
          expect(c.amount_nanos).toBe(ch[i]?.amount_nanos);
          expect(c.applied_nanos + c.uncovered_nanos).toBe(c.amount_nanos);
          expect(c.uncovered_nanos >= 0n).toBe(true);
        });
        for (const balance of result.commits) {
          const initial = clean.find((c) => c.id === balance.id)?.remaining_nanos;
          expect(balance.applied_nanos + balance.remaining_nanos).toBe(initial);
          expect(balance.remaining_nanos >= 0n).toBe(true);
        }
        for (const application of result.applications) {
          const commit = clean.find((c) => c.id === application.commit_id);
          const charge = ch.find((c) => c.line_id === application.line_id);
          expect(application.amount_nanos > 0n).toBe(true);
          if (commit?.product_tag !== undefined) expect(charge?.tags).toContain(commit.product_tag);
        }
        const applied = result.applications.reduce((s, a) => s + a.amount_nanos, 0n);
        expect(applied).toBe(result.total_applied_nanos);
        expect(drawDown([...clean].reverse(), ch)).toEqual(result);
      }),
    );
  });
});
