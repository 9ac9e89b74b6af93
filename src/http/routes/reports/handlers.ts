/**
 * The reports handlers: each reads the validated request, calls its service and answers. The route
 * definitions are in routes.ts, the request schemas in schemas.ts.
 */
import { reconcileCustomer } from '../../../services/reports/reconciliation.js';
import { arAgingCsv, arAgingReport, deferredRevenueCsv, deferredRevenueReport, mrrCsv, mrrMovementsCsv, mrrMovementsReport, mrrReport } from '../../../services/reports/reports.js';
import type { App } from '../../context.js';
import { sendCsv, wantsCsv } from '../../csv.js';
import { arAgingRoute, mrrRoute, mrrMovementsRoute, deferredRoute, reconciliationRoute } from './routes.js';

export function registerReports(app: App): void {
  app.openapi(reconciliationRoute, async (c) => {
    const { customer_id } = c.req.valid('query');
    return c.json(await reconcileCustomer(c.get('deps').db, customer_id, c.get('deps').clock()), 200);
  });

  app.openapi(arAgingRoute, async (c) => {
    const { as_of, customer_id, currency, format } = c.req.valid('query');
    const view = await arAgingReport(c.get('deps'), as_of ? new Date(as_of) : undefined, { customerId: customer_id, currency });
    return wantsCsv(c, format) ? sendCsv(c, arAgingCsv(view), 'ar-aging.csv') : c.json(view, 200);
  });

  app.openapi(mrrRoute, async (c) => {
    const { as_of, customer_id, currency, format } = c.req.valid('query');
    const view = await mrrReport(c.get('deps'), as_of ? new Date(as_of) : c.get('deps').clock(), { customerId: customer_id, currency });
    return wantsCsv(c, format) ? sendCsv(c, mrrCsv(view), 'mrr.csv') : c.json(view, 200);
  });

  app.openapi(mrrMovementsRoute, async (c) => {
    const { from, to, customer_id, currency, format } = c.req.valid('query');
    const view = await mrrMovementsReport(c.get('deps'), { from: new Date(from), to: new Date(to) }, { customerId: customer_id, currency });
    return wantsCsv(c, format) ? sendCsv(c, mrrMovementsCsv(view), 'mrr-movements.csv') : c.json(view, 200);
  });

  app.openapi(deferredRoute, async (c) => {
    const { from, to, customer_id, currency, format } = c.req.valid('query');
    const view = await deferredRevenueReport(c.get('deps'), { from, to }, { customerId: customer_id, currency });
    return wantsCsv(c, format) ? sendCsv(c, deferredRevenueCsv(view), 'deferred-revenue.csv') : c.json(view, 200);
  });
}
