/**
 * Webhook delivery settings (WEBHOOK_* variables, src/config.ts). Workflows cannot read the
 * environment, so whoever starts a delivery workflow passes the policy part in its input.
 */
import type { WorkerConfig } from '../../config.js';
import type { WebhookDeliveryPolicy } from '../../temporal/messages.js';

export interface WebhookSettings extends WebhookDeliveryPolicy {
  /** Whether endpoint URLs may point at loopback, link-local and private addresses (local mode, or explicitly allowed). */
  allowPrivateUrls: boolean;
  /** An endpoint whose attempts have all failed for this long is disabled by the circuit waker. */
  disableAfterMs: number;
}

/** The part of the settings a delivery workflow runs on. */
export const deliveryPolicyOf = (settings: WebhookSettings): WebhookDeliveryPolicy => ({
  retryScheduleMs: settings.retryScheduleMs,
  timeoutMs: settings.timeoutMs,
  breakerThreshold: settings.breakerThreshold,
  breakerOpenMs: settings.breakerOpenMs,
});

/** Webhook delivery settings from a parsed configuration; private URLs are refused only in production mode. */
export function webhookSettingsOf(config: WorkerConfig): WebhookSettings {
  return {
    retryScheduleMs: config.WEBHOOK_RETRY_SCHEDULE.map((seconds) => seconds * 1000),
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    breakerThreshold: config.WEBHOOK_BREAKER_THRESHOLD,
    breakerOpenMs: config.WEBHOOK_BREAKER_OPEN_SECONDS * 1000,
    allowPrivateUrls: config.NODE_ENV !== 'production' || config.WEBHOOK_ALLOW_PRIVATE_URLS,
    disableAfterMs: config.WEBHOOK_DISABLE_AFTER_SECONDS * 1000,
  };
}
