/**
 * The requests of the spend-alerts routes: bodies, queries and path parameters, validated before a handler runs.
 */
import { z } from '@hono/zod-openapi';
import { CurrencySchema, UuidSchema, PositiveMoneySchema } from '../../../schemas/common.js';
import { SpendAlertStatusSchema, SpendAlertTypeSchema } from '../../../schemas/spend-alerts.js';
import { PaginationQuerySchema } from '../../schemas.js';

export const CreateSpendAlertSchema = z
  .strictObject({
    alert_type: SpendAlertTypeSchema,
    threshold_nanos: PositiveMoneySchema.openapi({ description: 'the period spend (raw units, > 0) at which the alert triggers' }),
    currency: CurrencySchema.optional().openapi({ description: "the spend's currency; default the customer's billing_currency" }),
    scope: z
      .strictObject({
        meter_event_type: z.string().trim().min(1, 'must not be empty').max(200).nullable().optional().openapi({
          description: 'count only the charges of SKUs metering this usage event_type; absent or null = every charge (fees and usage)',
        }),
      })
      .optional(),
  })
  .openapi('CreateSpendAlertRequest');

export const ResetSpendAlertSchema = z
  .strictObject({ threshold_nanos: PositiveMoneySchema.optional().openapi({ description: 'a new threshold, e.g. a raised limit' }) })
  .openapi('ResetSpendAlertRequest');

export const AlertParamsSchema = z.object({ id: UuidSchema, alert_id: UuidSchema });
export const ListSpendAlertsQuerySchema = PaginationQuerySchema.extend({ status: SpendAlertStatusSchema.optional() });
