/**
 * /admin/v1/catalog: products, plans and SKUs (SPEC §2 "Product, Plan, SKU", §4). Catalog entries
 * are immutable once created. Lists are JSON arrays in creation order, paged through headers (see
 * pageResponse).
 */
import { createRoute, z } from '@hono/zod-openapi';
import {
  createPlan,
  createProduct,
  createSku,
  getPlan,
  getProduct,
  getSku,
  listPlans,
  listProducts,
  listSkus,
} from '../../services/catalog/catalog.js';
import { toPage } from '../../services/pagination.js';
import {
  BillingCadenceSchema,
  PackageRoundingSchema,
  PlanSchema,
  PricingModelSchema,
  ProductSchema,
  SkuSchema,
  TierInputSchema,
} from '../../schemas/catalog.js';
import { CurrencySchema, MoneySchema, UuidSchema } from '../../schemas/common.js';
import type { App } from '../context.js';
import { commonErrorResponses } from '../errors.js';
import { asIs, jsonResponse, mutationRequest, pageResponse, requestContext, sendPage } from '../helpers.js';
import { IdParamSchema, PaginationQuerySchema } from '../schemas.js';

const NameSchema = z.string().trim().min(1, 'must not be empty').max(200);
const DescriptionSchema = z.string().max(2000).optional().openapi({ description: 'default ""' });

const CreateProductSchema = z
  .strictObject({
    name: NameSchema,
    description: DescriptionSchema,
    tags: z
      .array(z.string().trim().min(1, 'must not be empty').max(64))
      .max(50)
      .refine((tags) => new Set(tags).size === tags.length, 'must not repeat a tag')
      .optional()
      .openapi({ description: 'matched by contract rate overrides (product_tag); default []' }),
  })
  .openapi('CreateProductRequest');

const CreateSkuSchema = z
  .strictObject({
    plan_id: UuidSchema,
    name: NameSchema,
    pricing_model: PricingModelSchema,
    unit_amount_nanos: MoneySchema.optional().openapi({
      description:
        'price per unit (PerUnit), fee (Flat), price per package (Package), value of a unit against the commit (Committed); ' +
        'optional for Graduated and Volume (default "0", unused)',
    }),
    meter_event_type: z.string().trim().min(1, 'must not be empty').max(200).optional().openapi({
      description: 'usage event_type this SKU rates; required for every model but Flat',
    }),
    currency: CurrencySchema,
    tiers: z.array(TierInputSchema).max(100).optional().openapi({ description: 'Graduated and Volume only; at least one, the last unbounded' }),
    package_size: z
      .string()
      .regex(/^[1-9][0-9]{0,37}$/, 'must be a positive decimal-integer string')
      .optional()
      .openapi({ description: 'Package only: units per package', example: '1000' }),
    package_rounding: PackageRoundingSchema.optional().openapi({ description: 'Package only: a partial package is billed (Up, default) or not (Down)' }),
    commit_amount_nanos: MoneySchema.optional().openapi({ description: 'Committed only: minimum charge per period' }),
    overage_unit_amount_nanos: MoneySchema.optional().openapi({ description: 'Committed only: price per unit beyond the commit' }),
  })
  .openapi('CreateSkuRequest');

const CreatePlanSchema = z
  .strictObject({
    name: NameSchema,
    description: DescriptionSchema,
    billing_cadence: BillingCadenceSchema,
    trial_days: z.number().int().min(0).max(730).optional().openapi({ description: '0-730, default 0' }),
    product_id: UuidSchema.nullable().optional().openapi({ description: 'the product this plan sells; must exist' }),
  })
  .openapi('CreatePlanRequest');

const tags = ['Catalog'];
const IdParams = { params: IdParamSchema };
const LIST_NOTE = 'A JSON array in creation order; X-Has-More, X-Next-Cursor (pass it as starting_after) and Link rel="next" headers page through the rest.';

const createProductRoute = createRoute({
  method: 'post',
  path: '/admin/v1/catalog/products',
  tags,
  summary: 'Create a product',
  request: mutationRequest(CreateProductSchema),
  responses: { 201: jsonResponse('The created product', ProductSchema), ...commonErrorResponses },
});

const listProductsRoute = createRoute({
  method: 'get',
  path: '/admin/v1/catalog/products',
  tags,
  summary: 'List products',
  description: LIST_NOTE,
  request: { query: PaginationQuerySchema },
  responses: { 200: pageResponse('One page of products', ProductSchema, 'ProductList'), ...commonErrorResponses },
});

const getProductRoute = createRoute({
  method: 'get',
  path: '/admin/v1/catalog/products/{id}',
  tags,
  summary: 'Get a product',
  request: IdParams,
  responses: { 200: jsonResponse('The product', ProductSchema), ...commonErrorResponses },
});

const createPlanRoute = createRoute({
  method: 'post',
  path: '/admin/v1/catalog/plans',
  tags,
  summary: 'Create a plan',
  description: 'An unknown product_id is 404 `product_not_found`. SKUs are added with POST /admin/v1/catalog/skus.',
  request: mutationRequest(CreatePlanSchema),
  responses: { 201: jsonResponse('The created plan (without SKUs yet)', PlanSchema), ...commonErrorResponses },
});

const listPlansRoute = createRoute({
  method: 'get',
  path: '/admin/v1/catalog/plans',
  tags,
  summary: 'List plans with their SKUs',
  description: LIST_NOTE,
  request: { query: PaginationQuerySchema },
  responses: { 200: pageResponse('One page of plans', PlanSchema, 'PlanList'), ...commonErrorResponses },
});

const getPlanRoute = createRoute({
  method: 'get',
  path: '/admin/v1/catalog/plans/{id}',
  tags,
  summary: 'Get a plan with its SKUs',
  request: IdParams,
  responses: { 200: jsonResponse('The plan', PlanSchema), ...commonErrorResponses },
});

const createSkuRoute = createRoute({
  method: 'post',
  path: '/admin/v1/catalog/skus',
  tags,
  summary: 'Add a SKU (price) to a plan',
  description: `The price is validated as the rating core will use it; every problem is one entry of details.issues naming its field
(e.g. \`tiers.1.up_to\`) with a code:
- Graduated and Volume need tiers (\`tiers_required\`) with positive, strictly increasing whole-unit bounds
  (\`tier_bound_not_positive\`, \`tier_bounds_not_increasing\`), only the last one unbounded (\`unbounded_tier_not_last\`,
  \`last_tier_must_be_unbounded\`); other models take no tiers (\`tiers_not_allowed\`).
- meter_event_type is required for every model but Flat (\`meter_required\`); unit_amount_nanos is required except for
  Graduated and Volume (\`unit_amount_required\`); prices are non-negative except Flat and PerUnit credits (\`negative_price\`).
- Package needs package_size (\`invalid_package_size\`); Committed needs commit_amount_nanos and overage_unit_amount_nanos and a
  positive unit_amount_nanos; package and commit fields on other models are \`field_not_applicable\`.
- Unknown plan_id: 404 \`plan_not_found\`. All SKUs of a plan share one currency: 409 \`plan_currency_mismatch\`.`,
  request: mutationRequest(CreateSkuSchema),
  responses: { 201: jsonResponse('The created SKU', SkuSchema), ...commonErrorResponses },
});

const listSkusRoute = createRoute({
  method: 'get',
  path: '/admin/v1/catalog/skus',
  tags,
  summary: 'List SKUs',
  description: `${LIST_NOTE} Filter by plan_id.`,
  request: { query: PaginationQuerySchema.extend({ plan_id: UuidSchema.optional() }) },
  responses: { 200: pageResponse('One page of SKUs', SkuSchema, 'SkuList'), ...commonErrorResponses },
});

const getSkuRoute = createRoute({
  method: 'get',
  path: '/admin/v1/catalog/skus/{id}',
  tags,
  summary: 'Get a SKU',
  request: IdParams,
  responses: { 200: jsonResponse('The SKU', SkuSchema), ...commonErrorResponses },
});

export function registerCatalog(app: App): void {
  app.openapi(createProductRoute, async (c) => {
    const body = c.req.valid('json');
    const product = await createProduct(c.get('deps').db, { name: body.name, description: body.description ?? '', tags: body.tags ?? [] }, requestContext(c));
    return c.json(product, 201);
  });

  app.openapi(listProductsRoute, async (c) => {
    const query = c.req.valid('query');
    return sendPage(c, toPage(await listProducts(c.get('deps').db, query), query.limit, asIs));
  });

  app.openapi(getProductRoute, async (c) => c.json(await getProduct(c.get('deps').db, c.req.valid('param').id), 200));

  app.openapi(createPlanRoute, async (c) => {
    const body = c.req.valid('json');
    const plan = await createPlan(
      c.get('deps').db,
      {
        name: body.name,
        description: body.description ?? '',
        billing_cadence: body.billing_cadence,
        trial_days: body.trial_days ?? 0,
        product_id: body.product_id ?? null,
      },
      requestContext(c),
    );
    return c.json(plan, 201);
  });

  app.openapi(listPlansRoute, async (c) => {
    const query = c.req.valid('query');
    return sendPage(c, toPage(await listPlans(c.get('deps').db, query), query.limit, asIs));
  });

  app.openapi(getPlanRoute, async (c) => c.json(await getPlan(c.get('deps').db, c.req.valid('param').id), 200));

  app.openapi(createSkuRoute, async (c) => c.json(await createSku(c.get('deps').db, c.req.valid('json'), requestContext(c)), 201));

  app.openapi(listSkusRoute, async (c) => {
    const query = c.req.valid('query');
    return sendPage(c, toPage(await listSkus(c.get('deps').db, query), query.limit, asIs));
  });

  app.openapi(getSkuRoute, async (c) => c.json(await getSku(c.get('deps').db, c.req.valid('param').id), 200));
}
