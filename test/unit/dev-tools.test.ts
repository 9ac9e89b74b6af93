/**
 * The tools' plain command names: .tools/bin/temporal and .tools/bin/stripe-mock point at the
 * version in use, so the commands in the docs run with that directory on PATH.
 */
import { spawnSync } from 'node:child_process';
import { chmod, lstat, mkdtemp, readlink, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { linkCommand, STRIPE_MOCK, TEMPORAL_CLI, type ToolSpec } from '../../src/dev/tools.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'dev-tools-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A program standing in for a tool's binary that prints its own file name. */
async function program(name: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, `#!/bin/sh\necho ${name} "$@"\n`);
  await chmod(file, 0o755);
  return file;
}

/** Runs a command by its plain name with only `dir` (and the shell's basics) on PATH. */
const run = (command: string, ...args: string[]) =>
  spawnSync(command, args, { encoding: 'utf8', env: { PATH: `${dir}:/usr/bin:/bin` } }).stdout.trim();

describe('tool links', () => {
  it('make the plain command names run the versioned binaries, as the docs call them', async () => {
    for (const spec of [TEMPORAL_CLI, STRIPE_MOCK]) {
      const versioned = await program(`${spec.command}-${spec.version}`);
      expect(await linkCommand(dir, spec, versioned)).toBe(path.join(dir, spec.command));
      expect(await readlink(path.join(dir, spec.command))).toBe(`${spec.command}-${spec.version}`);
      expect(run(spec.command, '--version')).toBe(`${spec.command}-${spec.version} --version`);
    }
    expect((await readdir(dir)).sort()).toEqual(['stripe-mock', 'stripe-mock-0.203.0', 'temporal', 'temporal-1.5.1']);
  });

  it('are kept when already right, follow a new version, and point outside the directory by absolute path', async () => {
    const old = await program('temporal-1.4.0');
    await linkCommand(dir, TEMPORAL_CLI, old);
    const before = await lstat(path.join(dir, 'temporal'));
    await linkCommand(dir, TEMPORAL_CLI, old);
    expect((await lstat(path.join(dir, 'temporal'))).ino).toBe(before.ino);

    const current = await program('temporal-1.5.1');
    await linkCommand(dir, TEMPORAL_CLI, current);
    expect(run('temporal')).toBe('temporal-1.5.1');

    const elsewhere = await mkdtemp(path.join(tmpdir(), 'dev-tools-cache-'));
    try {
      const cached = path.join(elsewhere, 'stripe-mock-0.203.0');
      await writeFile(cached, '#!/bin/sh\necho cached stripe-mock\n');
      await chmod(cached, 0o755);
      await linkCommand(dir, STRIPE_MOCK, cached);
      expect(await readlink(path.join(dir, 'stripe-mock'))).toBe(cached);
      expect(run('stripe-mock')).toBe('cached stripe-mock');
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
    expect((await readdir(dir)).filter((name) => name.endsWith('.link'))).toEqual([]);
  });

  it('leave a program someone put under the plain name alone', async () => {
    const spec: ToolSpec = { ...TEMPORAL_CLI };
    await program('temporal');
    await linkCommand(dir, spec, await program('temporal-1.5.1'));
    expect((await lstat(path.join(dir, 'temporal'))).isSymbolicLink()).toBe(false);
    expect(run('temporal')).toBe('temporal');
  });
});
