/**
 * Guards the rules of the pure core by reading its source: no floating point at all (no float
 * literals, no float parsing or formatting, no Math on values), no clock or randomness, no Node
 * built-ins or I/O (workflow code imports src/core), and only relative ESM imports with '.js'
 * extensions. The only exceptions are the reviewed snippets of ALLOWED, all on integer day counts.
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

/**
 * Replaces the text of string and template literals with spaces (a template's `${…}` code is
 * kept), so messages such as "12.5" or 'Number(x)' are not read as code.
 */
function blankStrings(code: string): string {
  let out = '';
  let i = 0;
  const quoted = (quote: string): void => {
    out += quote;
    i += 1;
    while (i < code.length && code[i] !== quote) {
      const width = code[i] === '\\' ? 2 : 1;
      out += ' '.repeat(width);
      i += width;
    }
    out += code[i] ?? '';
    i += 1;
  };
  const template = (): void => {
    out += '`';
    i += 1;
    while (i < code.length && code[i] !== '`') {
      if (code[i] === '\\') {
        out += '  ';
        i += 2;
      } else if (code[i] === '$' && code[i + 1] === '{') {
        out += '${';
        i += 2;
        let depth = 1;
        while (i < code.length && depth > 0) {
          const ch = code[i] as string;
          if (ch === "'" || ch === '"') quoted(ch);
          else if (ch === '`') template();
          else {
            if (ch === '{') depth += 1;
            if (ch === '}') depth -= 1;
            out += ch;
            i += 1;
          }
        }
      } else {
        out += ' ';
        i += 1;
      }
    }
    out += code[i] ?? '';
    i += 1;
  };
  while (i < code.length) {
    const ch = code[i] as string;
    if (ch === "'" || ch === '"') quoted(ch);
    else if (ch === '`') template();
    else {
      out += ch;
      i += 1;
    }
  }
  return out;
}

/**
 * Reviewed exceptions to RULES: exact snippets allowed in one core file. Each one works on integer
 * day counts, never on money or quantities. An entry must occur in its file exactly once, so a
 * stale or widened exception fails the test instead of silently allowing more.
 */
const ALLOWED: readonly { readonly file: string; readonly snippet: string; readonly why: string }[] = [
  { file: 'periods.ts', snippet: 'Math.min(anchorDay, daysInMonth(targetYear, targetMonth))', why: 'anchor day clamped to the month length, 1..31' },
  { file: 'proration.ts', snippet: "Math.min(range.end, dayNumber(contractEnd, 'contract_end'))", why: 'the earlier of two day numbers' },
];

const MONEY_NAME = String.raw`\w*(?:_nanos|Nanos|[aA]mount)`;
const RULES: { readonly name: string; readonly pattern: RegExp }[] = [
  { name: 'parseFloat', pattern: /\bparseFloat\b/ },
  { name: 'parseInt', pattern: /\bparseInt\b/ },
  { name: 'Number() conversion', pattern: /\bNumber\s*\(/ },
  { name: 'toFixed/toPrecision', pattern: /\.to(?:Fixed|Precision)\s*\(/ },
  { name: 'Math rounding', pattern: /\bMath\s*\.\s*(?:round|floor|ceil|trunc|fround)\b/ },
  { name: 'Math.random', pattern: /\bMath\s*\.\s*random\b/ },
  // Any other Math helper works on floats too (min, max, abs, pow, sqrt…): allowed only via ALLOWED.
  { name: 'Math on values', pattern: /\bMath\s*\.\s*[A-Za-z]/ },
  // 0.9, .5, 1., 2.5e-3, 1e3, 1_000.25: a float literal has no place in exact arithmetic.
  { name: 'float literal', pattern: /(?<![\w$])(?:\d[\d_]*\.\d*(?:[eE][+-]?\d+)?|\.\d[\d_]*(?:[eE][+-]?\d+)?|\d[\d_]*[eE][+-]?\d+)(?![\w$])/ },
  { name: 'clock', pattern: /\bDate\s*\.\s*now\b|\bnew\s+Date\b|\bDate\s*\(|\bperformance\s*\.\s*now\b/ },
  { name: 'timers', pattern: /\b(?:setTimeout|setInterval|setImmediate)\b/ },
  { name: 'process', pattern: /\bprocess\s*\./ },
  { name: 'require', pattern: /\brequire\s*\(/ },
  { name: 'money typed as number', pattern: new RegExp(String.raw`\b${MONEY_NAME}\??\s*:\s*number\b`) },
  { name: 'money function returning number', pattern: new RegExp(String.raw`\b${MONEY_NAME}\s*\([^)]*\)\s*:\s*number\b`) },
  { name: 'money cast to number', pattern: new RegExp(String.raw`\b${MONEY_NAME}\s+as\s+number\b`) },
];

/** Every violation in one source file, as "rule: match". `file` selects its ALLOWED snippets. */
function scan(source: string, file?: string): string[] {
  let code = stripComments(source);
  for (const allowed of ALLOWED) if (allowed.file === file) code = code.split(allowed.snippet).join(' ');
  const violations: string[] = [];
  const bare = blankStrings(code);
  for (const rule of RULES) {
    // Import specifiers are strings, so the rules below read the code with string text blanked.
    const match = rule.pattern.exec(bare);
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

  it.each(files.map((f) => [relative(CORE_DIR, f), f]))('%s breaks no rule', (name, path) => {
    expect(scan(readFileSync(path, 'utf8'), name)).toEqual([]);
  });

  it.each(ALLOWED.map((allowed) => [allowed.file, allowed.snippet]))('the %s exception %j is still used, exactly once', (file, snippet) => {
    const code = stripComments(readFileSync(join(CORE_DIR, file), 'utf8'));
    expect(code.split(snippet)).toHaveLength(2);
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
    ['const ratio = 0.9;', 'float literal'],
    ['const k = x * 1e3;', 'float literal'],
    ['const k = x * 1E6;', 'float literal'],
    ['const half = .5;', 'float literal'],
    ['const tiny = 2.5e-3;', 'float literal'],
    ['const t = 1_000.25;', 'float literal'],
    ['const t = 3.;', 'float literal'],
    ['const label = `${0.5 * n} units`;', 'float literal'],
    ['const big = Math.max(a, b);', 'Math on values'],
    ['const p = Math.pow(1.05, n);', 'Math on values'],
    ['const n = Number("12");', 'Number() conversion'],
    ['const a = toFixed(x), b = y.toFixed(2);', 'toFixed/toPrecision'],
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
    'const scaled = 10n ** 12n; const n = 86_400_000; const h = 0x1e3;',
    "const message = 'a decimal string such as \"12.5\" or 1e3, not Number(x)';",
    'const text = `${whole}.${fraction}%`;',
    'const version = a1e3 + obj.e3 + x.toString();',
    String.raw`const PATTERN = /^-?[0-9]+(?:\.[0-9]+)?$/;`,
    'const last = tiers[0].up_to; const m = Math_min;',
    '// a ratio of 0.5 in a comment\nconst half = 1n;',
  ])('accepts %j', (source) => {
    expect(scan(source)).toEqual([]);
  });

  it('allows a reviewed snippet only in its own file, and only that snippet', () => {
    const periods = 'const day = Math.min(anchorDay, daysInMonth(targetYear, targetMonth));';
    expect(scan(periods, 'periods.ts')).toEqual([]);
    expect(scan(periods, 'pricing.ts')).toEqual(['Math on values: Math.m']);
    expect(scan(`${periods}\nconst x = Math.min(a, b);`, 'periods.ts')).toEqual(['Math on values: Math.m']);
  });
});
