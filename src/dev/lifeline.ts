/**
 * Stop when whoever started us is gone. The run command normally runs under `npm start`, i.e.
 * npm → sh → node: if npm is killed (even by SIGKILL) nobody tells this process, and a service
 * manager would see its unit stopped while PostgreSQL, Temporal, the worker and the API keep their
 * ports. So the run command watches its parent, and its parent's parent when the parent is only a
 * shell, and shuts down when one of them exits.
 */
import { readFileSync } from 'node:fs';

const SHELLS = new Set(['sh', 'dash', 'bash']);
const POLL_MS = 500;

interface ProcInfo {
  command: string;
  ppid: number;
}

/** Linux /proc/<pid>/stat: "pid (comm) state ppid …"; comm may itself contain parentheses. */
function procInfo(pid: number): ProcInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const command = stat.slice(stat.indexOf('(') + 1, close);
    const ppid = Number(stat.slice(close + 2).split(' ')[1]);
    return { command, ppid };
  } catch {
    return undefined;
  }
}

/** The processes whose exit means "stop": the parent, and the grandparent behind a shell. */
export function watchedAncestors(): number[] {
  const parent = process.ppid;
  const ancestors = [parent];
  const info = procInfo(parent);
  if (info && SHELLS.has(info.command) && info.ppid > 1) ancestors.push(info.ppid);
  return ancestors;
}

const gone = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
};

/** Calls `onLost` once when this process is orphaned or a watched ancestor exits. */
export function onAncestorExit(onLost: (why: string) => void): () => void {
  const parent = process.ppid;
  const ancestors = watchedAncestors();
  const timer = setInterval(() => {
    const lost = process.ppid !== parent ? parent : ancestors.find(gone);
    if (lost !== undefined) {
      clearInterval(timer);
      onLost(`parent process ${lost} exited`);
    }
  }, POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
