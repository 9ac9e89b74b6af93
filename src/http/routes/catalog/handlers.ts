/**
 * The catalog handlers: each reads the validated request, calls its service and answers. The route
 * definitions are in routes.ts, the request schemas in schemas.ts.
 */
import { createPlan, createProduct, createSku, getPlan, getProduct, getSku, listPlans, listProducts, listSkus, updatePlanMetadata } from '../../../services/catalog/catalog.js';
import { archivePlan, archiveProduct, archiveSku } from '../../../services/catalog/archiving.js';
import { migratePlan } from '../../../services/subscriptions/plan-migrations.js';
import { listPlanVersions } from '../../../services/catalog/versions.js';
import { toPage } from '../../../services/pagination.js';
import type { App } from '../../context.js';
import { asIs, requestContext, sendPage } from '../../helpers.js';
import { createProductRoute, listProductsRoute, getProductRoute, createPlanRoute, listPlansRoute, getPlanRoute, updatePlanRoute, createSkuRoute, listSkusRoute, getSkuRoute, archiveProductRoute, archivePlanRoute, archiveSkuRoute, listPlanVersionsRoute, migratePlanRoute } from './routes.js';

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
        metadata: body.metadata,
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

  app.openapi(updatePlanRoute, async (c) =>
    c.json(await updatePlanMetadata(c.get('deps').db, c.req.valid('param').id, c.req.valid('json').metadata, requestContext(c)), 200),
  );

  app.openapi(createSkuRoute, async (c) => c.json(await createSku(c.get('deps').db, c.req.valid('json'), requestContext(c)), 201));

  app.openapi(listSkusRoute, async (c) => {
    const query = c.req.valid('query');
    return sendPage(c, toPage(await listSkus(c.get('deps').db, query), query.limit, asIs));
  });

  app.openapi(getSkuRoute, async (c) => c.json(await getSku(c.get('deps').db, c.req.valid('param').id), 200));

  app.openapi(archiveProductRoute, async (c) => c.json(await archiveProduct(c.get('deps'), c.req.valid('param').id, requestContext(c)), 200));
  app.openapi(archivePlanRoute, async (c) => c.json(await archivePlan(c.get('deps'), c.req.valid('param').id, requestContext(c)), 200));
  app.openapi(archiveSkuRoute, async (c) => c.json(await archiveSku(c.get('deps'), c.req.valid('param').id, requestContext(c)), 200));
  app.openapi(listPlanVersionsRoute, async (c) => c.json(await listPlanVersions(c.get('deps'), c.req.valid('param').id), 200));
  app.openapi(migratePlanRoute, async (c) =>
    c.json(await migratePlan(c.get('deps'), c.req.valid('param').id, c.req.valid('json'), requestContext(c)), 200),
  );
}
