/**
 * Webhook delivery activities (run as local activities of webhookDeliveryWorkflow): one attempt,
 * and the abandonment after the last one. The work is in src/services/webhooks/sender.ts.
 */
import type { ServiceDeps } from '../src/services/deps.js';
import { abandonWebhookDelivery, attemptWebhookDelivery, createWebhookAgents, type AttemptInput } from '../src/services/webhooks/sender.js';
import type { WebhookAttemptResult } from '../workflows/webhook-delivery/messages.js';
import { classified } from './failures.js';

/** The database, logger and webhook settings (whether receivers may be on loopback, link-local and private addresses). */
export type WebhookActivityDeps = Pick<ServiceDeps, 'db' | 'logger' | 'settings'>;

export function createWebhookActivities(deps: WebhookActivityDeps) {
  const sender = { db: deps.db, logger: deps.logger, allowPrivateUrls: deps.settings.webhooks.allowPrivateUrls, agents: createWebhookAgents() };
  return {
    // A receiver's failure is a result; a database outage is retried; anything else fails for good (docs/failures.md).
    attemptWebhookDelivery: (input: AttemptInput): Promise<WebhookAttemptResult> => classified(() => attemptWebhookDelivery(sender, input)),
    abandonWebhookDelivery: (input: { deliveryId: string; attempts: number; reason?: string }): Promise<void> => classified(() => abandonWebhookDelivery(sender, input)),
  };
}
