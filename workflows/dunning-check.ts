/**
 * The daily dunning check (SPEC §3 check_due_attempts), started by the Temporal Schedule
 * `dunning-check-due-attempts`: re-drives Active schedules whose retry is overdue but whose workflow
 * is not running, and notifications whose workflow never ran. A safety net: the dunning workflows
 * make their retries on their own.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';

const { checkDueDunningAttempts } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '5 seconds', maximumInterval: '5 minutes', maximumAttempts: 10 },
});

export async function dunningCheckWorkflow(): Promise<{ overdue: number; redriven: string[]; notificationsRedriven: number }> {
  return checkDueDunningAttempts();
}
