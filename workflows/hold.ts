/**
 * The hold-for-an-operator step (docs/failures.md), shared by every workflow whose steps can fail
 * for good (subscription, invoice, dunning, contract, processor notification, wallet auto-recharge):
 * a step that fails deterministically, or past its retry schedule, is recorded as the resource's
 * billing_error (row, audit entry, log line) and held until an operator's retry update clears it;
 * the step then runs again.
 *
 * Held before recording: the billing_error counts as held from the moment it is being recorded, so
 * an operator retry sent on seeing the row (which shows the error as soon as the recording activity
 * committed, before the workflow hears that it completed) is accepted; its handler waits for the
 * recording to finish before it clears the error. Patch ONE_HOLD_STEP: runs recorded before it held
 * the error only once it was recorded (except the processor-notification and wallet-recharge
 * workflows, released with the early hold already: `heldWhileRecording`).
 */
import type { UpdateDefinition } from '@temporalio/common';
import { ActivityFailure, ApplicationFailure, condition, log, patched, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { NO_BILLING_ERROR, type BillingErrorState, type SubscriptionCommand } from './shared/messages.js';
import { billingErrorOf } from './failures.js';
import type { Mutex } from './mutex.js';

/** The billing_error counts as held while it is being recorded (a retry meanwhile is accepted). */
export const ONE_HOLD_STEP = 'one-hold-step';

/** The resource that shows the billing_error: its kind and the id its workflow is keyed by. */
export type HeldEntity = Parameters<Activities['recordBillingError']>[0]['entity'];

export interface HoldOptions {
  entity: HeldEntity;
  id: string;
  /** How the refusal of a retry names the resource, e.g. `contract <id>`. */
  what: string;
  /** The workflow's own proxies of the two activities (its timeouts and retry schedule). */
  activities: Pick<Activities, 'recordBillingError' | 'clearBillingError'>;
  /** Held from the start of the recording without a patch marker (workflows released that way). */
  heldWhileRecording?: boolean;
}

/** Which failures of a step are held, and how they read. */
export interface HeldFailures {
  /** Whether the failure is held (else it goes on up); the workflow's own patch is checked here. */
  holds: (err: unknown) => err is ActivityFailure;
  /** When it failed (the resource's time, ISO). */
  at: () => string;
  /** The log line, and the fields naming the resource. */
  message: string;
  fields: Record<string, unknown>;
}

export class OperatorHold {
  /** The failed step held for an operator; null when none. */
  error: BillingErrorState | null = null;
  /** Steps attempted (done, or failed and recorded): an operator's retry answers once the next one ran. */
  steps = 0;
  /** The billing_error is being written to the row: a retry arriving meanwhile clears it only once it is there. */
  private recording = false;

  constructor(private readonly options: HoldOptions) {}

  /** Whether an operator's retry is refused: nothing is held. */
  readonly validate = (_command: SubscriptionCommand): void => {
    if (this.error === null) throw ApplicationFailure.nonRetryable(`${this.options.what} has no billing error to retry`, NO_BILLING_ERROR);
  };

  /**
   * Runs a step once and counts it as attempted: a failure `failures` holds is recorded as the
   * billing_error (then `error` is set); any other goes on up.
   */
  async attempt(step: () => Promise<void>, failures: HeldFailures): Promise<void> {
    try {
      await step();
    } catch (err) {
      if (!failures.holds(err)) throw err;
      await this.write(billingErrorOf(err, failures.at()), failures.message, failures.fields);
    } finally {
      // Together: a retry waiting for the recording sees the step counted.
      this.steps += 1;
      this.recording = false;
    }
  }

  /** Records the failure as the resource's billing_error (row, audit entry) and logs it: held from then on. */
  async record(error: BillingErrorState, message: string, fields: Record<string, unknown>): Promise<void> {
    try {
      await this.write(error, message, fields);
    } finally {
      this.recording = false;
    }
  }

  /** Records the billing_error; the caller ends `recording`. */
  private async write(error: BillingErrorState, message: string, fields: Record<string, unknown>): Promise<void> {
    log.warn(message, { ...fields, ...error });
    const { recordBillingError } = this.options.activities;
    const input = { entity: this.options.entity, id: this.options.id, error };
    if (!(this.options.heldWhileRecording === true || patched(ONE_HOLD_STEP))) {
      await recordBillingError(input);
      this.error = error;
      return;
    }
    // Held from now on: the row shows the error as soon as the activity wrote it, and a retry sent on
    // seeing it must be accepted.
    this.error = error;
    this.recording = true;
    try {
      await recordBillingError(input);
    } catch (err) {
      // Not recorded: nothing is held that the row does not show (the failure goes on up).
      if (this.error === error) this.error = null;
      throw err;
    }
  }

  /** Resolves once an operator's retry (or whatever else ends the hold) cleared the billing_error. */
  released(): Promise<void> {
    return condition(() => this.error === null);
  }

  /** Ends the hold without a retry (the resource was settled or closed meanwhile, which cleared its row). */
  release(): void {
    this.error = null;
  }

  /**
   * Held, and the billing_error is on the row: what a clock advance waits for before it answers, so
   * that a test clock that is ready shows every held step's billing_error.
   */
  get recorded(): boolean {
    return this.error !== null && !this.recording;
  }

  /** Whether the billing_error is being recorded: a retry clears it only once it is on the row. */
  get isRecording(): boolean {
    return this.recording;
  }

  /** Clears the billing_error for an operator's retry (`<entity>.billing_retried` audit entry), once it is recorded. */
  async clear(command: SubscriptionCommand): Promise<void> {
    if (this.recording) await condition(() => !this.recording);
    await this.options.activities.clearBillingError({ entity: this.options.entity, id: this.options.id, command });
    this.error = null;
  }

  /**
   * Registers the operator's retry update: it clears the billing_error (under `lock`, when the held
   * step runs under one, and only while one is held) and answers once the step ran again (done, or
   * failed anew with a new billing_error), or once `ended()` says the run will run no step again.
   */
  registerRetry<Result>(update: UpdateDefinition<Result, [SubscriptionCommand]>, answer: () => Result, options: { lock?: Mutex; ended?: () => boolean } = {}): void {
    const { lock, ended } = options;
    setHandler(
      update,
      async (command: SubscriptionCommand) => {
        if (this.recording) await condition(() => !this.recording);
        const seen = this.steps;
        if (lock === undefined) await this.clear(command);
        else
          await lock.run(async () => {
            if (this.error !== null) await this.clear(command);
          });
        await condition(() => this.steps > seen || (ended?.() ?? false));
        return answer();
      },
      { validator: this.validate },
    );
  }
}
