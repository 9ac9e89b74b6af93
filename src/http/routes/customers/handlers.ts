/**
 * The customers handlers: each reads the validated request, calls its service and answers. The route
 * definitions are in routes.ts, the request schemas in schemas.ts.
 */
import { changeCustomerStatus, createCustomer, getCustomerHierarchy, getCustomerOverview, listCustomers, updateCustomer } from '../../../services/accounts/customers.js';
import { toPage } from '../../../services/pagination.js';
import type { App } from '../../context.js';
import { asIs, requestContext, sendPage } from '../../helpers.js';
import { createCustomerRoute, listCustomersRoute, getCustomerRoute, updateCustomerRoute, changeStatusRoute, hierarchyRoute } from './routes.js';

export function registerCustomers(app: App): void {
  app.openapi(createCustomerRoute, async (c) => {
    const customer = await createCustomer(c.get('deps').db, c.req.valid('json'), requestContext(c));
    return c.json(customer, 201);
  });

  app.openapi(listCustomersRoute, async (c) => {
    const query = c.req.valid('query');
    const customers = await listCustomers(c.get('deps').db, query);
    return sendPage(c, toPage(customers, query.limit, asIs));
  });

  app.openapi(getCustomerRoute, async (c) => {
    const overview = await getCustomerOverview(c.get('deps').db, c.req.valid('param').id);
    return c.json(overview, 200);
  });

  app.openapi(updateCustomerRoute, async (c) => {
    const customer = await updateCustomer(c.get('deps').db, c.req.valid('param').id, c.req.valid('json'), requestContext(c));
    return c.json(customer, 200);
  });

  app.openapi(changeStatusRoute, async (c) => {
    const customer = await changeCustomerStatus(c.get('deps').db, c.req.valid('param').id, c.req.valid('json').status, requestContext(c));
    return c.json(customer, 200);
  });

  app.openapi(hierarchyRoute, async (c) => {
    const tree = await getCustomerHierarchy(c.get('deps').db, c.req.valid('param').id);
    return c.json(tree, 200);
  });
}
