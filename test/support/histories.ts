/**
 * Workflow histories for replay tests. Histories are exported from the real Temporal server by the
 * tests that drive each workflow (run `npm run histories:capture`), never written by hand.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import { PROJECT_ROOT } from '../../src/dev/paths.js';

export const HISTORIES_DIR = path.join(PROJECT_ROOT, 'test', 'replay', 'histories');

export interface CommittedHistory {
  file: string;
  workflowId: string;
  workflowType: string;
  history: unknown;
}

/**
 * Writes the history of the handle's run (the latest run when the handle names none) when
 * CAPTURE_HISTORIES=1, as <type>--<name>.json. An existing file is kept: a committed history is the
 * proof that later workflow code still replays what earlier code recorded, so re-capturing one is
 * deliberate (delete its file first).
 */
export async function captureHistory(handle: WorkflowHandle, name: string): Promise<void> {
  if (process.env.CAPTURE_HISTORIES !== '1') return;
  const description = await handle.describe();
  const history = await handle.fetchHistory();
  await mkdir(HISTORIES_DIR, { recursive: true });
  const file = path.join(HISTORIES_DIR, `${description.type}--${name}.json`);
  try {
    await writeFile(file, `${JSON.stringify(JSON.parse(historyToJSON(history)), withoutMachinePaths, 2)}\n`, { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}

/**
 * Recorded failures carry stack traces and messages naming files by their absolute path on the
 * machine that captured them: a history names them relative to the project (or to node_modules)
 * instead. Replay never reads them.
 */
function withoutMachinePaths(key: string, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  // Payloads (a failure's details, say) are base64: their text is cleaned and encoded again.
  if (key === 'data') {
    const text = Buffer.from(value, 'base64').toString('utf8');
    const cleaned = relativePaths(text);
    return cleaned === text ? value : Buffer.from(cleaned, 'utf8').toString('base64');
  }
  return relativePaths(value);
}

const relativePaths = (text: string) => text.replace(/(?:\/[\w.+@-]+)+\/node_modules\//g, 'node_modules/').replaceAll(`${PROJECT_ROOT}/`, '');

export async function loadCommittedHistories(): Promise<CommittedHistory[]> {
  const files = (await readdir(HISTORIES_DIR).catch(() => [] as string[])).filter((f) => f.endsWith('.json')).sort();
  return Promise.all(
    files.map(async (file) => {
      const history = JSON.parse(await readFile(path.join(HISTORIES_DIR, file), 'utf8')) as {
        events: { workflowExecutionStartedEventAttributes?: { workflowType?: { name?: string } } }[];
      };
      const workflowType = history.events[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name ?? 'unknown';
      return { file, workflowId: file.replace(/\.json$/, ''), workflowType, history };
    }),
  );
}

/** The workflow ids of the children the handle's run asked to start (its StartChildWorkflowExecutionInitiated events), in order. */
export async function childStartsOf(handle: WorkflowHandle): Promise<string[]> {
  const events = (await handle.fetchHistory()).events ?? [];
  return events.flatMap((event) => {
    const workflowId = event.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId;
    return workflowId ? [workflowId] : [];
  });
}

/** The signals a test clock's step is (the advance's request, the driven workflow's answer): the clock's mechanics, not a workflow's own moves. */
const CLOCK_STEP_SIGNALS: readonly string[] = ['clockAdvance', 'clockAdvanced'];

/** Signal names without a test clock's steps and their answers. */
export const withoutClockSteps = (signalNames: readonly string[]): string[] => signalNames.filter((name) => !CLOCK_STEP_SIGNALS.includes(name));
