/**
 * The payments handlers: each reads the validated request, calls its service and answers. The route
 * definitions are in routes.ts, the request schemas in schemas.ts.
 */
import { z } from '@hono/zod-openapi';
import { getInvoiceDunning, listDunning, retryDunning } from '../../../services/payments/dunning.js';
import { runInvoicePayment } from '../../../services/payments/invoice-payments.js';
import { receiveNotification } from '../../../services/payments/notifications.js';
import { attachPaymentMethod, detachPaymentMethod, getPaymentMethod, listPaymentMethods } from '../../../services/payments/payment-methods.js';
import { listEveryPayment, listPayments, getPaymentView } from '../../../services/payments/payments.js';
import { refundInvoice } from '../../../services/payments/refunds.js';
import type { App } from '../../context.js';
import { requestContext, sendPage } from '../../helpers.js';
import { attachRoute, listMethodsRoute, getMethodRoute, detachRoute, listPaymentsRoute, listAllPaymentsRoute, createIntentRoute, captureRoute, refundRoute, listDunningRoute, invoiceDunningRoute, retryDunningRoute, webhookRoute } from './routes.js';
import { PaymentIntentSchema, RefundRequestSchema } from './schemas.js';

export function registerPayments(app: App): void {
  app.openapi(attachRoute, async (c) => {
    const method = await attachPaymentMethod(c.get('deps'), c.req.valid('param').id, c.req.valid('json'), requestContext(c));
    return c.json(method, 201);
  });

  app.openapi(listMethodsRoute, async (c) => {
    const query = c.req.valid('query');
    return sendPage(c, await listPaymentMethods(c.get('deps'), c.req.valid('param').id, query));
  });

  app.openapi(getMethodRoute, async (c) => c.json(await getPaymentMethod(c.get('deps'), c.req.valid('param').id), 200));

  app.openapi(detachRoute, async (c) =>
    c.json(await detachPaymentMethod(c.get('deps'), c.req.valid('param').id, requestContext(c), c.get('deps').clock()), 200),
  );

  app.openapi(listPaymentsRoute, async (c) => sendPage(c, await listPayments(c.get('deps').db, c.req.valid('param').id, c.req.valid('query'))));

  app.openapi(listAllPaymentsRoute, async (c) => sendPage(c, await listEveryPayment(c.get('deps').db, c.req.valid('query'))));

  app.openapi(createIntentRoute, async (c) => {
    const body = (c.req.valid('json') as z.infer<typeof PaymentIntentSchema> | undefined) ?? {};
    const deps = c.get('deps');
    const result = await runInvoicePayment(deps, c.req.valid('param').id, {
      kind: 'charge',
      ...requestContext(c),
      requestKey: `on_demand:${c.get('requestId')}`,
      source: 'on_demand',
      ...(body.payment_method_id ? { paymentMethodId: body.payment_method_id } : {}),
      ...(body.capture_method ? { captureMethod: body.capture_method } : {}),
    });
    return c.json(await getPaymentView(deps.db, result.paymentId!), 201);
  });

  app.openapi(captureRoute, async (c) => {
    const deps = c.get('deps');
    const result = await runInvoicePayment(deps, c.req.valid('param').id, { kind: 'capture', ...requestContext(c) });
    return c.json(await getPaymentView(deps.db, result.paymentId!), 200);
  });

  app.openapi(refundRoute, async (c) => {
    const body = (c.req.valid('json') as z.infer<typeof RefundRequestSchema> | undefined) ?? {};
    const refund = await refundInvoice(
      c.get('deps'),
      c.req.valid('param').id,
      {
        reason: body.reason ?? 'other',
        ...(body.amount_nanos !== undefined ? { amountNanos: BigInt(body.amount_nanos) } : {}),
        ...(body.payment_id ? { paymentId: body.payment_id } : {}),
      },
      requestContext(c),
    );
    return c.json(refund, 201);
  });

  app.openapi(listDunningRoute, async (c) => {
    const { limit, starting_after, created_gte, created_lt, ...filter } = c.req.valid('query');
    return sendPage(c, await listDunning(c.get('deps').db, filter, { limit, starting_after, created_gte, created_lt }));
  });

  app.openapi(invoiceDunningRoute, async (c) => c.json(await getInvoiceDunning(c.get('deps').db, c.req.valid('param').id), 200));
  app.openapi(retryDunningRoute, async (c) => {
    const deps = c.get('deps');
    return c.json(await retryDunning(deps, c.req.valid('param').id, requestContext(c)), 200);
  });

  app.openapi(webhookRoute, async (c) => {
    const deps = c.get('deps');
    // The raw body as received (the JSON body check read and kept it): the signature covers these bytes.
    const receipt = await receiveNotification(deps, await c.req.text(), c.req.header('stripe-signature'), deps.settings.processorWebhookSecret);
    return c.json(receipt, 200);
  });
}
