/**
 * The entitlements handlers: each reads the validated request, calls its service and answers. The route
 * definitions are in routes.ts, the request schemas in schemas.ts.
 */
import { archiveFeature, attachFeatureToPlan, createFeature, getFeature, listFeatures, listPlanFeatures } from '../../../services/catalog/features.js';
import { checkEntitlement, listEntitlements } from '../../../services/entitlements/entitlements.js';
import { createGrant, listGrants, voidGrant } from '../../../services/entitlements/grants.js';
import { removeFeatureOverride, setFeatureOverride } from '../../../services/entitlements/overrides.js';
import { toPage } from '../../../services/pagination.js';
import { ownCustomerId } from '../../actor.js';
import type { App } from '../../context.js';
import { asIs, requestContext, sendPage } from '../../helpers.js';
import {
  archiveFeatureRoute,
  attachFeatureRoute,
  checkEntitlementRoute,
  createFeatureRoute,
  createGrantRoute,
  getFeatureRoute,
  listEntitlementsRoute,
  listFeaturesRoute,
  listGrantsRoute,
  listPlanFeaturesRoute,
  removeContractFeatureRoute,
  removeSubscriptionFeatureRoute,
  setContractFeatureRoute,
  setSubscriptionFeatureRoute,
  voidGrantRoute,
} from './routes.js';

export function registerEntitlements(app: App): void {
  app.openapi(createFeatureRoute, async (c) => c.json(await createFeature(c.get('deps').db, c.req.valid('json'), requestContext(c)), 201));
  app.openapi(listFeaturesRoute, async (c) => {
    const query = c.req.valid('query');
    return sendPage(c, toPage(await listFeatures(c.get('deps').db, query), query.limit, asIs));
  });
  app.openapi(getFeatureRoute, async (c) => c.json(await getFeature(c.get('deps').db, c.req.valid('param').id), 200));
  app.openapi(archiveFeatureRoute, async (c) => c.json(await archiveFeature(c.get('deps'), c.req.valid('param').id, requestContext(c)), 200));
  app.openapi(attachFeatureRoute, async (c) => c.json(await attachFeatureToPlan(c.get('deps').db, c.req.valid('param').id, c.req.valid('json'), requestContext(c)), 201));
  app.openapi(listPlanFeaturesRoute, async (c) => c.json(await listPlanFeatures(c.get('deps').db, c.req.valid('param').id), 200));

  app.openapi(setSubscriptionFeatureRoute, async (c) => {
    const { id, feature_id } = c.req.valid('param');
    const { override, created } = await setFeatureOverride(c.get('deps'), { subscription_id: id }, feature_id, c.req.valid('json'), requestContext(c));
    return created ? c.json(override, 201) : c.json(override, 200);
  });
  app.openapi(removeSubscriptionFeatureRoute, async (c) => {
    const { id, feature_id } = c.req.valid('param');
    await removeFeatureOverride(c.get('deps'), { subscription_id: id }, feature_id, requestContext(c));
    return c.body(null, 204);
  });
  app.openapi(setContractFeatureRoute, async (c) => {
    const { id, feature_id } = c.req.valid('param');
    const { override, created } = await setFeatureOverride(c.get('deps'), { contract_id: id }, feature_id, c.req.valid('json'), requestContext(c));
    return created ? c.json(override, 201) : c.json(override, 200);
  });
  app.openapi(removeContractFeatureRoute, async (c) => {
    const { id, feature_id } = c.req.valid('param');
    await removeFeatureOverride(c.get('deps'), { contract_id: id }, feature_id, requestContext(c));
    return c.body(null, 204);
  });

  app.openapi(createGrantRoute, async (c) => c.json(await createGrant(c.get('deps'), c.req.valid('param').id, c.req.valid('json'), requestContext(c)), 201));
  app.openapi(listGrantsRoute, async (c) => {
    const { feature_id, ...query } = c.req.valid('query');
    return sendPage(c, toPage(await listGrants(c.get('deps').db, c.req.valid('param').id, feature_id, query), query.limit, asIs));
  });
  app.openapi(voidGrantRoute, async (c) => {
    const { id, grant_id } = c.req.valid('param');
    return c.json(await voidGrant(c.get('deps'), id, grant_id, requestContext(c)), 200);
  });

  app.openapi(listEntitlementsRoute, async (c) => c.json(await listEntitlements(c.get('deps'), c.req.valid('param').id, ownCustomerId(c)), 200));
  app.openapi(checkEntitlementRoute, async (c) => c.json(await checkEntitlement(c.get('deps'), c.req.valid('json'), ownCustomerId(c)), 200));
}
