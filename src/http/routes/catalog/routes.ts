/**
 * /admin/v1/catalog: products, plans and SKUs (SPEC §2 "Product, Plan, SKU", §4), plan versions and
 * migrations, and archiving. Catalog entries are never deleted or edited in place: a plan's prices
 * are versioned, entries are archived. Lists are JSON arrays, newest first, paged through headers
 * (see pageResponse).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { PlanMigrationSchema, PlanSchema, PlanVersionSchema, ProductSchema, SkuSchema } from '../../../schemas/catalog.js';
import { CurrencySchema, UuidSchema } from '../../../schemas/common.js';
import { jsonResponse, mutationRequest, pageResponse } from '../../helpers.js';
import { IdempotencyHeaderSchema, IdParamSchema, PaginationQuerySchema, UpdateMetadataSchema } from '../../schemas.js';
import { CreateProductSchema, CreateSkuSchema, CreatePlanSchema, MigrationRequestSchema } from './schemas.js';

const tags = ['Catalog'];
const IdParams = { params: IdParamSchema };
const LIST_NOTE = 'A JSON array, newest first (created_gte / created_lt narrow by creation time); X-Has-More, X-Next-Cursor (pass it as starting_after) and Link rel="next" headers page through the rest.';

export const createProductRoute = createRoute({
  method: 'post',
  path: '/admin/v1/catalog/products',
  operationId: 'createProduct',
  tags,
  summary: 'Create a product',
  description: 'A product groups plans; its tags select the contract rate overrides that apply to its SKUs. Products are never deleted, only archived.',
  request: mutationRequest(CreateProductSchema),
  responses: { 201: jsonResponse('The created product', ProductSchema) },
});

export const listProductsRoute = createRoute({
  method: 'get',
  path: '/admin/v1/catalog/products',
  operationId: 'listProducts',
  tags,
  summary: 'List products',
  description: LIST_NOTE,
  request: { query: PaginationQuerySchema },
  responses: { 200: pageResponse('One page of products', ProductSchema, 'ProductList') },
});

export const getProductRoute = createRoute({
  method: 'get',
  path: '/admin/v1/catalog/products/{id}',
  operationId: 'getProduct',
  tags,
  summary: 'Get a product',
  description: 'The product with its tags, archived or not.',
  request: IdParams,
  responses: { 200: jsonResponse('The product', ProductSchema) },
});

export const createPlanRoute = createRoute({
  method: 'post',
  path: '/admin/v1/catalog/plans',
  operationId: 'createPlan',
  tags,
  summary: 'Create a plan',
  description: 'An unknown product_id is 404 `product_not_found`, an archived one 409 `product_archived`. SKUs are added with POST /admin/v1/catalog/skus.',
  request: mutationRequest(CreatePlanSchema),
  responses: { 201: jsonResponse('The created plan (without SKUs yet)', PlanSchema) },
});

export const listPlansRoute = createRoute({
  method: 'get',
  path: '/admin/v1/catalog/plans',
  operationId: 'listPlans',
  tags,
  summary: 'List plans with their SKUs',
  description: `${LIST_NOTE} Filter by product_id and currency (plans with a SKU in it).`,
  request: {
    query: PaginationQuerySchema.extend({
      product_id: UuidSchema.optional().openapi({ description: 'only plans of this product' }),
      currency: CurrencySchema.optional().openapi({ description: 'only plans priced in this currency' }),
    }),
  },
  responses: { 200: pageResponse('One page of plans', PlanSchema, 'PlanList') },
});

export const getPlanRoute = createRoute({
  method: 'get',
  path: '/admin/v1/catalog/plans/{id}',
  operationId: 'getPlan',
  tags,
  summary: 'Get a plan with its SKUs',
  description: 'The plan with its version, its SKUs and its metadata, archived or not.',
  request: IdParams,
  responses: { 200: jsonResponse('The plan', PlanSchema) },
});

export const updatePlanRoute = createRoute({
  method: 'patch',
  path: '/admin/v1/catalog/plans/{id}',
  operationId: 'updatePlan',
  tags,
  summary: "Update a plan's metadata",
  description:
    'metadata only (your own key/value pairs, never read by billing), archived or not: the keys sent are merged in, a key set to ' +
    'null is removed. It changes no price, so it opens no new plan version; prices change through SKUs.',
  request: { params: IdParamSchema, ...mutationRequest(UpdateMetadataSchema) },
  responses: { 200: jsonResponse('The plan', PlanSchema) },
});

export const createSkuRoute = createRoute({
  method: 'post',
  path: '/admin/v1/catalog/skus',
  operationId: 'createSku',
  tags,
  summary: 'Add a SKU (price) to a plan',
  description: `The price is validated as the rating core will use it; every problem is one entry of details.issues naming its field
(e.g. \`tiers.1.up_to\`) with a code:
- Graduated and Volume need tiers (\`tiers_required\`) with positive, strictly increasing whole-unit bounds
  (\`tier_bound_not_positive\`, \`tier_bounds_not_increasing\`), only the last one unbounded (\`unbounded_tier_not_last\`,
  \`last_tier_must_be_unbounded\`); other models take no tiers (\`tiers_not_allowed\`).
- meter_id or meter_event_type is required for every model but Flat (\`meter_required\`). meter_id prices that meter (404
  \`meter_not_found\`, 409 \`meter_archived\`; a meter_event_type other than the meter's is 422 \`meter_event_type_mismatch\`);
  meter_event_type alone prices the event type's default meter (the first one created for it). unit_amount_nanos is required except for
  Graduated and Volume (\`unit_amount_required\`); prices are non-negative except Flat and PerUnit credits (\`negative_price\`).
- Package needs package_size (\`invalid_package_size\`); Committed needs commit_amount_nanos and overage_unit_amount_nanos and a
  positive unit_amount_nanos; package and commit fields on other models are \`field_not_applicable\`.
- A Percentage SKU takes meter_event_type, not meter_id (422 \`meter_not_applicable\`).
- Dimensional pricing: \`group_by\` (1–3 event properties) prices per dimension value, one invoice line per value; \`dimension_prices\`
  lists values with their own price (any of PerUnit, Graduated, Volume, Package, validated like the SKU's: issues under
  \`dimension_prices.<i>\`); every other value, and events without the property, take the SKU's own price. \`tier_scope\`:
  \`per_value\` (default) or \`across_all\`. It needs meter_id naming a BillingPeriod meter aggregating Sum, Count, Max or UniqueCount
  (422 \`group_by_meter_unsupported\`); the SKU's model must be one of those four (\`group_by_not_applicable\`). At most 1,000 values
  per period get their own line; later ones are billed together in one \`other\` line at the SKU's price.
- Unknown plan_id: 404 \`plan_not_found\`. All SKUs of a plan share one currency: 409 \`plan_currency_mismatch\`.
- An archived plan takes no SKUs (409 \`plan_archived\`); an event type whose default meter is archived cannot be priced by meter_event_type alone (409 \`meter_archived\`).

The SKU joins the plan's current version while no subscription is on it; otherwise it opens version N+1 (which new
subscriptions take) and subscriptions on earlier versions are not billed for it (see the plan's versions).`,
  request: mutationRequest(CreateSkuSchema),
  responses: { 201: jsonResponse('The created SKU', SkuSchema) },
});

export const listSkusRoute = createRoute({
  method: 'get',
  path: '/admin/v1/catalog/skus',
  operationId: 'listSkus',
  tags,
  summary: 'List SKUs',
  description: `${LIST_NOTE} Filter by plan_id and currency.`,
  request: { query: PaginationQuerySchema.extend({ plan_id: UuidSchema.optional(), currency: CurrencySchema.optional() }) },
  responses: { 200: pageResponse('One page of SKUs', SkuSchema, 'SkuList') },
});

export const getSkuRoute = createRoute({
  method: 'get',
  path: '/admin/v1/catalog/skus/{id}',
  operationId: 'getSku',
  tags,
  summary: 'Get a SKU',
  description: 'The SKU with its pricing model, prices and tiers, archived or not.',
  request: IdParams,
  responses: { 200: jsonResponse('The SKU', SkuSchema) },
});

const archiveRoute = (operationId: string, path: string, summary: string, description: string, response: string, schema: z.ZodType) =>
  createRoute({
    method: 'post',
    path,
    operationId,
    tags,
    summary,
    description: `${description} Archiving is not deleting: the record stays readable, and archiving it again returns it unchanged.`,
    request: { params: IdParamSchema, headers: IdempotencyHeaderSchema },
    responses: { 200: jsonResponse(response, schema) },
  });

export const archiveProductRoute = archiveRoute(
  'archiveProduct',
  '/admin/v1/catalog/products/{id}/archive',
  'Archive a product',
  'New plans under it (409 product_archived) and new subscriptions to its plans are refused; subscriptions already on them keep billing.',
  'The archived product',
  ProductSchema,
);

export const archivePlanRoute = archiveRoute(
  'archivePlan',
  '/admin/v1/catalog/plans/{id}/archive',
  'Archive a plan',
  'New subscriptions, new SKUs, plan changes into it and migrations are refused (409 plan_archived); subscriptions already on it keep billing on their version.',
  'The archived plan',
  PlanSchema,
);

export const archiveSkuRoute = archiveRoute(
  'archiveSku',
  '/admin/v1/catalog/skus/{id}/archive',
  'Archive a SKU (remove it from its plan)',
  "Takes the SKU out of its plan's current version, or, when a subscription is on that version, out of a new version N+1 " +
    '(version_to is set): subscriptions on earlier versions keep being billed for it. To change a price, archive the SKU and add ' +
    'the new one: both land in the same new version.',
  'The archived SKU',
  SkuSchema,
);

export const listPlanVersionsRoute = createRoute({
  method: 'get',
  path: '/admin/v1/catalog/plans/{id}/versions',
  operationId: 'listPlanVersions',
  tags,
  summary: "List a plan's versions with their SKUs",
  description: 'Newest first. Each version lists the SKUs it holds and how many subscriptions are on it.',
  request: IdParams,
  responses: { 200: jsonResponse('The versions of the plan', z.array(PlanVersionSchema)) },
});

export const migratePlanRoute = createRoute({
  method: 'post',
  path: '/admin/v1/catalog/plans/{id}/migrations',
  operationId: 'migratePlanSubscriptions',
  tags,
  summary: "Move a plan's subscriptions to another version (preview first)",
  description:
    'Trialing, Active and PastDue subscriptions of the plan on another version (or on from_version) move to to_version through the ' +
    "change-plan update of each subscription's workflow, effective at its now, with the same proration as change-plan: the period's " +
    "Draft carries the old version's recurring fees for the days used and the new version's for the rest. With preview: true nothing " +
    'changes; the answer lists the subscriptions, their SKU changes and the Flat-fee proration. A refused move is reported in its ' +
    'item (result failed, error) and the others still move. remaining_count > 0: send the request again for the next batch. ' +
    'An archived plan is 409 `plan_archived` (move its subscriptions with change-plan); a version the plan does not have is 404 ' +
    '`plan_version_not_found`; from_version equal to to_version is 422 `same_plan`; a target version without SKUs 422 `plan_has_no_skus`.',
  request: { params: IdParamSchema, ...mutationRequest(MigrationRequestSchema) },
  responses: { 200: jsonResponse('The migration (or its preview)', PlanMigrationSchema) },
});
