/**
 * Spend alerts (SPEC §1, §4 GET/POST /admin/v1/customers/:id/alerts) and the entitlement a
 * customer's product polls. The rules live in src/services/alerts/; the descriptions publish them.
 */
import { createRoute } from '@hono/zod-openapi';
import { EntitlementSchema, SpendAlertSchema } from '../../../schemas/spend-alerts.js';
import { jsonResponse, mutationRequest, pageResponse } from '../../helpers.js';
import { IdempotencyHeaderSchema, IdParamSchema } from '../../schemas.js';
import { CreateSpendAlertSchema, ResetSpendAlertSchema, AlertParamsSchema, ListSpendAlertsQuerySchema } from './schemas.js';

const tags = ['Spend alerts'];

const RULES = `An alert compares the customer's **current-period spend** with \`threshold_nanos\`: the charges of its subscriptions in
the alert's currency for their current billing period, rated cumulatively to the customer's now (recurring fees and usage, before
tax and credits), optionally only the SKUs metering \`scope.meter_event_type\`. Usage is evaluated shortly after it is recorded
(debounced per customer), never per event. When the spend reaches the threshold the alert moves Armed → Triggered and one
\`spend_alert.triggered\` event (data: alert_type, customer_id, threshold_nanos, alert_id, currency, spend_nanos) is written, once
per crossing. A HardLimit also marks the customer \`blocked\` (GET /v1/customers/{id}/entitlement) while Triggered, and caps what
the period's invoices charge at the threshold (a \`spend_cap\` line and \`spend_cap_withheld_nanos\` on the invoice); usage is still
recorded. At each billing period start Triggered alerts are Armed again.`;

export const create = createRoute({
  method: 'post',
  path: '/admin/v1/customers/{id}/alerts',
  operationId: 'createSpendAlert',
  tags,
  summary: 'Create a spend alert',
  description: `${RULES}\n\nThe new alert is evaluated at once. 404 \`customer_not_found\`; 422 \`customer_closed\`.`,
  request: { params: IdParamSchema, ...mutationRequest(CreateSpendAlertSchema) },
  responses: { 201: jsonResponse('The created alert, Armed', SpendAlertSchema) },
});

export const list = createRoute({
  method: 'get',
  path: '/admin/v1/customers/{id}/alerts',
  operationId: 'listSpendAlerts',
  tags,
  summary: "List the customer's spend alerts",
  description: 'Only this customer\'s alerts, newest first, each with its state and history; filter by status.',
  request: { params: IdParamSchema, query: ListSpendAlertsQuerySchema },
  responses: { 200: pageResponse('One page of alerts', SpendAlertSchema, 'SpendAlertList') },
});

export const get = createRoute({
  method: 'get',
  path: '/admin/v1/customers/{id}/alerts/{alert_id}',
  operationId: 'getSpendAlert',
  tags,
  summary: 'Get a spend alert with its history',
  description: 'The alert with its threshold, scope and status, its last evaluation, and every state change (history), oldest first.',
  request: { params: AlertParamsSchema },
  responses: { 200: jsonResponse('The alert', SpendAlertSchema) },
});

export const remove = createRoute({
  method: 'delete',
  path: '/admin/v1/customers/{id}/alerts/{alert_id}',
  operationId: 'disableSpendAlert',
  tags,
  summary: 'Disable a spend alert',
  description: 'The alert becomes Disabled (final, kept with its history): it no longer notifies, blocks or caps invoices finalized from now on.',
  request: { params: AlertParamsSchema, headers: IdempotencyHeaderSchema },
  responses: { 200: jsonResponse('The disabled alert', SpendAlertSchema) },
});

export const reset = createRoute({
  method: 'post',
  path: '/admin/v1/customers/{id}/alerts/{alert_id}/reset',
  operationId: 'resetSpendAlert',
  tags,
  summary: 'Reset a spend alert',
  description: `A Triggered alert is Armed again at once (a HardLimit no longer blocks the customer), optionally with a new
\`threshold_nanos\`. The period's spend so far stays its baseline: it triggers again only when the spend crosses its threshold anew
(a raised threshold that the spend reaches, or in a later period). The cap on invoices is the alert's threshold at finalization, so
raise the threshold to let more be charged. 409 \`invalid_state_transition\` for a Disabled alert.`,
  request: { params: AlertParamsSchema, ...mutationRequest(ResetSpendAlertSchema, false) },
  responses: { 200: jsonResponse('The alert', SpendAlertSchema) },
});

export const entitlement = createRoute({
  method: 'get',
  path: '/v1/customers/{id}/entitlement',
  operationId: 'getEntitlement',
  tags,
  summary: "The customer's entitlement: active or blocked",
  description: `What the customer's product polls to stop serving it: \`blocked\` while a HardLimit spend alert of the customer is
Triggered (until the next billing period starts or an admin resets the alert), else \`active\`. A customer token may read only its
own customer (any other is 404).`,
  request: { params: IdParamSchema },
  responses: { 200: jsonResponse('The entitlement', EntitlementSchema) },
});
