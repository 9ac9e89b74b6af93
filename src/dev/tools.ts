/**
 * Gets the external programs the service and its tests run: the Temporal CLI (dev server + Web UI)
 * and stripe-mock. Each is looked up in this order and cached under .tools/bin (git-ignored):
 *   1. already cached in .tools/bin, or in the per-user cache (~/.cache/billing-engine/bin, shared
 *      by every clone on the machine), 2. on PATH, 3. `go install` of the pinned version, 4. the
 *      official release archive. When none works, the error names all three ways.
 * Beside each versioned binary, .tools/bin holds a link under the command's plain name (`temporal`,
 * `stripe-mock`) to the version in use, so `export PATH="$PWD/.tools/bin:$PATH"` makes the commands
 * of the docs work as written.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, readlink, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from './paths.js';

export interface ToolSpec {
  name: string;
  command: string;
  version: string;
  goModule: string;
  releaseUrl: (platform: string, arch: string) => string;
}

export const TEMPORAL_CLI: ToolSpec = {
  name: 'Temporal CLI',
  command: 'temporal',
  version: '1.5.1',
  goModule: 'github.com/temporalio/cli/cmd/temporal',
  releaseUrl: (platform, arch) =>
    `https://github.com/temporalio/cli/releases/download/v1.5.1/temporal_cli_1.5.1_${platform}_${arch}.tar.gz`,
};

export const STRIPE_MOCK: ToolSpec = {
  name: 'stripe-mock',
  command: 'stripe-mock',
  version: '0.203.0',
  goModule: 'github.com/stripe/stripe-mock',
  releaseUrl: (platform, arch) =>
    `https://github.com/stripe/stripe-mock/releases/download/v0.203.0/stripe-mock_0.203.0_${platform}_${arch}.tar.gz`,
};

const TOOLS_DIR = path.join(PROJECT_ROOT, '.tools');
const BIN_DIR = path.join(TOOLS_DIR, 'bin');
const USER_CACHE_DIR = path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'billing-engine', 'bin');

type Progress = (message: string) => void;

function onPath(command: string): string | undefined {
  const found = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  const resolved = found.stdout.trim();
  return found.status === 0 && resolved ? resolved : undefined;
}

function runStreaming(command: string, args: string[], env: NodeJS.ProcessEnv, progress: Progress): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let lines = 0;
    let tail = '';
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      tail = (tail + text).slice(-2_000);
      for (const line of text.split('\n').filter(Boolean)) {
        lines += 1;
        if (lines % 25 === 0) progress(`  … ${lines} build steps (${line.trim().slice(0, 80)})`);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}: ${tail.trim()}`))));
  });
}

async function goInstall(spec: ToolSpec, target: string, progress: Progress): Promise<void> {
  const go = onPath('go');
  if (!go) throw new Error('go is not on PATH');
  const gobin = await mkdtemp(path.join(os.tmpdir(), 'billing-gobin-'));
  try {
    progress(`building ${spec.name} v${spec.version} with go install (the first build takes a few minutes)`);
    await runStreaming(go, ['install', '-v', `${spec.goModule}@v${spec.version}`], { ...process.env, GOBIN: gobin, CGO_ENABLED: '0' }, progress);
    await copyFile(path.join(gobin, path.basename(spec.goModule)), target);
  } finally {
    await rm(gobin, { recursive: true, force: true });
  }
}

async function download(spec: ToolSpec, target: string, progress: Progress): Promise<void> {
  const platform = process.platform === 'darwin' ? 'darwin' : 'linux';
  const arch = process.arch === 'arm64' ? 'arm64' : 'amd64';
  const url = spec.releaseUrl(platform, arch);
  progress(`downloading ${spec.name} v${spec.version} from ${url}`);
  const response = await fetch(url, { signal: AbortSignal.timeout(120_000) });
  if (!response.ok) throw new Error(`HTTP ${response.status} for ${url}`);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'billing-download-'));
  try {
    const archive = path.join(dir, 'archive.tar.gz');
    await writeFile(archive, Buffer.from(await response.arrayBuffer()));
    const untar = spawnSync('tar', ['-xzf', archive, '-C', dir], { encoding: 'utf8' });
    if (untar.status !== 0) throw new Error(`cannot unpack ${url}: ${untar.stderr}`);
    await copyFile(path.join(dir, spec.command), target);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Points `<binDir>/<command>` at `binary` (the version in use), replacing a link to another version
 * in one rename, so the plain command name works with binDir on PATH. Leaves a regular file of that
 * name alone (someone put their own there).
 */
export async function linkCommand(binDir: string, spec: ToolSpec, binary: string): Promise<string> {
  const link = path.join(binDir, spec.command);
  // Relative within binDir (e.g. temporal → temporal-1.5.1), so a moved checkout keeps working.
  const target = path.dirname(path.resolve(binary)) === path.resolve(binDir) ? path.basename(binary) : binary;
  const current = await readlink(link).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? null : err.code === 'EINVAL' ? undefined : Promise.reject(err)));
  if (current === undefined || current === target) return link;
  const staged = `${link}.${process.pid}.link`;
  await rm(staged, { force: true });
  await symlink(target, staged);
  await rename(staged, link);
  return link;
}

/** Returns the path of a working binary for the tool, getting it the first time. */
export async function ensureTool(spec: ToolSpec, progress: Progress = () => {}): Promise<string> {
  const { binary, onPath: fromPath } = await findOrGetTool(spec, progress);
  // A tool found on PATH already answers to its plain name. Placing the link is a convenience for
  // people: failing to place it never stops the service.
  if (!fromPath) {
    const versioned = path.join(BIN_DIR, `${spec.command}-${spec.version}`);
    await linkCommand(BIN_DIR, spec, existsSync(versioned) ? versioned : binary).catch(() => {});
  }
  return binary;
}

async function findOrGetTool(spec: ToolSpec, progress: Progress): Promise<{ binary: string; onPath: boolean }> {
  const fileName = `${spec.command}-${spec.version}`;
  const local = path.join(BIN_DIR, fileName);
  if (existsSync(local)) return { binary: local, onPath: false };
  await mkdir(BIN_DIR, { recursive: true });
  const shared = path.join(USER_CACHE_DIR, fileName);
  if (existsSync(shared)) {
    await symlink(shared, local).catch(() => {});
    return { binary: shared, onPath: false };
  }
  const fromPath = onPath(spec.command);
  if (fromPath) return { binary: fromPath, onPath: true };

  await mkdir(USER_CACHE_DIR, { recursive: true });
  const partial = `${shared}.${process.pid}.partial`;
  const failures: string[] = [];
  for (const [how, get] of [
    ['go install', goInstall],
    ['release download', download],
  ] as const) {
    try {
      await get(spec, partial, progress);
      await chmod(partial, 0o755);
      await rename(partial, shared);
      await symlink(shared, local).catch(() => {});
      progress(`${spec.name} ready at ${shared}`);
      return { binary: shared, onPath: false };
    } catch (err) {
      await rm(partial, { force: true });
      failures.push(`${how}: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  throw new Error(
    `cannot get ${spec.name} v${spec.version}: not on PATH as "${spec.command}"; ${failures.join('; ')}. ` +
      `Install it on PATH, install Go (to build ${spec.goModule}@v${spec.version}), or allow the download.`,
  );
}
