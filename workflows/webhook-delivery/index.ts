/**
 * One workflow per webhook delivery (id `webhook:<event_id>:<endpoint_id>`, on the webhooks task
 * queue): attempts on the retry schedule of its input, each a local activity that POSTs the stored
 * bytes, records the attempt and moves the endpoint's circuit breaker. An attempt the breaker
 * refuses is not counted: the delivery parks (no timer of its own but a long safety net) until the
 * circuit waker signals that the circuit lets it through, and asks again. Waiting deliveries so cost
 * nothing per delivery while an endpoint is down; one waker per process serves every endpoint.
 * After the last attempt of the schedule fails, the delivery is abandoned and marked Failed.
 *
 * The attempt is a local activity: it runs inside the workflow task (its result is a marker in the
 * history), which halves the server round trips of a delivery; the timers between attempts are
 * ordinary durable timers.
 */
import { condition, patched, proxyLocalActivities, setHandler, sleep } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import { delayBeforeAttempt } from '../../src/core/webhooks.js';
import { deterministicFailureOf } from '../failures.js';
import { circuitReadySignal, PARKED_RECHECK_MS, type WebhookAttemptResult, type WebhookDeliveryInput, type WebhookDeliveryOutcome } from './messages.js';

/**
 * An attempt that fails deterministically (a broken invariant, a row the database refuses) marks the
 * delivery Failed with the reason as its last_error, instead of failing the workflow and leaving the
 * delivery Pending. Runs recorded without the marker failed the workflow.
 */
export const DELIVERY_FAILURES_PATCH = 'webhook-delivery-deterministic-failures';

/**
 * A delivery the circuit refuses parks until the circuit waker signals it. Runs recorded without the
 * marker slept until the circuit's own retry time and asked again, each delivery on its own timer.
 */
export const PARKED_DELIVERIES_PATCH = 'webhook-delivery-parks-on-open-circuit';

/** Beyond the receiver's own timeout: the database work of recording an attempt. */
const RECORDING_MARGIN_MS = 20_000;

export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<WebhookDeliveryOutcome> {
  const { policy } = input;
  const { attemptWebhookDelivery, abandonWebhookDelivery } = proxyLocalActivities<Activities>({
    startToCloseTimeout: policy.timeoutMs + RECORDING_MARGIN_MS,
    // Only infrastructure failures (database unreachable) throw; a receiver's failure is a result.
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
  });
  let circuitReady = false;
  setHandler(circuitReadySignal, () => {
    circuitReady = true;
  });
  let attempts = 0;
  for (let attempt = 1; ; attempt += 1) {
    const delay = delayBeforeAttempt(policy.retryScheduleMs, attempt);
    if (delay === undefined) break;
    if (delay > 0) await sleep(delay);
    const nextDelayMs = delayBeforeAttempt(policy.retryScheduleMs, attempt + 1) ?? null;
    for (;;) {
      let result: WebhookAttemptResult;
      // A signal from now on counts: the waker may wake the delivery as soon as the attempt parked it.
      circuitReady = false;
      try {
        result = await attemptWebhookDelivery({ deliveryId: input.deliveryId, policy, nextDelayMs });
      } catch (err) {
        const failure = deterministicFailureOf(err);
        if (failure === null || !patched(DELIVERY_FAILURES_PATCH)) throw err;
        await abandonWebhookDelivery({ deliveryId: input.deliveryId, attempts, reason: `${failure.type}: ${failure.message.slice(0, 2000)}` });
        return { status: 'Failed', attempts };
      }
      if (result.kind === 'gone') return { status: 'Cancelled', attempts };
      if (result.kind === 'suspended') {
        if (patched(PARKED_DELIVERIES_PATCH)) {
          await condition(() => circuitReady, PARKED_RECHECK_MS);
          continue;
        }
        // Workflow time is deterministic (the task's start time), so this wait replays exactly.
        await sleep(Math.max(1, Date.parse(result.retryAt) - Date.now()));
        continue;
      }
      attempts += 1;
      if (result.delivered) return { status: 'Delivered', attempts };
      break;
    }
  }
  await abandonWebhookDelivery({ deliveryId: input.deliveryId, attempts });
  return { status: 'Failed', attempts };
}

