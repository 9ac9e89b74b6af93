/**
 * /openapi.json through the linters a client team would run: Redocly's `recommended` ruleset and
 * Spectral's `spectral:oas`. Errors fail the test; warnings are counted and printed. The linters are
 * devDependencies.
 */
import { createConfig, lintFromString } from '@redocly/openapi-core';
import * as spectralCore from '@stoplight/spectral-core';
import * as spectralParsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { describe, expect, it } from 'vitest';
import { apiDocumentText } from '../../src/http/document.js';

const source = await apiDocumentText();

interface SpectralModule {
  Spectral: new () => { setRuleset(ruleset: unknown): void; run(document: unknown): Promise<{ severity: number; code: string | number; message: string; path: (string | number)[] }[]> };
  Document: new (input: string, parser: unknown, source: string) => unknown;
}

/** Linting the whole document is CPU work that grows with it (about 20 s on a loaded 2-core machine): room beyond the default. */
const LINT_TIMEOUT_MS = 180_000;

describe('the OpenAPI document under the linters', () => {
  it("passes Redocly's recommended ruleset without errors", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source, absoluteRef: '/openapi.json', config });
    const warnings = problems.filter((problem) => problem.severity === 'warn');
    console.info(`Redocly recommended: ${warnings.length} warning(s)${warnings.map((w) => `\n  ${w.ruleId}: ${w.message}`).join('')}`);
    expect(problems.filter((problem) => problem.severity === 'error').map((p) => `${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`)).toEqual([]);
  }, LINT_TIMEOUT_MS);

  it("passes Spectral's spectral:oas ruleset without errors", async () => {
    const { Spectral, Document } = spectralCore as unknown as SpectralModule;
    // A CommonJS package: named exports under one loader, its default export under another.
    const parsers = spectralParsers as unknown as { Json?: unknown; default?: { Json: unknown } };
    const Json = parsers.Json ?? parsers.default?.Json;
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [[oas, 'recommended']] });
    const results = await spectral.run(new Document(source, Json, '/openapi.json'));
    const warnings = results.filter((result) => result.severity === 1);
    console.info(`Spectral spectral:oas: ${warnings.length} warning(s)${warnings.map((w) => `\n  ${w.code}: ${w.message} (${w.path.join('.')})`).join('')}`);
    expect(results.filter((result) => result.severity === 0).map((r) => `${r.code} ${r.path.join('.')}: ${r.message}`)).toEqual([]);
  }, LINT_TIMEOUT_MS);
});
