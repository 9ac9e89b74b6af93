/**
 * Entitlements (docs/entitlements.md): features in the catalog (/admin/v1/catalog/features), their
 * attachment to plan versions, overrides per subscription and per contract, and what products call:
 * the customer's entitlements and the check (with an optional reservation).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { EntitlementCheckSchema, EntitlementGrantSchema, EntitlementListSchema, FeatureOverrideSchema, FeatureSchema, PlanFeatureSchema } from '../../../schemas/entitlements.js';
import { jsonResponse, mutationRequest, pageResponse } from '../../helpers.js';
import { IdempotencyHeaderSchema, IdParamSchema, PaginationQuerySchema } from '../../schemas.js';
import { AttachFeatureSchema, CheckEntitlementSchema, CreateFeatureSchema, CreateGrantSchema, CustomerGrantParamsSchema, FeatureOverrideRequestSchema, GrantListQuerySchema, OwnerFeatureParamsSchema } from './schemas.js';

const catalogTags = ['Catalog'];
const tags = ['Entitlements'];

export const createFeatureRoute = createRoute({
  method: 'post',
  path: '/admin/v1/catalog/features',
  operationId: 'createFeature',
  tags: catalogTags,
  summary: 'Create a feature',
  description: `A Boolean (on/off), Metered (usage of a meter per billing period) or Static (a value such as seats) feature, named by a
unique \`key\` products check. A Metered feature reads \`meter_id\` or the default meter of \`meter_event_type\` (404 \`meter_not_found\`,
409 \`meter_archived\`, 422 \`meter_event_type_mismatch\`). 409 \`feature_key_taken\`.`,
  request: mutationRequest(CreateFeatureSchema),
  responses: { 201: jsonResponse('The created feature', FeatureSchema) },
});

export const listFeaturesRoute = createRoute({
  method: 'get',
  path: '/admin/v1/catalog/features',
  operationId: 'listFeatures',
  tags: catalogTags,
  summary: 'List features',
  description: 'A JSON array, newest first, paged through headers like the other catalog lists.',
  request: { query: PaginationQuerySchema },
  responses: { 200: pageResponse('One page of features', FeatureSchema, 'FeatureList') },
});

export const getFeatureRoute = createRoute({
  method: 'get',
  path: '/admin/v1/catalog/features/{id}',
  operationId: 'getFeature',
  tags: catalogTags,
  summary: 'Get a feature',
  request: { params: IdParamSchema },
  responses: { 200: jsonResponse('The feature', FeatureSchema) },
});

export const archiveFeatureRoute = createRoute({
  method: 'post',
  path: '/admin/v1/catalog/features/{id}/archive',
  operationId: 'archiveFeature',
  tags: catalogTags,
  summary: 'Archive a feature',
  description: 'No plan, subscription or contract takes it from then on, and it no longer appears in entitlements. Archiving twice changes nothing.',
  request: { params: IdParamSchema, headers: IdempotencyHeaderSchema },
  responses: { 200: jsonResponse('The archived feature', FeatureSchema) },
});

export const attachFeatureRoute = createRoute({
  method: 'post',
  path: '/admin/v1/catalog/plans/{id}/features',
  operationId: 'attachPlanFeature',
  tags: catalogTags,
  summary: 'Attach a feature to the plan (or change its terms)',
  description: `Applies to the plan's current version, or opens version N+1 when a subscription is on it (as a SKU change does).
A Metered feature has \`included_quantity\` per billing period and a \`limit\`: HardStop denies checks beyond it, Overage keeps allowing and
\`overage_sku_id\` (a PerUnit, Package or Graduated SKU of the version, pricing the feature's meter) bills the usage beyond it. The Overage
feature's included quantity is that SKU's free allowance (Package free units, free leading Graduated tiers, 0 for PerUnit), so the invoice's
overage line is exactly the usage beyond it. 404 \`feature_not_found\`, \`sku_not_found\`; 409 \`plan_archived\`, \`feature_archived\`;
422 \`overage_sku_not_on_plan\`, \`overage_sku_model\`, \`overage_sku_meter_mismatch\`, \`included_quantity_mismatch\`, and
\`feature_term_not_applicable\` for a term the feature's kind does not take.`,
  request: { params: IdParamSchema, ...mutationRequest(AttachFeatureSchema) },
  responses: { 201: jsonResponse('The attachment', PlanFeatureSchema) },
});

export const listPlanFeaturesRoute = createRoute({
  method: 'get',
  path: '/admin/v1/catalog/plans/{id}/features',
  operationId: 'listPlanFeatures',
  tags: catalogTags,
  summary: "The plan's feature attachments",
  description: 'Every attachment, newest first, each with the versions holding it: [version_from, version_to).',
  request: { params: IdParamSchema },
  responses: { 200: jsonResponse('The attachments', z.array(PlanFeatureSchema)) },
});

const OVERRIDE_RULES = `Each field set replaces the plan version's term (a subscription's override over its contract's); null keeps the one
below. An override may give a feature the plan lacks. The included quantity of a feature billed by an overage SKU is that SKU's free
allowance: overriding it is 422 \`overage_included_fixed\` unless the override also sets \`limit\` HardStop; a term the feature's kind
does not take is 422 \`feature_term_not_applicable\`. 409 \`feature_archived\`.`;

export const setSubscriptionFeatureRoute = createRoute({
  method: 'put',
  path: '/admin/v1/subscriptions/{id}/features/{feature_id}',
  operationId: 'setSubscriptionFeatureOverride',
  tags,
  summary: "Override a feature's terms for one subscription",
  description: OVERRIDE_RULES,
  request: { params: OwnerFeatureParamsSchema, ...mutationRequest(FeatureOverrideRequestSchema) },
  responses: { 200: jsonResponse('The override, replaced', FeatureOverrideSchema), 201: jsonResponse('The override, created', FeatureOverrideSchema) },
});

export const removeSubscriptionFeatureRoute = createRoute({
  method: 'delete',
  path: '/admin/v1/subscriptions/{id}/features/{feature_id}',
  operationId: 'removeSubscriptionFeatureOverride',
  tags,
  summary: "Remove a subscription's override of a feature",
  description: '404 `feature_override_not_found`.',
  request: { params: OwnerFeatureParamsSchema, headers: IdempotencyHeaderSchema },
  responses: { 204: { description: 'Removed' } },
});

export const setContractFeatureRoute = createRoute({
  method: 'put',
  path: '/admin/v1/contracts/{id}/features/{feature_id}',
  operationId: 'setContractFeatureOverride',
  tags,
  summary: "Override a feature's terms for every subscription of a contract",
  description: OVERRIDE_RULES,
  request: { params: OwnerFeatureParamsSchema, ...mutationRequest(FeatureOverrideRequestSchema) },
  responses: { 200: jsonResponse('The override, replaced', FeatureOverrideSchema), 201: jsonResponse('The override, created', FeatureOverrideSchema) },
});

export const removeContractFeatureRoute = createRoute({
  method: 'delete',
  path: '/admin/v1/contracts/{id}/features/{feature_id}',
  operationId: 'removeContractFeatureOverride',
  tags,
  summary: "Remove a contract's override of a feature",
  description: '404 `feature_override_not_found`.',
  request: { params: OwnerFeatureParamsSchema, headers: IdempotencyHeaderSchema },
  responses: { 204: { description: 'Removed' } },
});

export const listEntitlementsRoute = createRoute({
  method: 'get',
  path: '/v1/customers/{id}/entitlements',
  operationId: 'listEntitlements',
  tags,
  summary: "Every feature the customer's subscriptions give it",
  description: `Per feature: \`has_access\`, and for Metered features \`usage\` of the current billing period (read as the period close
bills it), \`included\`, \`reserved\`, \`balance\` (included − usage − reserved, never below zero), \`overage\` and \`resets_at\` (the period end).
A Metered feature has no access while a HardLimit spend alert of the customer is Triggered. A customer token reads only its own
customer (any other is 404).`,
  request: { params: IdParamSchema },
  responses: { 200: jsonResponse("The customer's entitlements", EntitlementListSchema) },
});

export const checkEntitlementRoute = createRoute({
  method: 'post',
  path: '/v1/entitlements/check',
  operationId: 'checkEntitlement',
  tags,
  summary: 'May the customer use this much more of a feature?',
  description: `Answers \`allowed\` and, when denied, \`reason\`: feature_not_included, feature_disabled, limit_reached (a HardStop
feature's balance is smaller than \`quantity\`), customer_blocked (a HardLimit spend alert is Triggered). An Overage feature keeps
allowing beyond its included quantity. With \`reserve: true\` an allowed quantity of a Metered feature is held for \`ttl_seconds\`
(default 60): concurrent checks never hold more than the balance. Send the usage with \`properties.reservation_id\` set to the
reservation's id to commit it; an unused hold expires. Usage is never refused: an event beyond its reservation counts in full. A
customer token checks only its own customer (any other is 404). 404 \`feature_not_found\` for an unknown key.`,
  request: mutationRequest(CheckEntitlementSchema),
  responses: { 200: jsonResponse('The answer', EntitlementCheckSchema) },
});

export const createGrantRoute = createRoute({
  method: 'post',
  path: '/admin/v1/customers/{id}/entitlement-grants',
  operationId: 'createEntitlementGrant',
  tags,
  summary: 'Grant a customer extra quantity of a metered feature',
  description: `On top of what its subscriptions include: one-off (a lump lasting until used up or \`expires_at\`), or \`recurring\` (the
quantity again each billing period, what is left rolling over up to \`rollover_cap\`). The period's usage burns the included quantity
first, then grants by \`priority\` (lower first), then sooner expiry, then the oldest. Audited \`entitlement_grant.created\`. 404
\`customer_not_found\`, \`feature_not_found\`; 409 \`feature_archived\`; 422 \`grant_feature_not_metered\`, \`grant_quantity_zero\`,
\`rollover_cap_not_recurring\`, \`rollover_cap_above_quantity\`, \`grant_expiry_before_start\`.`,
  request: { params: IdParamSchema, ...mutationRequest(CreateGrantSchema) },
  responses: { 201: jsonResponse('The grant', EntitlementGrantSchema) },
});

export const listGrantsRoute = createRoute({
  method: 'get',
  path: '/admin/v1/customers/{id}/entitlement-grants',
  operationId: 'listEntitlementGrants',
  tags,
  summary: "The customer's entitlement grants",
  description: 'Newest first, voided ones included, optionally of one `feature_id`; paged through headers like the other lists. 404 `customer_not_found`.',
  request: { params: IdParamSchema, query: GrantListQuerySchema },
  responses: { 200: pageResponse('One page of grants', EntitlementGrantSchema, 'EntitlementGrantList') },
});

export const voidGrantRoute = createRoute({
  method: 'post',
  path: '/admin/v1/customers/{id}/entitlement-grants/{grant_id}/void',
  operationId: 'voidEntitlementGrant',
  tags,
  summary: 'Void an entitlement grant',
  description: 'It stops counting at once, with the usage it absorbed this period (that usage falls on the other sources). Audited `entitlement_grant.voided`. 404 `grant_not_found`; 409 `grant_voided`.',
  request: { params: CustomerGrantParamsSchema, headers: IdempotencyHeaderSchema },
  responses: { 200: jsonResponse('The voided grant', EntitlementGrantSchema) },
});
