/**
 * Scheduled runs that handle many items in one activity (the daily dunning check, the contract
 * reconciler; revenue recognition does the same per customer): one item whose work fails
 * deterministically must not hold the others until the next run. Its failure is logged with the
 * item's id and listed in the run's summary; a transient failure still fails the run's activity,
 * which Temporal retries on its bounded schedule (docs/failures.md).
 */
import type { Logger } from '../../logger.js';
import type { FailedRunItem } from '../../temporal/messages.js';
import { classifyFailure, describeFailure } from './taxonomy.js';

/** Runs one item's work: its answer, or null when it failed deterministically (then logged and pushed to `failed`). */
export async function runItem<T>(
  deps: { logger: Logger },
  failed: FailedRunItem[],
  item: { kind: FailedRunItem['kind']; id: string; run: string },
  work: () => Promise<T>,
): Promise<T | null> {
  try {
    return await work();
  } catch (err) {
    if (classifyFailure(err) === 'transient') throw err;
    const failure = describeFailure(err);
    failed.push({ kind: item.kind, id: item.id, message: failure.message });
    deps.logger.error({ run: item.run, kind: item.kind, id: item.id, failure }, `${item.run}: ${item.kind} failed; the other items proceed and the next run tries it again`);
    return null;
  }
}
