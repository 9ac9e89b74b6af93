/** The bill-run baseline: a workflow that runs one no-op activity, so its rate is the server's own cost of a workflow plus an activity. */
import { proxyActivities } from '@temporalio/workflow';

const { noop } = proxyActivities<{ noop(): Promise<void> }>({ startToCloseTimeout: '1 minute' });

export async function noopActivityWorkflow(): Promise<void> {
  await noop();
}
