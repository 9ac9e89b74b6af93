import { creditNotePdf,hostedInvoicePage,invoicePdf } from '../../../services/documents/documents.js';
import { HOSTED_PAGE_CSP } from '../../../services/documents/html.js';
import { ownCustomerId } from '../../actor.js';
import type { App } from '../../context.js';
import { invoicePdfRoute,creditNotePdfRoute,hostedPageRoute,hostedPdfRoute,sendPdf,settingsOf,hostedInvoiceId } from './routes.js';

export function registerDocuments(app: App): void {
  app.openapi(invoicePdfRoute, async (c) => {
    const { db } = c.get('deps');
    return sendPdf(c, await invoicePdf(db, settingsOf(c), c.req.valid('param').id, ownCustomerId(c)));
  });

  app.openapi(creditNotePdfRoute, async (c) => {
    const { db } = c.get('deps');
    return sendPdf(c, await creditNotePdf(db, settingsOf(c), c.req.valid('param').id, ownCustomerId(c)));
  });

  app.openapi(hostedPageRoute, async (c) => {
    const { token } = c.req.valid('param');
    const invoiceId = await hostedInvoiceId(c, token);
    const html = await hostedInvoicePage(c.get('deps').db, settingsOf(c), invoiceId, `${encodeURIComponent(token)}/pdf`);
    c.header('Cache-Control', 'private, no-store');
    c.header('Referrer-Policy', 'no-referrer');
    c.header('X-Robots-Tag', 'noindex');
    // A public page: it runs nothing, loads nothing but its own style, and no other site may frame it.
    c.header('Content-Security-Policy', HOSTED_PAGE_CSP);
    c.header('X-Frame-Options', 'DENY');
    c.header('X-Content-Type-Options', 'nosniff');
    return c.html(html, 200);
  });

  app.openapi(hostedPdfRoute, async (c) => {
    const invoiceId = await hostedInvoiceId(c, c.req.valid('param').token);
    return sendPdf(c, await invoicePdf(c.get('deps').db, settingsOf(c), invoiceId));
  });
}
