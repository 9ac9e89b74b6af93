/**
 * Replays a Dockerfile's build without Docker or a registry, for test/unit/dockerfile.test.ts.
 *
 * Every stage gets a scratch folder standing for its file system. COPY copies from the build context
 * (the files a clone of the repository has, minus what .dockerignore leaves out) or from an earlier
 * stage, with Docker's rules for directories and destinations; WORKDIR, ENV, USER, CMD and
 * HEALTHCHECK are recorded; RUN runs its commands with `sh -c` in the stage's working directory.
 * `npm ci` is the one command replaced, because it needs the registry: it lays out node_modules as
 * links to the packages already installed here, choosing them from the copied package-lock.json with
 * npm's own --omit rules, and then runs the root package's install scripts as npm would. So a RUN
 * step that reads a file the Dockerfile has not copied yet fails here as it fails in `docker build`.
 *
 * node_modules entries are links into the installed packages: RUN steps may remove entries (that
 * removes the link) but must not write inside packages, which no image build should do either.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, lstatSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';

export interface Instruction {
  keyword: string;
  args: string;
  /** 1-based line of the instruction's first line. */
  line: number;
}

export interface HealthCheck {
  options: Record<string, string>;
  /** Exec form as given; shell form as ['/bin/sh', '-c', text]. */
  command: string[];
}

export interface BuiltStage {
  name: string | undefined;
  base: string;
  /** The scratch folder standing for the stage's `/`. */
  root: string;
  workdir: string;
  env: Record<string, string>;
  user: string | undefined;
  cmd: string[] | undefined;
  healthcheck: HealthCheck | undefined;
  exposed: string[];
}

export interface BuildOptions {
  dockerfile: string;
  /** The build context: the repository's root. */
  context: string;
  /** Relative paths of the files in the context, after .dockerignore (see contextFiles). */
  files: ReadonlySet<string>;
  /** Where `npm ci` finds installed packages (the checkout's node_modules). */
  installedModules: string;
  /** An empty folder the stages are built in. */
  scratch: string;
}

export class DockerBuildError extends Error {
  override readonly name = 'DockerBuildError';
}

/** Instructions with continuation lines joined and comments dropped (parser directives are comments too). */
export function parseDockerfile(text: string): Instruction[] {
  const instructions: Instruction[] = [];
  const lines = text.split('\n');
  let pending: { text: string; line: number } | undefined;
  lines.forEach((raw, index) => {
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const continued = trimmed.endsWith('\\');
    const part = continued ? trimmed.slice(0, -1).trim() : trimmed;
    pending = pending ? { text: `${pending.text} ${part}`, line: pending.line } : { text: part, line: index + 1 };
    if (continued) return;
    const match = /^(\S+)\s*(.*)$/.exec(pending.text)!;
    instructions.push({ keyword: match[1]!.toUpperCase(), args: match[2]!, line: pending.line });
    pending = undefined;
  });
  if (pending) throw new DockerBuildError(`line ${pending.line}: the last instruction ends with a continuation`);
  return instructions;
}

/** A .dockerignore pattern as a regular expression over slash-separated relative paths. */
function patternRegex(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i += 1) {
    const char = pattern[i]!;
    if (char === '*' && pattern[i + 1] === '*') {
      const slash = pattern[i + 2] === '/';
      source += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** Whether .dockerignore's rules leave a path out: a rule matching the path or a folder above it; the last match decides. */
export function dockerIgnores(rules: string, relativePath: string): boolean {
  const candidates = relativePath.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'));
  let ignored = false;
  for (const raw of rules.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const negated = line.startsWith('!');
    const pattern = path.posix.normalize((negated ? line.slice(1) : line).trim().replace(/^\/+/, ''));
    const regex = patternRegex(pattern);
    if (candidates.some((candidate) => regex.test(candidate))) ignored = !negated;
  }
  return ignored;
}

/** The files `docker build` sends from a clone of the repository: tracked and new unignored files, minus .dockerignore. */
export function contextFiles(context: string): Set<string> {
  const listed = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: context, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  const ignoreFile = path.join(context, '.dockerignore');
  const rules = existsSync(ignoreFile) ? readFileSync(ignoreFile, 'utf8') : '';
  const files = listed.stdout
    .split('\0')
    .filter((file) => file !== '' && existsSync(path.join(context, file)))
    .filter((file) => !dockerIgnores(rules, file));
  return new Set(files);
}

const COPY_FLAGS = /^--(from|chown|chmod)=\S+$|^--link$/;

/** Words of an exec-form (JSON array) or plain whitespace-separated argument list. */
function words(args: string, where: string): string[] {
  if (args.startsWith('[')) return JSON.parse(args) as string[];
  if (/["'$]/.test(args)) throw new DockerBuildError(`${where}: quotes and variables are not replayed here; write the arguments plainly`);
  return args.split(/\s+/).filter(Boolean);
}

/** npm's rule for leaving a locked package out (arborist's Node#shouldOmit). */
function omitted(entry: LockEntry, omit: ReadonlySet<string>): boolean {
  return (
    (entry.peer === true && omit.has('peer')) ||
    (entry.dev === true && omit.has('dev')) ||
    (entry.optional === true && omit.has('optional')) ||
    (entry.devOptional === true && omit.has('dev') && omit.has('optional'))
  );
}

interface LockEntry {
  dev?: boolean;
  optional?: boolean;
  devOptional?: boolean;
  peer?: boolean;
  bin?: Record<string, string>;
}

const NPM_CI_FLAGS = /^--(omit|include)=(dev|optional|peer)$|^--(production|ignore-scripts|no-audit|no-fund|prefer-offline|offline|no-update-notifier)$|^--loglevel=\w+$/;
/** The root package's scripts `npm ci` runs, in npm's order. */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepublish', 'preprepare', 'prepare', 'postprepare'];

function run(command: string, cwd: string, env: Record<string, string>, where: string): void {
  // What a build step sees: the stage's ENV and a PATH, not this test process's variables (NODE_ENV=test).
  const base = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root' };
  const result = spawnSync('sh', ['-c', command], { cwd, env: { ...base, ...env }, encoding: 'utf8' });
  if (result.status !== 0) {
    const output = `${result.stdout}\n${result.stderr}`.trim().split('\n').slice(-60).join('\n');
    throw new DockerBuildError(`${where}: \`${command}\` exited with ${result.status ?? result.signal}:\n${output}`);
  }
}

/** `npm ci` from the packages installed here instead of the registry (see the file's comment). */
function npmCi(argv: string[], cwd: string, env: Record<string, string>, installedModules: string, where: string): void {
  const unknown = argv.filter((flag) => !NPM_CI_FLAGS.test(flag));
  if (unknown.length > 0) throw new DockerBuildError(`${where}: npm ci ${unknown.join(' ')} is not replayed here; teach test/support/docker-build.ts`);
  for (const required of ['package.json', 'package-lock.json']) {
    if (!existsSync(path.join(cwd, required))) throw new DockerBuildError(`${where}: npm ci needs ${required}, which is not copied yet`);
  }
  const omit = new Set<string>(env.NODE_ENV === 'production' ? ['dev'] : []);
  for (const flag of argv) {
    const [name, value] = flag.split('=');
    if (name === '--omit') omit.add(value!);
    if (name === '--production') omit.add('dev');
  }
  for (const flag of argv) if (flag.startsWith('--include=')) omit.delete(flag.slice('--include='.length));

  const modules = path.join(cwd, 'node_modules');
  rmSync(modules, { recursive: true, force: true });
  mkdirSync(path.join(modules, '.bin'), { recursive: true });
  const lock = JSON.parse(readFileSync(path.join(cwd, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  for (const [key, entry] of Object.entries(lock.packages)) {
    const name = /^node_modules\/((?:@[^/]+\/)?[^/]+)$/.exec(key)?.[1];
    if (name === undefined || omitted(entry, omit)) continue;
    const installed = path.join(installedModules, name);
    if (!existsSync(installed)) {
      // npm skips optional packages built for another platform; anything else missing means this checkout's install is incomplete.
      if (entry.optional === true || entry.devOptional === true) continue;
      throw new DockerBuildError(`${where}: ${name} is locked but not installed in ${installedModules}; run npm ci first`);
    }
    mkdirSync(path.dirname(path.join(modules, name)), { recursive: true });
    symlinkSync(installed, path.join(modules, name));
    for (const [bin, target] of Object.entries(entry.bin ?? {})) {
      const link = path.join(modules, '.bin', bin);
      if (!existsSync(link)) symlinkSync(path.join('..', name, target), link);
    }
  }
  if (argv.includes('--ignore-scripts')) return;
  const scripts = (JSON.parse(readFileSync(path.join(cwd, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};
  const scriptEnv = { ...env, PATH: `${path.join(modules, '.bin')}${path.delimiter}${process.env.PATH ?? ''}` };
  for (const event of INSTALL_SCRIPTS) {
    const script = scripts[event];
    if (script !== undefined) run(script, cwd, { ...scriptEnv, npm_lifecycle_event: event }, `${where} (npm ci's ${event} script)`);
  }
}

/** Copies one file or folder to `target`, keeping links as they are. */
function copyEntry(source: string, target: string): void {
  mkdirSync(path.dirname(target), { recursive: true });
  if (lstatSync(source).isDirectory()) cpSync(source, target, { recursive: true, verbatimSymlinks: true });
  else if (lstatSync(source).isSymbolicLink()) cpSync(source, target, { verbatimSymlinks: true });
  else copyFileSync(source, target);
}

/** Builds every stage in order and returns them; throws a DockerBuildError naming the failing line. */
export function replayDockerBuild(options: BuildOptions): BuiltStage[] {
  const stages: BuiltStage[] = [];
  let stage: BuiltStage | undefined;
  const inStage = (at: string): string => path.join(stage!.root, at);

  for (const instruction of parseDockerfile(options.dockerfile)) {
    const where = `Dockerfile line ${instruction.line} (${instruction.keyword} ${instruction.args})`;
    if (instruction.keyword !== 'FROM' && stage === undefined) throw new DockerBuildError(`${where}: before any FROM`);
    switch (instruction.keyword) {
      case 'FROM': {
        const [base, as, name, ...rest] = words(instruction.args, where).filter((word) => !word.startsWith('--platform='));
        if (base === undefined || rest.length > 0 || (as !== undefined && (as.toUpperCase() !== 'AS' || name === undefined))) {
          throw new DockerBuildError(`${where}: expected FROM <image> [AS <name>]`);
        }
        const root = path.join(options.scratch, `stage-${stages.length}`);
        mkdirSync(root, { recursive: true });
        const parent = stages.find((built) => built.name === base);
        if (parent) cpSync(parent.root, root, { recursive: true, verbatimSymlinks: true });
        stage = {
          name,
          base,
          root,
          workdir: parent?.workdir ?? '/',
          env: { ...parent?.env },
          user: parent?.user,
          cmd: parent?.cmd,
          healthcheck: parent?.healthcheck,
          exposed: [...(parent?.exposed ?? [])],
        };
        stages.push(stage);
        break;
      }
      case 'WORKDIR': {
        const [dir] = words(instruction.args, where);
        stage!.workdir = path.posix.resolve(stage!.workdir, dir!);
        mkdirSync(inStage(stage!.workdir), { recursive: true });
        break;
      }
      case 'ENV': {
        const parts = words(instruction.args, where);
        if (parts.length === 2 && !parts[0]!.includes('=')) stage!.env[parts[0]!] = parts[1]!;
        else
          for (const part of parts) {
            const eq = part.indexOf('=');
            if (eq <= 0) throw new DockerBuildError(`${where}: expected KEY=VALUE`);
            stage!.env[part.slice(0, eq)] = part.slice(eq + 1);
          }
        break;
      }
      case 'COPY': {
        const all = words(instruction.args, where);
        const flags = all.filter((word) => word.startsWith('--'));
        const bad = flags.filter((flag) => !COPY_FLAGS.test(flag));
        if (bad.length > 0) throw new DockerBuildError(`${where}: COPY ${bad.join(' ')} is not replayed here`);
        const from = flags.find((flag) => flag.startsWith('--from='))?.slice('--from='.length);
        const paths = all.filter((word) => !word.startsWith('--'));
        const dest = paths.pop();
        if (dest === undefined || paths.length === 0) throw new DockerBuildError(`${where}: expected COPY <source>... <destination>`);
        if (paths.some((source) => /[*?[]/.test(source))) throw new DockerBuildError(`${where}: wildcards are not replayed here; name the files`);
        const destination = path.posix.resolve(stage!.workdir, dest);
        const intoFolder = dest.endsWith('/') || paths.length > 1 || (existsSync(inStage(destination)) && statSync(inStage(destination)).isDirectory());
        const sourceStage = from === undefined ? undefined : stages.find((built) => built.name === from || String(stages.indexOf(built)) === from);
        if (from !== undefined && sourceStage === undefined) throw new DockerBuildError(`${where}: no earlier stage named ${from}`);
        for (const source of paths) {
          if (sourceStage) {
            const absolute = path.join(sourceStage.root, path.posix.resolve('/', source));
            if (!existsSync(absolute)) throw new DockerBuildError(`${where}: ${source} does not exist in stage ${from}`);
            const folder = lstatSync(absolute).isDirectory();
            copyEntry(absolute, inStage(folder || !intoFolder ? destination : path.posix.join(destination, path.posix.basename(source))));
            continue;
          }
          const relative = path.posix.normalize(source).replace(/^(\.\/)+|\/+$/g, '');
          const under = relative === '.' ? [...options.files] : [...options.files].filter((file) => file.startsWith(`${relative}/`));
          if (options.files.has(relative)) {
            const target = intoFolder ? path.posix.join(destination, path.posix.basename(relative)) : destination;
            copyEntry(path.join(options.context, relative), inStage(target));
          } else if (under.length > 0) {
            // A folder's contents go into the destination, as Docker copies them.
            for (const file of under) copyEntry(path.join(options.context, file), inStage(path.posix.join(destination, relative === '.' ? file : file.slice(relative.length + 1))));
          } else {
            throw new DockerBuildError(`${where}: ${source} is not in the build context (missing, or left out by .dockerignore)`);
          }
        }
        break;
      }
      case 'RUN': {
        const cwd = inStage(stage!.workdir);
        if (instruction.args.startsWith('[')) {
          run(words(instruction.args, where).map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' '), cwd, stage!.env, where);
          break;
        }
        for (const command of instruction.args.split('&&').map((part) => part.trim())) {
          const npm = /^npm\s+ci(\s.*)?$/.exec(command);
          if (npm) npmCi((npm[1] ?? '').split(/\s+/).filter(Boolean), cwd, stage!.env, options.installedModules, where);
          else run(command, cwd, stage!.env, where);
        }
        break;
      }
      case 'USER':
        stage!.user = words(instruction.args, where)[0];
        break;
      case 'CMD':
        stage!.cmd = instruction.args.startsWith('[') ? (JSON.parse(instruction.args) as string[]) : ['/bin/sh', '-c', instruction.args];
        break;
      case 'EXPOSE':
        stage!.exposed.push(...words(instruction.args, where));
        break;
      case 'HEALTHCHECK': {
        if (instruction.args.trim().toUpperCase() === 'NONE') {
          stage!.healthcheck = undefined;
          break;
        }
        const match = /^((?:--\S+=\S+\s+)*)CMD\s+(.*)$/.exec(instruction.args);
        if (!match) throw new DockerBuildError(`${where}: expected HEALTHCHECK [--option=value ...] CMD ...`);
        const options = Object.fromEntries(match[1]!.trim().split(/\s+/).filter(Boolean).map((flag) => flag.slice(2).split('=') as [string, string]));
        const command = match[2]!.startsWith('[') ? (JSON.parse(match[2]!) as string[]) : ['/bin/sh', '-c', match[2]!];
        stage!.healthcheck = { options, command };
        break;
      }
      case 'LABEL':
      case 'STOPSIGNAL':
        break;
      default:
        throw new DockerBuildError(`${where}: ${instruction.keyword} is not replayed here; teach test/support/docker-build.ts`);
    }
  }
  if (stages.length === 0) throw new DockerBuildError('the Dockerfile has no FROM');
  return stages;
}
