/**
 * Keeps the dependency direction of the layers true by reading every import of the code: static
 * imports, `export … from`, dynamic `import()` and `import('…')` types, parsed with the TypeScript
 * compiler (so comments, strings and multi-line imports cannot fool it). The layers and their rules
 * are described in docs/architecture.md ("Layers and folders"); each violation is printed as
 * "file → import (rule)".
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
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
const COMPOSITION_ROOTS = new Set(['src/main.ts', 'src/worker.ts', 'src/startup.ts', 'src/reactions.ts']);

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
  if (/^workflows\/[^/]+\/messages\.ts$/.test(path)) return 'messages';
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

/** The Temporal SDK's packages: the services reach Temporal through src/temporal only. */
const TEMPORAL_PACKAGES = ['@temporalio/client', '@temporalio/common', '@temporalio/workflow', '@temporalio/activity', '@temporalio/worker', '@temporalio/proto', '@temporalio/testing'];

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
    says: 'src/temporal imports only src/core, the foundation, the workflow messages and src/temporal',
  },
  processor: {
    layers: ['processor', 'core', 'foundation'],
    says: 'src/processor (the payment processor client) imports only src/core, the foundation and its SDK',
  },
  services: {
    layers: ['services', 'db', 'generated', 'temporal', 'processor', 'schemas', 'core', 'foundation'],
    forbiddenPackages: TEMPORAL_PACKAGES,
    says: 'src/services reach Temporal only through its gateway (src/temporal: the workflows\' modules, their types in src/temporal/messages.ts): never the Temporal SDK, workflows/ (messages included), src/http, activities/ or a composition root',
  },
  activities: {
    layers: ['activities', 'services', 'temporal', 'schemas', 'core', 'foundation', 'messages'],
    typesFrom: ['processor'],
    forbiddenPackages: DATABASE_PACKAGES,
    says: 'activities/ import services, src/temporal, the foundation and the workflow messages, never src/db or the Prisma client',
  },
  http: {
    layers: ['http', 'services', 'schemas', 'core', 'foundation', 'messages'],
    forbiddenPackages: DATABASE_PACKAGES,
    says: 'src/http imports services, src/schemas, src/core, the foundation and the workflow messages, never src/db, src/temporal, the Prisma client, activities/ or workflow code',
  },
  messages: {
    layers: ['messages', 'core'],
    // @temporalio/common: the search attribute keys (the workflow package itself runs on it in the bundle).
    packages: ['@temporalio/workflow', '@temporalio/common'],
    says: 'workflows/<name>/messages import only @temporalio/workflow, @temporalio/common, other messages and src/core',
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
    says: 'composition roots (src/main.ts, src/worker.ts, src/startup.ts, src/reactions.ts, src/dev/) never import scripts/ or bench/',
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
  if (layer === undefined) return [`${file} → (no layer) (every scanned file belongs to a layer: add its folder to layerOf and docs/architecture.md)`];
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

/** The names a file imports from relative modules (a namespace or default import reads as `*`). */
function namedImportsOf(file: string): { specifier: string; name: string }[] {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
  return source.statements.flatMap((statement) => {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier) || !statement.moduleSpecifier.text.startsWith('.')) return [];
    const specifier = statement.moduleSpecifier.text;
    const bindings = statement.importClause?.namedBindings;
    if (bindings === undefined || !ts.isNamedImports(bindings)) return [{ specifier, name: '*' }];
    return bindings.elements.map((element) => ({ specifier, name: (element.propertyName ?? element.name).text }));
  });
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

  it('leaves the Temporal client to the gateway: services call the workflows\' modules, never deps.temporal.client', () => {
    const reaching = files.filter((file) => file.startsWith('src/services/') && /\btemporal\.(client|connection)\b/.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(reaching).toEqual([]);
  });

  it('lets the services reach src/temporal only through the gateway: gateway.ts, messages.ts, follow-ups.ts and the workflows\' modules', () => {
    const GATEWAY = /^src\/temporal\/(gateway\.ts|messages\.ts|follow-ups\.ts|workflows\/)/;
    const bypassing = files
      .filter((file) => file.startsWith('src/services/'))
      .flatMap((file) => importsOf(file, readFileSync(join(ROOT, file), 'utf8')).map(({ specifier }) => [file, specifier.startsWith('.') ? resolveImport(file, specifier) : undefined] as const))
      .filter(([, target]) => target?.startsWith('src/temporal/') && !GATEWAY.test(target))
      .map(([file, target]) => `${file} → ${target}`);
    expect(bypassing).toEqual([]);
  });

  it('leaves the invoice workflows to the workflows whose activities need them: activities import no invoice workflow start, update or payment update (issue 29)', () => {
    // The billing activities hand the start and the finalize back as follow-ups (ensureInvoiceWorkflow,
    // finalizeThroughWorkflow collect them); moveInvoice and retryInvoiceMove are the API's updates. The
    // dunning and processor-event activities hand a payment back (askInvoicePayment); runInvoicePayment is
    // the API's `invoicePayment` update.
    const DRIVING: Record<string, readonly string[] | 'all'> = {
      'src/temporal/workflows/invoice.ts': 'all',
      'src/services/invoicing/invoice-workflows.ts': ['moveInvoice', 'retryInvoiceMove'],
      'src/services/payments/invoice-payments.ts': ['runInvoicePayment'],
    };
    const drivingImports = (from: readonly string[]) =>
      from
        .flatMap((file) => namedImportsOf(file).map(({ specifier, name }) => ({ file, target: resolveImport(file, specifier), name })))
        .filter(({ target, name }) => target !== undefined && target in DRIVING && (DRIVING[target] === 'all' || DRIVING[target]!.includes(name)))
        .map(({ file, target, name }) => `${file} → ${target} ${name}`);
    expect(drivingImports(files.filter((file) => file.startsWith('activities/')))).toEqual([]);
    // Nor do the services that are the dunning and processor-event workflows' activities (their retries and notifications).
    expect(drivingImports(['src/services/payments/dunning.ts', 'src/services/payments/notifications.ts'])).toEqual([]);
  });

  it('leaves the test-clock drive to the advance workflow: only the driveTestClock activity, kept for runs recorded before patch test-clock-advance-driven-by-workflow, sends the clock update (issue 29)', () => {
    // The advance workflow signals the clock's workflows from its batch children; its activities plan,
    // read next wakes by query and write progress. The update drive (clockDrivenWorkflow) is driveTestClock's alone.
    const DRIVE = 'src/temporal/workflows/test-clock-advance.ts';
    const SERVICE = 'src/services/subscriptions/test-clocks.ts';
    const importers = files
      .filter((file) => namedImportsOf(file).some(({ specifier, name }) => resolveImport(file, specifier) === DRIVE && (name === 'clockDrivenWorkflow' || name === '*')))
      .filter((file) => !file.startsWith('test/'));
    expect(importers).toEqual([SERVICE]);
    // Within the service, only the old drive's functions call it.
    const source = ts.createSourceFile(SERVICE, readFileSync(join(ROOT, SERVICE), 'utf8'), ts.ScriptTarget.Latest, true);
    const callers = new Set<string>();
    const visit = (node: ts.Node, inFunction: string | undefined): void => {
      const name = ts.isFunctionDeclaration(node) && node.name ? node.name.text : inFunction;
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'clockDrivenWorkflow') callers.add(name ?? '(top level)');
      ts.forEachChild(node, (child) => visit(child, name));
    };
    visit(source, undefined);
    expect([...callers].sort()).toEqual(['driveInLockstep', 'driveTestClock']);
    // And no activity but driveTestClock's module reaches the old drive.
    const driveImporters = files.filter((file) => file.startsWith('activities/') && namedImportsOf(file).some(({ specifier, name }) => resolveImport(file, specifier) === SERVICE && name === 'driveTestClock'));
    expect(driveImporters).toEqual(['activities/test-clocks.ts']);
  });

  it('leaves the workflows a scheduled run or a contract step starts to the workflow that runs it: no gateway start in activities or the services they run (issue 29)', () => {
    // The contract step, the contract reconciler, the daily dunning check and the late-usage
    // corrections hand their starts back as follow-ups (start_contract, start_dunning,
    // start_processor_event, start_invoice): the gateway starts are the API's, run through followUp.
    const STARTS: Record<string, readonly string[]> = {
      'src/temporal/workflows/contract.ts': ['startContractWorkflow'],
      'src/temporal/workflows/dunning.ts': ['startDunningWorkflowRun'],
      'src/temporal/workflows/processor-event.ts': ['startProcessorEventWorkflow'],
      'src/temporal/workflows/invoice.ts': ['startInvoiceWorkflow', 'moveInvoiceWorkflow'],
    };
    const RUN_BY_THOSE_ACTIVITIES = ['src/services/contracts/lifecycle.ts', 'src/services/contracts/reconcile.ts', 'src/services/payments/dunning.ts', 'src/services/billing/late-usage.ts'];
    const importers = files.filter((file) => file.startsWith('activities/') || RUN_BY_THOSE_ACTIVITIES.includes(file));
    expect(importers).toEqual(expect.arrayContaining(RUN_BY_THOSE_ACTIVITIES));
    const starting = importers
      .flatMap((file) => namedImportsOf(file).map(({ specifier, name }) => ({ file, target: resolveImport(file, specifier), name })))
      .filter(({ target, name }) => target !== undefined && target in STARTS && (name === '*' || STARTS[target]!.includes(name)))
      .map(({ file, target, name }) => `${file} → ${target} ${name}`);
    expect(starting).toEqual([]);
  });

  it('finds no import pointing up', () => {
    expect(violations, `imports against the layer rules:\n${violations.join('\n')}\n`).toEqual([]);
  });
});

/**
 * The service domains (the folders of src/services), highest first: a folder may import only the
 * folders after it, so the domains form a DAG and each can be read knowing only those below it. The
 * files directly in src/services (deps, audit, outbox, pagination…) are below every folder and
 * import none, except the types of the domains' settings and adapters that src/services/deps.ts
 * names (the shape every service receives). A reaction of a lower domain to a higher one's fact goes
 * through ServiceDeps.reactions (wired in src/reactions.ts), never an import. Type-only imports
 * count too.
 */
export const SERVICE_DOMAIN_ORDER = [
  'operator-views',
  'portal',
  'simulations',
  'reports',
  'documents',
  'accounts',
  'entitlements',
  'contracts',
  'subscriptions',
  'payments',
  'invoicing',
  'alerts',
  'billing',
  'catalog',
  'metering',
  'wallets',
  'ledger',
  'failures',
  'webhooks',
] as const;

/** The domain folder of a file under src/services, '' for a file directly in it, undefined elsewhere. */
function domainOf(path: string): string | undefined {
  if (!path.startsWith('src/services/')) return undefined;
  const rest = path.slice('src/services/'.length);
  return rest.includes('/') ? (rest.split('/')[0] as string) : '';
}

/** The imports of one service file against the domain order, as "file → import (rule)". */
export function domainViolationsOf(file: string, imports: readonly ImportRef[]): string[] {
  const from = domainOf(file);
  if (from === undefined) return [];
  const rank = (domain: string): number => (domain === '' ? SERVICE_DOMAIN_ORDER.length : SERVICE_DOMAIN_ORDER.indexOf(domain as never));
  if (rank(from) < 0) return [`${file} (its folder is not in SERVICE_DOMAIN_ORDER: place it there and in docs/architecture.md)`];
  const violations: string[] = [];
  for (const { specifier, typeOnly } of imports) {
    if (!specifier.startsWith('.') || (file === 'src/services/deps.ts' && typeOnly)) continue;
    const target = resolveImport(file, specifier);
    const to = target === undefined ? undefined : domainOf(target);
    if (to === undefined || to === from) continue;
    if (rank(to) <= rank(from)) violations.push(`${file} → ${target} (src/services/${from || '*.ts'} may import only the domains after it in ${SERVICE_DOMAIN_ORDER.join(' > ')})`);
  }
  return violations;
}

/** The strongly connected groups of more than one domain in the run-time imports between service folders: the cycles. */
export function domainCycles(files: readonly string[], read: (file: string) => string): string[][] {
  const edges = new Map<string, Set<string>>();
  for (const file of files) {
    const from = domainOf(file);
    if (!from) continue;
    for (const { specifier, typeOnly } of importsOf(file, read(file))) {
      const target = specifier.startsWith('.') && !typeOnly ? resolveImport(file, specifier) : undefined;
      const to = target === undefined ? undefined : domainOf(target);
      if (to && to !== from) edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
  }
  // Tarjan's algorithm over the folder graph.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const groups: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (stack.includes(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        group.push(member);
      } while (member !== node);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) visit(node);
  return groups;
}

describe('service domains', () => {
  const files = sourceFiles('src/services').sort();
  const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

  it('lists every service folder in the domain order', () => {
    const folders = new Set(files.map(domainOf).filter((domain): domain is string => !!domain));
    expect([...folders].sort()).toEqual([...SERVICE_DOMAIN_ORDER].sort());
  });

  it('import only the domains below them', () => {
    const violations = files.flatMap((file) => domainViolationsOf(file, importsOf(file, read(file))));
    expect(violations, `imports against the domain order:\n${violations.join('\n')}\n`).toEqual([]);
  });

  it('reach each other in no run-time cycle', () => {
    expect(domainCycles(files, read)).toEqual([]);
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

  it('keeps the services off the Temporal SDK and workflow code: types come through the gateway', () => {
    expect(violationsOf('src/services/payments/dunning.ts', importsOf('dunning.ts', "import type { Client } from '@temporalio/client';"))).toHaveLength(1);
    expect(violationsOf('src/services/payments/dunning.ts', importsOf('dunning.ts', "import type { DunningState } from '../../../workflows/dunning/messages.js';"))).toHaveLength(1);
    expect(violationsOf('src/services/payments/dunning.ts', importsOf('dunning.ts', "import type { DunningState } from '../../temporal/messages.js';"))).toEqual([]);
    expect(violationsOf('src/services/payments/dunning.ts', importsOf('dunning.ts', "import { retryDunningStep } from '../../temporal/workflows/dunning.js';"))).toEqual([]);
  });

  it('reports a service domain importing one above it, and a cycle between domains', () => {
    const upward = "import { noteUsageRecorded } from '../alerts/spend-alerts.js';";
    expect(domainViolationsOf('src/services/metering/events.ts', importsOf('events.ts', upward))).toHaveLength(1);
    expect(domainViolationsOf('src/services/alerts/spend-alerts.ts', importsOf('spend-alerts.ts', "import { currentPeriodSpend } from '../billing/billing.js';"))).toEqual([]);
    const sources: Record<string, string> = {
      'src/services/metering/events.ts': upward,
      'src/services/alerts/spend-alerts.ts': "import { currentPeriodSpend } from '../billing/billing.js';",
      'src/services/billing/billing.ts': "import { quantitiesForPeriod } from '../metering/usage.js';",
    };
    expect(domainCycles(Object.keys(sources), (file) => sources[file] as string)).toEqual([['alerts', 'billing', 'metering']]);
  });

  it("reads a workflow's messages as the messages layer, which imports no workflow code", () => {
    expect(['workflows/invoice/messages.ts', 'workflows/shared/messages.ts', 'workflows/invoice/index.ts'].map(layerOf)).toEqual([
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
