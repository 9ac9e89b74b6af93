/** The pure parts of the revenue reports: MRR movement classes and the CSV rendering. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toCsv } from '../../src/http/csv.js';
import { classifyMovement } from '../../src/services/reports/reports.js';

describe('classifyMovement', () => {
  it('names each change between two MRR figures', () => {
    expect(classifyMovement(0n, 50n, false)).toBe('new');
    expect(classifyMovement(0n, 50n, true)).toBe('reactivation');
    expect(classifyMovement(50n, 0n, true)).toBe('churn');
    expect(classifyMovement(50n, 120n, false)).toBe('expansion');
    expect(classifyMovement(120n, 50n, false)).toBe('contraction');
    expect(classifyMovement(50n, 50n, true)).toBe('unchanged');
  });

  it('puts every customer in exactly one class, so start + movements = end per currency', () => {
    const mrr = fc.bigInt({ min: 0n, max: 10n ** 20n });
    fc.assert(
      fc.property(fc.array(fc.tuple(mrr, mrr, fc.boolean()), { maxLength: 50 }), (customers) => {
        const moved = new Map<string, bigint>();
        for (const [start, end, before] of customers) {
          const kind = classifyMovement(start, end, before);
          moved.set(kind, (moved.get(kind) ?? 0n) + end - start);
          if (kind === 'new' || kind === 'reactivation') expect(start).toBe(0n);
          if (kind === 'churn') expect(end).toBe(0n);
        }
        const start = customers.reduce((s, [x]) => s + x, 0n);
        const end = customers.reduce((s, [, y]) => s + y, 0n);
        const movements = ['new', 'expansion', 'contraction', 'churn', 'reactivation'].reduce((s, k) => s + (moved.get(k) ?? 0n), 0n);
        expect(start + movements).toBe(end);
        expect(moved.get('unchanged') ?? 0n).toBe(0n);
      }),
    );
  });
});

describe('toCsv', () => {
  it('quotes commas, quotes and line breaks, keeps negative amounts, defuses formulas', () => {
    const csv = toCsv({
      header: ['name', 'amount_nanos', 'count'],
      rows: [
        ['Acme, Inc.', '-1500000000000', 3],
        ['Say "hi"\nthere', '0', 0],
        ['=HYPERLINK("x")', '12', 1],
        ['@SUM(A1)', '-', 2],
      ],
    });
    expect(csv).toBe(
      'name,amount_nanos,count\r\n"Acme, Inc.",-1500000000000,3\r\n"Say ""hi""\nthere",0,0\r\n"\'=HYPERLINK(""x"")",12,1\r\n\'@SUM(A1),\'-,2\r\n',
    );
  });
});
