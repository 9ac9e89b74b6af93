/**
 * Keeps the dependency direction of the layers true by reading every import of the code: static
 * imports, `export … from`, dynamic `import()` and `import('…')` types, parsed with the TypeScript
 * compiler (so comments, strings and multi-line imports cannot fool it). The layers and their rules
 * are described in README.md ("Layers and folders"); each violation is printed as
 * "file → import (rule)".
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, resolveImport, ROOT, sourceFiles, type ImportRef } from '../support/source-imports.js';

const SCANNED = ['src', 'activities', 'workflows', 'scripts', 'bench'];

type Layer =
  | 'core'
  | 'schemas'
  | 'foundation'
  | 'generated'
  | 'db'
  | 'temporal'
  | 'processor'
  | 'services'
  | 'http'
  | 'messages'
  | 'workflows'
  | 'activities'
  | 'root'
  | 'tools';

const FOUNDATION = new Set(['src/errors.ts', 'src/ids.ts', 'src/logger.ts', 'src/config.ts']);
const COMPOSITION_ROOTS = new Set(['src/main.ts', 'src/worker.ts', 'src/startup.ts']);

/** The layer of a repository-relative path, or undefined for a file outside every layer. */
function layerOf(path: string): Layer | undefined {
  if (path.startsWith('src/core/')) return 'core';
  if (path.startsWith('src/schemas/')) return 'schemas';
  if (FOUNDATION.has(path)) return 'foundation';
  if (path.startsWith('src/generated/')) return 'generated';
  if (path.startsWith('src/db/')) return 'db';
  if (path.startsWith('src/temporal/')) return 'temporal';
  if (path.startsWith('src/processor/')) return 'processor';
  if (path.startsWith('src/services/')) return 'services';
  if (path.startsWith('src/http/')) return 'http';
  // The messages beside each workflow (workflows/<name>/messages.ts), the shared ones and their barrel.
  if (path === 'workflows/messages.ts' || /^workflows\/[^/]+\/messages\.ts$/.test(path)) return 'messages';
  if (path.startsWith('workflows/')) return 'workflows';
  if (path.startsWith('activities/')) return 'activities';
  if (COMPOSITION_ROOTS.has(path) || path.startsWith('src/dev/')) return 'root';
  if (path.startsWith('scripts/') || path.startsWith('bench/')) return 'tools';
  return undefined;
}

interface Rule {
  /** Layers this layer may import. */
  layers: readonly Layer[];
  /** npm packages (and node: built-ins) it may import; undefined = any. */
  packages?: readonly string[];
  /** Packages it must not import even though `packages` is open. */
  forbiddenPackages?: readonly string[];
  /** Layers it may import types from (erased at compile time), besides `layers`. */
  typesFrom?: readonly Layer[];
  /** Packages it may import types from, besides `packages`. */
  typePackages?: readonly string[];
  /** The rule as printed next to a violation. */
  says: string;
}

/** Database drivers: reached through src/db (and, for now, the services), never from the edges. */
const DATABASE_PACKAGES = ['pg', '@prisma/client', '@prisma/adapter-pg'];

const RULES: Record<Layer, Rule> = {
  core: { layers: ['core'], packages: [], says: 'src/core is pure: it imports only src/core' },
  schemas: {
    layers: ['schemas', 'core'],
    packages: ['zod', '@hono/zod-openapi'],
    says: 'src/schemas imports only zod, @hono/zod-openapi and src/core',
  },
  foundation: { layers: ['foundation', 'core'], says: 'src/errors, ids, logger, config import only each other, src/core and npm packages' },
  generated: { layers: ['generated'], says: 'generated code is not scanned' },
  db: { layers: ['db', 'core', 'foundation', 'generated'], says: 'src/db imports only src/core, the foundation, the generated Prisma client and src/db' },
  temporal: {
    layers: ['temporal', 'core', 'foundation', 'messages'],
    says: 'src/temporal imports only src/core, the foundation, workflows/messages and src/temporal',
  },
  processor: {
    layers: ['processor', 'core', 'foundation'],
    says: 'src/processor (the payment processor client) imports only src/core, the foundation and its SDK',
  },
  services: {
    layers: ['services', 'db', 'generated', 'temporal', 'processor', 'schemas', 'core', 'foundation', 'messages'],
    says: 'src/services never imports src/http, activities/, workflow code (only workflows/messages) or a composition root',
  },
  activities: {
    layers: ['activities', 'services', 'temporal', 'schemas', 'core', 'foundation', 'messages'],
    typesFrom: ['processor'],
    forbiddenPackages: DATABASE_PACKAGES,
    says: 'activities/ import services, src/temporal, the foundation and workflows/messages, never src/db or the Prisma client',
  },
  http: {
    layers: ['http', 'services', 'schemas', 'core', 'foundation', 'messages'],
    forbiddenPackages: DATABASE_PACKAGES,
    says: 'src/http imports services, src/schemas, src/core, the foundation and workflows/messages, never src/db, src/temporal, the Prisma client, activities/ or workflow code',
  },
  messages: {
    layers: ['messages', 'core'],
    // @temporalio/common: the search attribute keys (the workflow package itself runs on it in the bundle).
    packages: ['@temporalio/workflow', '@temporalio/common'],
    says: 'workflows/messages and workflows/<name>/messages import only @temporalio/workflow, @temporalio/common, other messages and src/core',
  },
  workflows: {
    layers: ['workflows', 'messages', 'core'],
    packages: ['@temporalio/workflow'],
    typePackages: ['@temporalio/common'],
    // proxyActivities takes the activities' signatures; a type import is erased from the bundle.
    typesFrom: ['activities'],
    says: 'workflows/ import only @temporalio/workflow (@temporalio/common types), workflows/, src/core and activity types',
  },
  root: {
    layers: ['root', 'core', 'schemas', 'foundation', 'generated', 'db', 'temporal', 'processor', 'services', 'http', 'messages', 'workflows', 'activities'],
    says: 'composition roots (src/main.ts, src/worker.ts, src/startup.ts, src/dev/) never import scripts/ or bench/',
  },
  tools: {
    layers: ['tools', 'root', 'core', 'schemas', 'foundation', 'generated', 'db', 'temporal', 'processor', 'services', 'http', 'messages', 'workflows', 'activities'],
    says: 'scripts/ and bench/ may import anything',
  },
};

/** The npm package (or node: built-in) a bare specifier names. */
const packageOf = (specifier: string): string =>
  specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : (specifier.split('/')[0] as string);

/** The violations of one file's imports, as "file → import (rule)". */
export function violationsOf(file: string, imports: readonly ImportRef[]): string[] {
  const layer = layerOf(file);
  if (layer === undefined) return [`${file} → (no layer) (every scanned file belongs to a layer: add its folder to layerOf and the README)`];
  const rule = RULES[layer];
  const violations: string[] = [];
  for (const { specifier, typeOnly } of imports) {
    if (specifier.startsWith('.')) {
      const target = resolveImport(file, specifier);
      if (target === undefined) {
        violations.push(`${file} → ${specifier} (the import names no source file)`);
        continue;
      }
      const targetLayer = layerOf(target);
      const allowed =
        targetLayer !== undefined && (rule.layers.includes(targetLayer) || (typeOnly && (rule.typesFrom ?? []).includes(targetLayer)));
      if (!allowed) violations.push(`${file} → ${target} (${rule.says})`);
    } else if (specifier.startsWith('<computed')) {
      violations.push(`${file} → ${specifier} (imports must name their module literally)`);
    } else {
      const name = packageOf(specifier);
      const open = rule.packages === undefined || rule.packages.includes(name) || (typeOnly && (rule.typePackages ?? []).includes(name));
      if (!open || (rule.forbiddenPackages ?? []).includes(name)) violations.push(`${file} → ${specifier} (${rule.says})`);
    }
  }
  return violations;
}

describe('import direction', () => {
  const files = SCANNED.flatMap(sourceFiles).sort();
  const violations = files.flatMap((file) => violationsOf(file, importsOf(file, readFileSync(join(ROOT, file), 'utf8'))));

  it('scans the code of every layer', () => {
    const layers = new Set(files.map(layerOf));
    for (const layer of ['core', 'schemas', 'foundation', 'db', 'temporal', 'services', 'http', 'messages', 'workflows', 'activities', 'root', 'tools'] as const) {
      expect(layers, layer).toContain(layer);
    }
  });

  it('finds no import pointing up', () => {
    expect(violations, `imports against the layer rules:\n${violations.join('\n')}\n`).toEqual([]);
  });
});

describe('the import reader', () => {
  it('reads static, re-exported, dynamic, type-position and multi-line imports, and tells type-only ones apart', () => {
    const source = `
      // import { fake } from '../http/commented.js';
      const text = "import { alsoFake } from '../http/string.js'";
      import type { A } from './a.js';
      import { type B, type C } from './b.js';
      import D, { type E } from './d.js';
      import {
        F,
      } from './f.js';
      import './side-effect.js';
      export { G } from './g.js';
      export type { H } from './h.js';
      type I = import('./i.js').I;
      const j = await import('./j.js');
    `;
    expect(importsOf('x.ts', source)).toEqual([
      { specifier: './a.js', typeOnly: true },
      { specifier: './b.js', typeOnly: true },
      { specifier: './d.js', typeOnly: false },
      { specifier: './f.js', typeOnly: false },
      { specifier: './side-effect.js', typeOnly: false },
      { specifier: './g.js', typeOnly: false },
      { specifier: './h.js', typeOnly: true },
      { specifier: './i.js', typeOnly: true },
      { specifier: './j.js', typeOnly: false },
    ]);
  });

  it('reports an upward import, a forbidden package and a value import where only types may come', () => {
    expect(violationsOf('src/services/health.ts', importsOf('health.ts', "import type { AppEnv } from '../http/context.js';"))).toEqual([
      `src/services/health.ts → src/http/context.ts (${RULES.services.says})`,
    ]);
    expect(violationsOf('src/core/money.ts', importsOf('money.ts', "import { readFileSync } from 'node:fs';"))).toEqual([
      `src/core/money.ts → node:fs (${RULES.core.says})`,
    ]);
    expect(violationsOf('workflows/invoice.ts', importsOf('invoice.ts', "import { createActivities } from '../activities/index.js';"))).toEqual([
      `workflows/invoice.ts → activities/index.ts (${RULES.workflows.says})`,
    ]);
    expect(violationsOf('workflows/invoice.ts', importsOf('invoice.ts', "import type { createActivities } from '../activities/index.js';"))).toEqual([]);
  });

  it("reads a workflow's messages as the messages layer, which imports no workflow code", () => {
    expect(['workflows/messages.ts', 'workflows/invoice/messages.ts', 'workflows/shared/messages.ts', 'workflows/invoice/index.ts'].map(layerOf)).toEqual([
      'messages',
      'messages',
      'messages',
      'workflows',
    ]);
    expect(violationsOf('workflows/invoice/messages.ts', importsOf('messages.ts', "import type { SubscriptionCommand } from '../shared/messages.js';"))).toEqual([]);
    expect(violationsOf('workflows/invoice/messages.ts', importsOf('messages.ts', "import { Mutex } from '../mutex.js';"))).toEqual([
      `workflows/invoice/messages.ts → workflows/mutex.ts (${RULES.messages.says})`,
    ]);
  });
});
