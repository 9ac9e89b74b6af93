/**
 * Guards the rules of the pure core by reading its source: no floating-point arithmetic on money,
 * no clock or randomness, no Node built-ins or I/O (workflow code imports src/core), and only
 * relative ESM imports with '.js' extensions.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CORE_DIR = fileURLToPath(new URL('../../../src/core/', import.meta.url));

/** Removes comments, keeping string and template literals intact (they may contain '//'). */
function stripComments(source: string): string {
  let out = '';
  let i = 0;
  while (i < source.length) {
    const ch = source[i] as string;
    const next = source[i + 1];
    if (ch === '/' && next === '/') {
      while (i < source.length && source[i] !== '\n') i += 1;
    } else if (ch === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      i = end < 0 ? source.length : end + 2;
      out += ' ';
    } else if (ch === "'" || ch === '"' || ch === '`') {
      let j = i + 1;
      while (j < source.length && source[j] !== ch) j += source[j] === '\\' ? 2 : 1;
      out += source.slice(i, j + 1);
      i = j + 1;
    } else {
      out += ch;
      i += 1;
    }
  }
  return out;
}

const MONEY_NAME = String.raw`\w*(?:_nanos|Nanos|[aA]mount)`;
const RULES: { readonly name: string; readonly pattern: RegExp }[] = [
  { name: 'parseFloat', pattern: /\bparseFloat\b/ },
  { name: 'parseInt', pattern: /\bparseInt\b/ },
  { name: 'Number() conversion', pattern: /\bNumber\s*\(/ },
  { name: 'toFixed/toPrecision', pattern: /\.to(?:Fixed|Precision)\s*\(/ },
  { name: 'Math rounding', pattern: /\bMath\s*\.\s*(?:round|floor|ceil|trunc|fround)\b/ },
  { name: 'Math.random', pattern: /\bMath\s*\.\s*random\b/ },
  { name: 'clock', pattern: /\bDate\s*\.\s*now\b|\bnew\s+Date\b|\bDate\s*\(|\bperformance\s*\.\s*now\b/ },
  { name: 'timers', pattern: /\b(?:setTimeout|setInterval|setImmediate)\b/ },
  { name: 'process', pattern: /\bprocess\s*\./ },
  { name: 'require', pattern: /\brequire\s*\(/ },
  { name: 'money typed as number', pattern: new RegExp(String.raw`\b${MONEY_NAME}\??\s*:\s*number\b`) },
  { name: 'money function returning number', pattern: new RegExp(String.raw`\b${MONEY_NAME}\s*\([^)]*\)\s*:\s*number\b`) },
  { name: 'money cast to number', pattern: new RegExp(String.raw`\b${MONEY_NAME}\s+as\s+number\b`) },
];

/** Every violation in one source file, as "rule: line". */
function scan(source: string): string[] {
  const code = stripComments(source);
  const violations: string[] = [];
  for (const rule of RULES) {
    const match = rule.pattern.exec(code);
    if (match) violations.push(`${rule.name}: ${match[0]}`);
  }
  const imports = [
    /^\s*import\s+(?:type\s+)?[\w$*\s{},]*?\bfrom\s*['"]([^'"]+)['"]/gm, // static import
    /^\s*export\s+(?:type\s+)?(?:\*(?:\s+as\s+\w+)?|\{[^}]*\})\s*from\s*['"]([^'"]+)['"]/gm, // re-export
    /^\s*import\s*['"]([^'"]+)['"]/gm, // side-effect import
    /\bimport\s*\(\s*['"]([^'"]+)['"]/g, // dynamic import
  ].flatMap((pattern) => [...code.matchAll(pattern)]);
  for (const match of imports) {
    const specifier = match[1] as string;
    if (!specifier.startsWith('./') || !specifier.endsWith('.js')) violations.push(`import: ${specifier}`);
  }
  return violations;
}

function coreFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return coreFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('pure core source rules', () => {
  const files = coreFiles(CORE_DIR);

  it('finds the core sources', () => {
    expect(files.map((f) => relative(CORE_DIR, f))).toEqual(expect.arrayContaining(['money.ts', 'pricing.ts', 'rating.ts', 'index.ts']));
  });

  it.each(files.map((f) => [relative(CORE_DIR, f), f]))('%s breaks no rule', (_name, path) => {
    expect(scan(readFileSync(path, 'utf8'))).toEqual([]);
  });
});

describe('the scanner itself', () => {
  it.each([
    ['const x = parseFloat(text);', 'parseFloat'],
    ['const n = parseInt(text, 10);', 'parseInt'],
    ['const cents = Number(amount) / 100;', 'Number() conversion'],
    ['return value.toFixed(2);', 'toFixed/toPrecision'],
    ['const r = Math.round(a * b);', 'Math rounding'],
    ['const r = Math . floor(a);', 'Math rounding'],
    ['const r = Math.ceil(a);', 'Math rounding'],
    ['const r = Math.trunc(a);', 'Math rounding'],
    ['const id = Math.random();', 'Math.random'],
    ['const now = Date.now();', 'clock'],
    ['const now = new Date();', 'clock'],
    ['setTimeout(run, 10);', 'timers'],
    ['const env = process.env.X;', 'process'],
    ['interface Line { amount_nanos: number }', 'money typed as number'],
    ['function f(unitAmount?: number) {}', 'money typed as number'],
    ['let totalNanos: number = 0;', 'money typed as number'],
    ['function lineAmount(q: bigint): number {}', 'money function returning number'],
    ['const x = amount as number;', 'money cast to number'],
    ["import { readFileSync } from 'node:fs';", 'import'],
    ["import { roundDiv } from './money';", 'import'],
    ["import fc from 'fast-check';", 'import'],
    ["const m = await import('node:crypto');", 'import'],
    ["export * from 'node:os';", 'import'],
    ["import 'node:fs';", 'import'],
    ["import {\n  a,\n  b,\n} from 'fs';", 'import'],
  ])('flags %j', (source, rule) => {
    expect(scan(source).some((violation) => violation.startsWith(rule))).toBe(true);
  });

  it.each([
    '// Math.round would be wrong here; Date.now() is banned\nconst x = 1n;',
    '/* parseFloat(x) */ const y = 2n;',
    "const url = 'http://example.com'; // and Number(x) in a comment",
    'function f(days: number, bps: number): bigint { return 0n; }',
    'const amount_nanos: bigint = 0n;',
    "import { roundDiv } from './money.js';",
    "import type { Tier } from './pricing.js';",
    "const label = from('from'); const other = 'x';",
    "export function span(from: string): number {\n  return f(from, 'from');\n}",
  ])('accepts %j', (source) => {
    expect(scan(source)).toEqual([]);
  });
});
