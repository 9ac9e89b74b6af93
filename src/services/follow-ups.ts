/**
 * What a service asks of other workflows once its step committed (start a dunning schedule's or a
 * recharge's workflow, tell a subscription or a dunning workflow something): collected for the
 * workflow whose activity called the service, which runs them itself, or run at once through the
 * gateway when the API called it (ServiceDeps.followUps).
 */
import { runFollowUpsThroughGateway } from '../temporal/follow-ups.js';
import type { FollowUp } from '../temporal/messages.js';
import type { ServiceDeps } from './deps.js';

export type FollowUpDeps = Pick<ServiceDeps, 'temporal' | 'followUps'>;

export async function followUp(deps: FollowUpDeps, ...followUps: FollowUp[]): Promise<void> {
  if (deps.followUps) deps.followUps.push(...followUps);
  else await runFollowUpsThroughGateway(deps.temporal, followUps);
}

/**
 * Runs `work` with the follow-ups collected instead of run: what an activity of a workflow that runs
 * its own follow-ups calls its services with. Answers the result with the follow-ups beside it.
 */
export async function collectingFollowUps<D extends object, T extends object>(deps: D, work: (deps: D & { followUps: FollowUp[] }) => Promise<T>): Promise<T & { followUps: FollowUp[] }> {
  const followUps: FollowUp[] = [];
  const result = await work({ ...deps, followUps });
  return { ...result, followUps };
}
