/**
 * The daily dunning check (SPEC §3 check_due_attempts), started by the Temporal Schedule
 * `dunning-check-due-attempts`: re-drives Active schedules whose retry is overdue but whose workflow
 * is not running, and notifications whose workflow never ran. A safety net: the dunning workflows
 * make their retries on their own. An item whose re-drive fails deterministically is listed in the
 * summary's `failed` (and logged) while the others are re-driven; a transient failure fails the
 * activity, which is retried.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import { followedUp } from '../follow-ups/index.js';
import type { DunningCheckSummary } from './messages.js';

/**
 * Changes to the released workflow, each behind `patched(id)` (docs/versioning.md): the dunning
 * workflows and processor-event workflows it re-drives are started by this run, as children that
 * outlive it (ABANDON), from the follow-ups its activity hands back (issue 29). Runs without the
 * marker got a summary without follow-ups: the activity started them through the gateway.
 */
export const DUNNING_CHECK_STARTS_CHILDREN = 'dunning-check-starts-children';

const { checkDueDunningAttempts } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '5 seconds', maximumInterval: '5 minutes', maximumAttempts: 10 },
});

export async function dunningCheckWorkflow(): Promise<DunningCheckSummary> {
  return followedUp(checkDueDunningAttempts(), DUNNING_CHECK_STARTS_CHILDREN);
}
