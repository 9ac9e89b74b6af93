/**
 * The error code registry (src/http/error-codes.ts) against the source: every code created anywhere
 * in src/ is registered, with the status its kind implies; nothing registered is created nowhere;
 * every status has its documented error response.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { invalidTransition } from '../../src/errors.js';
import { ERROR_CODES, ISSUE_CODES } from '../../src/http/error-codes.js';
import { commonErrorResponses } from '../../src/http/errors.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

interface Found {
  code: string;
  /** The status the call implies, when it implies one. */
  status?: number;
  where: string;
}

const KIND_STATUS: Record<string, number> = { validation: 400, not_found: 404, conflict: 409, invalid_transition: 409, gone: 410, unprocessable: 422 };

/** Calls that put a code into `error.code`: the constructors and every helper that takes a literal. */
const ENVELOPE_PATTERNS: { name: string; pattern: RegExp; code: (m: RegExpExecArray) => Found['code']; status?: (m: RegExpExecArray) => number }[] = [
  { name: 'new DomainError', pattern: /new DomainError\(\s*'([a-z_]+)',\s*'([a-z0-9_]+)'/g, code: (m) => m[2]!, status: (m) => KIND_STATUS[m[1]!]! },
  { name: 'new ApiError', pattern: /new ApiError\(\s*'([a-z0-9_]+)'/g, code: (m) => m[1]! },
  { name: 'envelope', pattern: /\benvelope\(\s*c,\s*'([a-z0-9_]+)'/g, code: (m) => m[1]! },
  { name: 'conflict()', pattern: /\bconflict\(\s*'([a-z0-9_]+)'/g, code: (m) => m[1]!, status: () => 409 },
  { name: 'unprocessable()', pattern: /\bunprocessable\(\s*'([a-z0-9_]+)'/g, code: (m) => m[1]!, status: () => 422 },
  { name: 'rule()', pattern: /\brule\(\s*'([a-z0-9_]+)'/g, code: (m) => m[1]!, status: () => 422 },
  { name: 'notFound()', pattern: /\bnotFound\(\s*'([a-z_]+)'/g, code: (m) => `${m[1]}_not_found`, status: () => 404 },
  { name: 'found()', pattern: /\bfound\(\s*\w+\([^)]*\),\s*'([a-z_]+)'/g, code: (m) => `${m[1]}_not_found`, status: () => 404 },
  { name: 'missingReference()', pattern: /\bmissingReference\(\s*'([a-z_]+?)(?:_id)?'/g, code: (m) => `${m[1]}_not_found`, status: () => 404 },
];

/** Codes of details.issues[]: the core's problems and errors, and problem objects built in services. */
const ISSUE_PATTERNS: { name: string; pattern: RegExp }[] = [
  { name: 'new CoreValidationError', pattern: /new CoreValidationError\(\s*'([a-z0-9_]+)'/g },
  { name: '{ code, field|message }', pattern: /\bcode:\s*'([a-z0-9_]+)',\s*(?:field|message)\b/g },
];

function scan(source: string, file: string): { envelope: (Found & { pattern: string })[]; issues: (Found & { pattern: string })[] } {
  const lineOf = (index: number) => source.slice(0, index).split('\n').length;
  const envelope = ENVELOPE_PATTERNS.flatMap(({ name, pattern, code, status }) =>
    [...source.matchAll(pattern)].map((m) => ({ pattern: name, code: code(m), ...(status ? { status: status(m) } : {}), where: `${file}:${lineOf(m.index)}` })),
  );
  const issues = ISSUE_PATTERNS.flatMap(({ name, pattern }) =>
    [...source.matchAll(pattern)].map((m) => ({ pattern: name, code: m[1]!, where: `${file}:${lineOf(m.index)}` })),
  );
  return { envelope, issues };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

const found = sourceFiles(SRC).map((file) => scan(readFileSync(file, 'utf8'), path.relative(SRC, file)));
const envelopeCodes = found.flatMap((f) => f.envelope);
const issueCodes = found.flatMap((f) => f.issues);
const registeredStatus = (code: string): number | undefined => (ERROR_CODES as Record<string, { status: number }>)[code]?.status;

describe('the scanner', () => {
  it('reports an unregistered code in a snippet, and every pattern matches somewhere in src/', () => {
    const snippet = scan("throw conflict('no_such_code_anywhere', 'm');\nproblems.push({ code: 'made_up_issue', field, message });", 'snippet.ts');
    expect(snippet.envelope).toEqual([{ pattern: 'conflict()', code: 'no_such_code_anywhere', status: 409, where: 'snippet.ts:1' }]);
    expect(snippet.issues).toEqual([{ pattern: '{ code, field|message }', code: 'made_up_issue', where: 'snippet.ts:2' }]);
    const used = new Set([...envelopeCodes, ...issueCodes].map((f) => f.pattern));
    expect([...ENVELOPE_PATTERNS, ...ISSUE_PATTERNS].map((p) => p.name).filter((name) => !used.has(name))).toEqual([]);
  });
});

describe('the error code registry', () => {
  it('registers every code src/ puts into error.code, with the status its kind implies', () => {
    const missing = envelopeCodes.filter((f) => registeredStatus(f.code) === undefined).map((f) => `${f.code} (${f.where})`);
    expect(missing).toEqual([]);
    const wrongStatus = envelopeCodes
      .filter((f) => f.status !== undefined && registeredStatus(f.code) !== f.status)
      .map((f) => `${f.code}: ${f.where} implies ${f.status}, registered ${registeredStatus(f.code)}`);
    expect(wrongStatus).toEqual([]);
  });

  it('registers every issue code src/ creates', () => {
    expect(issueCodes.filter((f) => !(f.code in ISSUE_CODES)).map((f) => `${f.code} (${f.where})`)).toEqual([]);
  });

  it('lists no code that src/ never creates', () => {
    const created = new Set([...envelopeCodes, ...issueCodes].map((f) => f.code));
    const issueCreated = new Set(issueCodes.map((f) => f.code));
    expect(Object.keys(ERROR_CODES).filter((code) => !created.has(code))).toEqual([]);
    expect(Object.keys(ISSUE_CODES).filter((code) => !issueCreated.has(code))).toEqual([]);
  });

  it('documents an error response for every status, naming each of its codes', () => {
    for (const [code, { status }] of Object.entries(ERROR_CODES)) {
      const response = (commonErrorResponses as Record<number, { description: string } | undefined>)[status];
      expect(response?.description, `${code} (${status})`).toContain(`\`${code}\``);
    }
  });
});

describe('messages', () => {
  it('put the right article before the entity of a refused transition', () => {
    expect(invalidTransition('invoice', 'Paid', 'void').message).toBe('cannot void an invoice in state Paid');
    expect(invalidTransition('subscription', 'Cancelled', 'pause').message).toBe('cannot pause a subscription in state Cancelled');
  });
});
