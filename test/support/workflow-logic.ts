/**
 * Workflow logic without PostgreSQL: the real workflow code (the bundle the workflow-logic global
 * setup built) on a local Temporal dev server, with every activity a plain function the test writes,
 * registered under the real activity name. Calls are recorded per workflow id, so each test asserts
 * the exact sequence of activity calls (name and arguments) its workflow made.
 *
 *   const logic = useWorkflowLogic(['runDunningAttempt', 'recordBillingError']);
 *   const run = logic.mock(`dunning:${id}`, { runDunningAttempt: async (input) => ... });
 *   const handle = await logic.start('dunningWorkflow', run.id, [input]);
 *
 * Workflows are named by their type name, messages by the definitions in workflows/<name>/messages.ts:
 * nothing here depends on where a workflow's code lives.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, inject } from 'vitest';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { Client, Connection, WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import type { Activities } from '../../activities/index.js';
import { DETERMINISTIC_FAILURE } from '../../workflows/shared/messages.js';

export type ActivityName = keyof Activities;

/** A mock of each activity the workflow under test calls, with the real activity's signature. */
export type ActivityMocks = {
  [K in ActivityName]?: (...args: Parameters<Activities[K]>) => ReturnType<Activities[K]> | Awaited<ReturnType<Activities[K]>>;
};

export interface ActivityCall {
  activity: ActivityName;
  args: unknown[];
}

/** Failure type of an activity a test calls without mocking it: the workflow sees a deterministic refusal. */
export const UNMOCKED_ACTIVITY = 'UnmockedActivity';

export interface MockedWorkflow {
  id: string;
  /** Every activity call of this workflow so far, in the order the worker received them. */
  readonly calls: ActivityCall[];
  /** The calls of one activity, by their arguments. */
  argsOf(activity: ActivityName): unknown[][];
  /** Resolves when `activity` has been called `count` times in all (at once when it already has). */
  called(activity: ActivityName, count?: number): Promise<ActivityCall>;
}

export interface WorkflowLogic {
  readonly client: Client;
  readonly taskQueue: string;
  /** Mocks the activities of the workflow with this id (one workflow execution per id in a test file). */
  mock(workflowId: string, mocks: ActivityMocks): MockedWorkflow;
  /** Starts a workflow by its type name on this file's task queue. */
  start(workflowType: string, workflowId: string, args: unknown[]): Promise<WorkflowHandle>;
}

interface Registered {
  mocks: ActivityMocks;
  calls: ActivityCall[];
  waiters: { activity: ActivityName; count: number; resolve: (call: ActivityCall) => void }[];
}

function installQuietRuntime(): void {
  // Workflow log lines (e.g. "holding for an operator retry") are expected here; the SDK's own errors still show.
  try {
    Runtime.install({ logger: new DefaultLogger('ERROR') });
  } catch {
    // Already installed in this process.
  }
}

/**
 * Registers beforeAll/afterAll that run one worker for this test file on its own task queue, with
 * `activities` (the real names) dispatched to each workflow's mocks.
 */
export function useWorkflowLogic(activities: readonly ActivityName[]): WorkflowLogic {
  const registered = new Map<string, Registered>();
  const taskQueue = `workflow-logic-${randomUUID()}`;
  let client: Client | undefined;
  let connection: Connection | undefined;
  let workerConnection: NativeConnection | undefined;
  let worker: Worker | undefined;
  let running: Promise<void> | undefined;

  const dispatch = (activity: ActivityName) =>
    async function (...args: unknown[]): Promise<unknown> {
      const workflowId = Context.current().info.workflowExecution?.workflowId ?? '';
      const entry = registered.get(workflowId);
      if (!entry) throw ApplicationFailure.nonRetryable(`no mocks for workflow ${workflowId}`, UNMOCKED_ACTIVITY);
      const call: ActivityCall = { activity, args };
      entry.calls.push(call);
      const count = entry.calls.filter((seen) => seen.activity === activity).length;
      for (const waiter of entry.waiters.filter((w) => w.activity === activity && w.count === count)) waiter.resolve(call);
      const mock = entry.mocks[activity] as ((...input: unknown[]) => unknown) | undefined;
      if (!mock) throw ApplicationFailure.nonRetryable(`activity ${activity} is not mocked for workflow ${workflowId}`, UNMOCKED_ACTIVITY);
      return mock(...args);
    };

  beforeAll(async () => {
    installQuietRuntime();
    const address = inject('workflowLogicAddress');
    const namespace = inject('workflowLogicNamespace');
    workerConnection = await NativeConnection.connect({ address });
    worker = await Worker.create({
      connection: workerConnection,
      namespace,
      taskQueue,
      workflowBundle: { codePath: inject('workflowLogicBundlePath') },
      activities: Object.fromEntries(activities.map((name) => [name, dispatch(name)])),
    });
    running = worker.run();
    connection = await Connection.connect({ address });
    client = new Client({ connection, namespace });
  });

  afterAll(async () => {
    // Nothing a test left open keeps running into the next file.
    for (const workflowId of registered.keys()) {
      await client?.workflow
        .getHandle(workflowId)
        .terminate('test file done')
        .catch(() => {});
    }
    worker?.shutdown();
    await running;
    await workerConnection?.close();
    await connection?.close();
  });

  return {
    get client() {
      if (!client) throw new Error('useWorkflowLogic: the client exists once beforeAll has run');
      return client;
    },
    taskQueue,
    mock(workflowId, mocks) {
      if (registered.has(workflowId)) throw new Error(`workflow ${workflowId} is mocked already`);
      const entry: Registered = { mocks, calls: [], waiters: [] };
      registered.set(workflowId, entry);
      return {
        id: workflowId,
        calls: entry.calls,
        argsOf: (activity) => entry.calls.filter((call) => call.activity === activity).map((call) => call.args),
        called: (activity, count = 1) => {
          const seen = entry.calls.filter((call) => call.activity === activity);
          if (seen.length >= count) return Promise.resolve(seen[count - 1]!);
          return new Promise((resolve) => entry.waiters.push({ activity, count, resolve }));
        },
      };
    },
    start(workflowType, workflowId, args) {
      if (!client) throw new Error('useWorkflowLogic: start a workflow inside a test');
      return client.workflow.start(workflowType, { workflowId, taskQueue, args });
    },
  };
}

/** The failure type an update was rejected or failed with (its ApplicationFailure's), or undefined when it succeeded. */
export async function updateFailureType(update: Promise<unknown>): Promise<string | undefined> {
  try {
    await update;
    return undefined;
  } catch (err) {
    if (!(err instanceof WorkflowUpdateFailedError)) throw err;
    const cause = err.cause;
    return cause instanceof ApplicationFailure ? (cause.type ?? 'Error') : (cause?.name ?? 'Error');
  }
}

/** A failure no retry can fix, as the activities' `classified` wrapper throws it (activities/failures.ts). */
export function deterministicFailure(message: string): ApplicationFailure {
  return ApplicationFailure.create({ message, type: DETERMINISTIC_FAILURE, nonRetryable: true });
}

/** A promise with its resolve, for an activity a test holds open. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
