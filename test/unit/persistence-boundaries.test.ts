/**
 * Where persistence lives, checked by reading the sources: Prisma and SQL only in the repositories
 * of src/db. Activities and the HTTP layer reach the database through services (that they import
 * neither src/db nor Prisma is test/unit/architecture.test.ts's rule); services open transactions
 * (`db.$transaction`) but read and write through repositories; and no two modules import each
 * other, directly or around a loop.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, resolveImport, ROOT, sourceFiles } from '../support/source-imports.js';

/** Source without comments, so prose about SQL or Prisma is not read as code. */
const code = (path: string): string =>
  readFileSync(join(ROOT, path), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');

/** The project files a file loads at run time (type-only imports are erased and load nothing). */
const runtimeImports = (path: string): string[] =>
  importsOf(path, readFileSync(join(ROOT, path), 'utf8'))
    .filter((ref) => !ref.typeOnly && ref.specifier.startsWith('.'))
    .flatMap((ref) => resolveImport(path, ref.specifier) ?? []);

const RAW_SQL = /\$(?:queryRaw|executeRaw)(?:Unsafe)?\b/;
/** A Prisma model call such as `tx.invoice.update(` or `deps.db.meter.findMany(`. */
const MODEL_CALL = /\b(?:db|tx|deps\.db)\.(?!\$)[a-z]\w*\.(?:find\w*|create\w*|update\w*|delete\w*|upsert|count|aggregate|groupBy)\s*\(/;
const POOL_SQL = /\b(?:pool|client)\.(?:query|connect)\s*\(/;

describe('persistence boundaries', () => {
  const transportFiles = [...sourceFiles('activities'), ...sourceFiles('src/http')];
  const serviceFiles = sourceFiles('src/services');

  it('finds the sources', () => {
    expect(transportFiles).toEqual(expect.arrayContaining(['activities/subscriptions.ts', 'src/http/middleware/idempotency.ts']));
    expect(serviceFiles).toEqual(expect.arrayContaining(['src/services/billing/billing.ts', 'src/services/invoicing/invoices.ts']));
  });

  it.each(transportFiles)('%s runs no SQL, model calls or transactions', (path) => {
    const source = code(path);
    expect(source).not.toMatch(RAW_SQL);
    expect(source).not.toMatch(MODEL_CALL);
    expect(source).not.toMatch(/\.\$transaction\s*\(/);
  });

  it.each(serviceFiles)('%s reads and writes only through repositories', (path) => {
    const source = code(path);
    expect(source).not.toMatch(RAW_SQL);
    expect(source).not.toMatch(MODEL_CALL);
    expect(source).not.toMatch(POOL_SQL);
  });

  it('has no runtime import cycles in src/ and activities/', () => {
    const files = [...sourceFiles('src'), ...sourceFiles('activities')];
    const graph = new Map(files.map((f) => [f, runtimeImports(f).filter((target) => files.includes(target))]));
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, trail: string[]): void => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push([...trail.slice(trail.indexOf(file)), file].join(' -> '));
        return;
      }
      state.set(file, 'open');
      for (const target of graph.get(file) ?? []) visit(target, [...trail, file]);
      state.set(file, 'done');
    };
    for (const file of files) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it('the scanners see what they look for', () => {
    expect('await tx.$queryRaw`SELECT 1`').toMatch(RAW_SQL);
    expect('await tx.invoice.update({ where })').toMatch(MODEL_CALL);
    expect('await deps.db.meter.findMany({})').toMatch(MODEL_CALL);
    expect('await db.$transaction(async (tx) => {})').not.toMatch(MODEL_CALL);
    expect('await pool.query(sql)').toMatch(POOL_SQL);
    expect(runtimeImports('src/services/billing/billing.ts')).toContain('src/db/invoices.ts');
    expect(runtimeImports('src/core/contracts.ts')).not.toContain('src/core/pricing.ts');
  });
});
