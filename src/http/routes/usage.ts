/** GET /v1/subscriptions/:id/usage: what a subscription's meters measured, each over its window. */
import { createRoute, z } from '@hono/zod-openapi';
import { getUsageSummary, usageQueryIssues, WEIGHTED_SUM_SCALE } from '../../services/metering/usage.js';
import { DateTimeSchema } from '../../schemas/common.js';
import { UsageSummarySchema } from '../../schemas/metering.js';
import { ownCustomerId } from '../actor.js';
import type { App } from '../context.js';
import { commonErrorResponses } from '../errors.js';
import { jsonResponse } from '../helpers.js';
import { IdParamSchema } from '../schemas.js';

const UsageQuerySchema = z
  .object({
    from: DateTimeSchema.optional().openapi({ description: 'with `to`: one explicit window [from, to) for every meter' }),
    to: DateTimeSchema.optional(),
    at: DateTimeSchema.optional().openapi({
      description: 'reference instant (default now, or the test clock\'s time): the billing period containing it, Sliding windows ending at it, the Tumbling window containing it',
    }),
  })
  .superRefine((query, ctx) => {
    for (const issue of usageQueryIssues(query)) ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
  });

const summary = createRoute({
  method: 'get',
  path: '/v1/subscriptions/{id}/usage',
  tags: ['Metering'],
  summary: 'Usage summary of a subscription',
  description: `One entry per meter of the event types the subscription's plan meters (SKU meter_event_type), each over its window:
by default the current billing period (BillingPeriod meters), the window_size up to now (Sliding) and the current epoch-aligned window
(Tumbling). \`at\` picks another reference instant (and the billing period containing it); \`from\`/\`to\` one explicit window for all.
Counted: the subscription's events and its customer's events sent without a subscription_id. Values are exact decimal strings
(WeightedSum rounded half-even to ${WEIGHTED_SUM_SCALE} places). Late events are included and counted in late_event_count.
Customer tokens see only their own subscriptions.`,
  request: { params: IdParamSchema, query: UsageQuerySchema },
  responses: { 200: jsonResponse('The usage summary', UsageSummarySchema), ...commonErrorResponses },
});

export function registerUsage(app: App): void {
  app.openapi(summary, async (c) =>
    c.json(await getUsageSummary(c.get('deps'), c.req.valid('param').id, c.req.valid('query'), ownCustomerId(c)), 200),
  );
}
