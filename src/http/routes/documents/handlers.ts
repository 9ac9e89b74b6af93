/**
 * The documents handlers: each reads the validated request, calls its service and answers. The route
 * definitions are in routes.ts, the request schemas in schemas.ts.
 */
import type { Context } from 'hono';
import { resolveHostedLink, type PdfDocument } from '../../../services/documents/documents.js';
import { DEFAULT_DOCUMENT_SETTINGS } from '../../../services/documents/settings.js';
import { creditNotePdf, hostedInvoicePage, invoicePdf } from '../../../services/documents/documents.js';
import { hostedExplanationPage } from '../../../services/documents/explanation-page.js';
import { HOSTED_PAGE_CSP } from '../../../services/documents/html.js';
import type { AppEnv } from '../../context.js';
import { ApiError } from '../../errors.js';
import { ownCustomerId } from '../../actor.js';
import type { App } from '../../context.js';
import { invoicePdfRoute, creditNotePdfRoute, hostedPageRoute, hostedPdfRoute, hostedExplanationRoute } from './routes.js';

function sendPdf(c: Context<AppEnv>, pdf: PdfDocument) {
  return c.body(Buffer.from(pdf.content), 200, {
    'Content-Type': 'application/pdf',
    'Content-Disposition': `inline; filename="${pdf.filename}"`,
    'X-Content-Type-Options': 'nosniff',
    'X-Document-SHA256': pdf.sha256,
    ETag: `"${pdf.sha256}"`,
    // A Draft changes; a stored edition never does, but the invoice may move on to another edition.
    'Cache-Control': 'private, no-cache',
    ...(pdf.edition ? { 'X-Document-Edition': pdf.edition } : {}),
  });
}

const settingsOf = (c: Context<AppEnv>) => c.get('deps').settings.documents ?? DEFAULT_DOCUMENT_SETTINGS;

/** The invoice a hosted link opens, or the 404/410 it answers. */
async function hostedInvoiceId(c: Context<AppEnv>, token: string): Promise<string> {
  const { db, settings, clock } = c.get('deps');
  if (!settings.hostedLinks) throw new ApiError('hosted_link_not_found', 'no such hosted invoice link');
  const link = await resolveHostedLink(db, settings.hostedLinks, token, clock());
  if (link.status === 'not_found') throw new ApiError('hosted_link_not_found', 'no such hosted invoice link');
  if (link.status === 'expired') {
    throw new ApiError('hosted_link_expired', 'this invoice link has expired; ask the seller for a new one', { expired_at: link.expiredAt.toISOString() });
  }
  return link.invoiceId;
}

/** A public page: it runs nothing, loads nothing but its own style, and no other site may frame it. */
function sendHostedPage(c: Context<AppEnv>, html: string) {
  c.header('Cache-Control', 'private, no-store');
  c.header('Referrer-Policy', 'no-referrer');
  c.header('X-Robots-Tag', 'noindex');
  c.header('Content-Security-Policy', HOSTED_PAGE_CSP);
  c.header('X-Frame-Options', 'DENY');
  c.header('X-Content-Type-Options', 'nosniff');
  return c.html(html, 200);
}

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
    const link = encodeURIComponent(token);
    return sendHostedPage(c, await hostedInvoicePage(c.get('deps').db, settingsOf(c), invoiceId, `${link}/pdf`, `${link}/explain`));
  });

  app.openapi(hostedExplanationRoute, async (c) => {
    const { token } = c.req.valid('param');
    const invoiceId = await hostedInvoiceId(c, token);
    // Relative to /hosted/invoices/{token}/explain: back to /hosted/invoices/{token}.
    return sendHostedPage(c, await hostedExplanationPage(c.get('deps').db, invoiceId, `../${encodeURIComponent(token)}`));
  });

  app.openapi(hostedPdfRoute, async (c) => {
    const invoiceId = await hostedInvoiceId(c, c.req.valid('param').token);
    return sendPdf(c, await invoicePdf(c.get('deps').db, settingsOf(c), invoiceId));
  });
}
