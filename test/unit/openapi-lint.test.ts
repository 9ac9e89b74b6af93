/**
 * /openapi.json through the linters a client team would run: Redocly's `recommended` ruleset and
 * Spectral's `spectral:oas`. Errors fail the test; warnings are counted and printed. The linters are
 * devDependencies: where they are not installed the test is skipped and says so.
 */
import { describe, expect, it } from 'vitest';
import { newApp } from '../../src/http/app.js';
import { registerDocs } from '../../src/http/routes/docs.js';
import { registerHealth } from '../../src/http/routes/health.js';
import { ROUTES } from '../../src/http/routes/index.js';

const app = newApp();
registerHealth(app);
for (const register of ROUTES) register(app);
registerDocs(app);
const source = await (await app.request('/openapi.json')).text();

/** A module by name, or undefined when it is not installed. */
async function optional<T>(name: string): Promise<T | undefined> {
  try {
    return (await import(name)) as T;
  } catch {
    return undefined;
  }
}

interface Redocly {
  createConfig(config: { extends: string[] }): Promise<unknown>;
  lintFromString(opts: { source: string; absoluteRef: string; config: unknown }): Promise<{ severity: string; ruleId: string; message: string; location: { pointer?: string }[] }[]>;
}
interface SpectralModule {
  Spectral: new () => { setRuleset(ruleset: unknown): void; run(document: unknown): Promise<{ severity: number; code: string | number; message: string; path: (string | number)[] }[]> };
  Document: new (input: string, parser: unknown, source: string) => unknown;
}

const redocly = await optional<Redocly>('@redocly/openapi-core');
const spectralCore = await optional<SpectralModule & { default?: SpectralModule }>('@stoplight/spectral-core');
const rulesets = await optional<{ oas: unknown; default?: { oas: unknown } }>('@stoplight/spectral-rulesets');
const parsers = await optional<{ Json: unknown; default?: { Json: unknown } }>('@stoplight/spectral-parsers');

describe('the OpenAPI document under the linters', () => {
  it.skipIf(!redocly)("passes Redocly's recommended ruleset without errors", async () => {
    const config = await redocly!.createConfig({ extends: ['recommended'] });
    const problems = await redocly!.lintFromString({ source, absoluteRef: '/openapi.json', config });
    const warnings = problems.filter((problem) => problem.severity === 'warn');
    console.info(`Redocly recommended: ${warnings.length} warning(s)${warnings.map((w) => `\n  ${w.ruleId}: ${w.message}`).join('')}`);
    expect(problems.filter((problem) => problem.severity === 'error').map((p) => `${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`)).toEqual([]);
  });

  it.skipIf(!spectralCore || !rulesets || !parsers)("passes Spectral's spectral:oas ruleset without errors", async () => {
    const { Spectral, Document } = spectralCore!.Spectral ? spectralCore! : spectralCore!.default!;
    const { oas } = rulesets!.oas ? rulesets! : rulesets!.default!;
    const { Json } = parsers!.Json ? parsers! : parsers!.default!;
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [[oas, 'recommended']] });
    const results = await spectral.run(new Document(source, Json, '/openapi.json'));
    const warnings = results.filter((result) => result.severity === 1);
    console.info(`Spectral spectral:oas: ${warnings.length} warning(s)${warnings.map((w) => `\n  ${w.code}: ${w.message} (${w.path.join('.')})`).join('')}`);
    expect(results.filter((result) => result.severity === 0).map((r) => `${r.code} ${r.path.join('.')}: ${r.message}`)).toEqual([]);
  });

  it.skipIf(!!redocly && !!spectralCore)('is linted only where the linters are installed (devDependencies)', () => {
    console.warn('OpenAPI linters not installed: @redocly/openapi-core and @stoplight/spectral-core, -rulesets, -parsers; the lint tests were skipped');
  });
});
