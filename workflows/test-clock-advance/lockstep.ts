/**
 * The lockstep drive of a test clock's workflows, run by the advance workflow itself (issue 29:
 * activities never drive other workflows). Its activities only read and write the database (the
 * plan, the dunning workflows found, progress on the clock's row) or read the workflows' next
 * wakes by query; the workflows are driven by the `clockAdvance` signal, each answering with
 * `clockAdvanced` (workflows/clock.ts).
 *
 * Fan-out: one history receiving every driven workflow's answer would serialize them all, so each
 * step's pass is run by child workflows (`testClockDriveBatchWorkflow`) of at most BATCH_SIZE
 * workflows each, whose outcomes this merges: the advance's own history grows by a few events per
 * batch and step, and between two steps it continues as new when the server suggests it (a long
 * advance of many workflows), carrying where the drive stands (`LockstepResume`).
 *
 * Lockstep, the second pass and the idle rule are those of the activity's drive
 * (src/services/subscriptions/test-clocks.ts driveInLockstep), which runs recorded before the patch
 * still use.
 */
import {
  ApplicationFailure,
  condition,
  continueAsNew,
  executeChild,
  getExternalWorkflowHandle,
  isCancellation,
  proxyActivities,
  setHandler,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import { lockstepIdle, lockstepNextMs, lockstepSubscriptionsDone } from '../../src/core/lockstep.js';
import { clockAdvancedSignal, clockAdvanceSignal, type ClockAdvanceAnswer } from '../shared/messages.js';
import {
  testClockAdvanceWorkflowId,
  type ClockDriveOutcome,
  type LockstepResume,
  type TestClockAdvanceInput,
  type TestClockAdvanceResult,
  type TestClockDriveBatchInput,
  type TestClockDrivePlan,
  type TestClockDriveProgress,
} from './messages.js';

/** Workflows driven by one child: its history takes one signal sent and one answer per workflow. */
export const BATCH_SIZE = 40;

/** A run continuing as new answers at once; its next run is asked after this pause (it must have started). */
const CONTINUING_PAUSE = '1 second';

const { nextWakesOf, dunningWorkflowsOnClock, recordTestClockProgress } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 10 },
});

/** The drive of one advance: every workflow of the clock from `from` to `to`, step by step. */
export class LockstepDrive {
  private readonly subscriptions: Set<string>;
  private running: string[];
  private readonly known: Set<string>;
  /** Next wakes (ms, or null for nothing left) from the subscriptions' last answers. */
  private readonly answered = new Map<string, number | null>();
  private readonly targetMs: number;
  private reachedMs = Number.NEGATIVE_INFINITY;
  /** Only subscriptions on their own (no contract, spend alert or dunning workflow) may stay idle at the last step. */
  private alone = false;
  steps = 0;

  constructor(
    private readonly input: TestClockAdvanceInput,
    private readonly plan: TestClockDrivePlan,
    private readonly resumed?: LockstepResume,
  ) {
    this.subscriptions = new Set(plan.subscriptions);
    this.running = resumed ? [...resumed.running] : [...plan.subscriptions, ...plan.others];
    this.known = new Set(resumed ? resumed.known : this.running);
    this.targetMs = Date.parse(input.to);
    if (resumed) {
      for (const [id, wake] of resumed.answered) this.answered.set(id, wake);
      this.reachedMs = resumed.reachedMs;
      this.steps = resumed.steps;
      this.alone = resumed.alone;
    }
  }

  /** The drive of a run the advance continued as new into, from where it stood. */
  static resumed(input: TestClockAdvanceInput, resume: LockstepResume): LockstepDrive {
    return new LockstepDrive(input, resume.plan, resume);
  }

  get total(): number {
    return this.subscriptions.size;
  }

  /** Steps every workflow through each instant up to the target where one of them has something due; returns the steps. */
  async run(): Promise<number> {
    if (!this.resumed) {
      this.alone = !(await this.withDunning()) && this.plan.others.length === 0;
      await this.report(this.input.from, 0);
    }
    while (this.running.length > 0) {
      if (this.steps > 0 && workflowInfo().continueAsNewSuggested) await this.continueAsNew();
      const wakes = await this.wakes();
      if (this.steps > 0) await this.report(new Date(this.reachedMs).toISOString(), this.doneOf(wakes));
      const stepMs = lockstepNextMs(wakes, this.reachedMs, this.targetMs);
      await this.driveAll(stepMs, 1);
      // Collection at this step signals subscriptions (PastDue, back to Active) that may already have
      // caught up, and may start dunning workflows: a second pass waits for both.
      if (await this.withDunning()) {
        this.alone = false;
        await this.driveAll(stepMs, 2);
        this.answered.clear();
      }
      this.reachedMs = stepMs;
      this.steps += 1;
      if (stepMs === this.targetMs) break;
    }
    await this.report(this.input.to, this.total);
    return this.steps;
  }

  /** Continues the advance as new between two steps (nothing in flight), carrying where the drive stands. */
  private async continueAsNew(): Promise<never> {
    const resume: LockstepResume = {
      plan: this.plan,
      running: this.running,
      known: [...this.known],
      answered: [...this.answered],
      reachedMs: this.reachedMs,
      steps: this.steps,
      alone: this.alone,
    };
    return continueAsNew<(input: TestClockAdvanceInput) => Promise<TestClockAdvanceResult>>({ ...this.input, resume });
  }

  /** The next wakes of the running workflows: answered, else read by query (the first step, other kinds, after a second pass). */
  private async wakes(): Promise<(number | null)[]> {
    const unknown = this.running.filter((id) => !this.answered.has(id));
    const queried = unknown.length > 0 ? await nextWakesOf({ workflowIds: unknown }) : {};
    return this.running.map((id) => (this.answered.has(id) ? this.answered.get(id)! : (queried[id] ?? null)));
  }

  /** Subscriptions that ended, or whose next wake is after the target. */
  private doneOf(wakes: (number | null)[]): number {
    return lockstepSubscriptionsDone(this.total, wakes, this.running.map((id) => this.subscriptions.has(id)), this.targetMs);
  }

  /** The idle rule at the last step (src/core/lockstep.ts): commands sent to such a subscription later carry the clock's time. */
  private idle(id: string, stepMs: number, pass: number): boolean {
    return lockstepIdle({ alone: this.alone, pass, stepMs, targetMs: this.targetMs }, this.subscriptions.has(id), this.answered.get(id));
  }

  /** One pass of a step: the running workflows (but the idle ones) driven to `stepMs` by batches, their answers kept. */
  private async driveAll(stepMs: number, pass: number): Promise<void> {
    const at = new Date(stepMs).toISOString();
    const driven = this.running.filter((id) => !this.idle(id, stepMs, pass));
    const outcomes = await this.fanOut(driven, { at, through: this.input.to, key: `clock-advance:${this.input.startedAt}:${at}:${pass}` });
    for (const id of driven) {
      const { nextWakeAt } = outcomes.get(id)!;
      if (nextWakeAt === undefined) this.answered.delete(id);
      else this.answered.set(id, nextWakeAt === null ? null : Date.parse(nextWakeAt));
    }
    this.running = this.running.filter((id) => outcomes.get(id)?.running ?? true);
  }

  /** The workflows driven by children of at most BATCH_SIZE each, in parallel; their outcomes by workflow id (child ids from the input, as replay needs). */
  private async fanOut(workflowIds: string[], pass: Omit<TestClockDriveBatchInput, 'workflowIds'>): Promise<Map<string, ClockDriveOutcome>> {
    const batches: string[][] = [];
    for (let i = 0; i < workflowIds.length; i += BATCH_SIZE) batches.push(workflowIds.slice(i, i + BATCH_SIZE));
    const results = await Promise.all(
      batches.map((batch, i) =>
        executeChild(testClockDriveBatchWorkflowName, { workflowId: `${testClockAdvanceWorkflowId(this.input.clockId)}:${pass.key}:${i}`, args: [{ ...pass, workflowIds: batch }] }),
      ),
    );
    return new Map(batches.flatMap((batch, i) => batch.map((id, j) => [id, results[i]![j]!] as const)));
  }

  /** Adds the clock's dunning workflows not driven yet; true when the clock has any. */
  private async withDunning(): Promise<boolean> {
    const dunning = await dunningWorkflowsOnClock({ clockId: this.input.clockId });
    for (const id of dunning.filter((found) => !this.known.has(found))) {
      this.known.add(id);
      this.running.push(id);
    }
    return dunning.length > 0;
  }

  private report(simulatedTime: string, subscriptionsDone: number): Promise<void> {
    const progress: TestClockDriveProgress = { simulatedTime, subscriptionsTotal: this.total, subscriptionsDone };
    return recordTestClockProgress({ clockId: this.input.clockId, startedAt: this.input.startedAt, progress });
  }
}

/** The batch child's workflow type (./index.ts exports it). */
const testClockDriveBatchWorkflowName = 'testClockDriveBatchWorkflow';

/**
 * A batch child's drive: a `clockAdvance` request to each workflow, then its answer awaited; a run
 * continuing as new is asked again (its next run takes the same time). A workflow that does not run
 * (ended, or never started) is no longer running; one not on a test clock fails the advance.
 */
export async function driveBatch(input: TestClockDriveBatchInput): Promise<ClockDriveOutcome[]> {
  const answers = new Map<string, ClockAdvanceAnswer>();
  setHandler(clockAdvancedSignal, (answer) => void answers.set(answer.key, answer));
  return Promise.all(input.workflowIds.map((workflowId) => driveOne(input, workflowId, answers)));
}

async function driveOne(input: TestClockDriveBatchInput, workflowId: string, answers: Map<string, ClockAdvanceAnswer>): Promise<ClockDriveOutcome> {
  for (let run = 1; ; run += 1) {
    const key = `${input.key}:${workflowId}:${run}`;
    try {
      await getExternalWorkflowHandle(workflowId).signal(clockAdvanceSignal, { at: input.at, through: input.through, key, replyTo: workflowInfo().workflowId });
    } catch (err) {
      if (isCancellation(err)) throw err;
      return { running: false };
    }
    await condition(() => answers.has(key));
    const answer = answers.get(key)!;
    answers.delete(key);
    if (answer.refused !== undefined) throw ApplicationFailure.nonRetryable(`${workflowId}: ${answer.refused}`, 'NotOnTestClock');
    if (answer.caughtUp) return { running: true, ...(answer.nextWakeAt === undefined ? {} : { nextWakeAt: answer.nextWakeAt }) };
    await sleep(CONTINUING_PAUSE);
  }
}
