/**
 * The documents handlers: each reads the validated request, calls its service and answers. The route
 * definitions are in routes.ts, the request schemas in schemas.ts.
 */
import type { Context } from 'hono';
import { DomainError } from '../../../errors.js';
import { renewHostedLink, resolveHostedLink, type PdfDocument } from '../../../services/documents/documents.js';
import { DEFAULT_DOCUMENT_SETTINGS } from '../../../services/documents/settings.js';
import { creditNotePdf, hostedInvoicePage, invoicePdf } from '../../../services/documents/documents.js';
import { hostedFormToken, verifyHostedFormToken, type HostedLinkSettings } from '../../../services/documents/hosted-links.js';
import { payHostedInvoice } from '../../../services/documents/hosted-pay.js';
import { hostedExplanationPage } from '../../../services/documents/explanation-page.js';
import type { AppEnv } from '../../context.js';
import { ApiError } from '../../errors.js';
import { ownCustomerId } from '../../actor.js';
import type { App } from '../../context.js';
import { requestContext } from '../../helpers.js';
import { hostedPagesMiddleware } from '../../middleware/hosted-pages.js';
import { invoicePdfRoute, creditNotePdfRoute, hostedPageRoute, hostedPdfRoute, hostedPayRoute, renewHostedLinkRoute, hostedExplanationRoute } from './routes.js';

/** A PDF answer (also the customer portal's). */
export function sendPdf(c: Context<AppEnv>, pdf: PdfDocument) {
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

const linksOf = (c: Context<AppEnv>): HostedLinkSettings => {
  const links = c.get('deps').settings.hostedLinks;
  if (!links) throw new ApiError('hosted_link_not_found', 'no such hosted invoice link');
  return links;
};

/** The hosted page of a link, on this service's public address. */
const pageUrl = (links: HostedLinkSettings, token: string): string => `${links.baseUrl.replace(/\/+$/, '')}/hosted/invoices/${encodeURIComponent(token)}`;

/**
 * A Pay form counts only when it comes from the page itself: a browser names the origin of a
 * cross-site form (Origin, Sec-Fetch-Site), and the form carries the token the page was rendered with.
 */
function checkPayForm(c: Context<AppEnv>, links: HostedLinkSettings, token: string, formToken: string): void {
  const origin = c.req.header('origin');
  const site = c.req.header('sec-fetch-site');
  if ((origin !== undefined && origin !== new URL(links.baseUrl).origin) || (site !== undefined && site !== 'same-origin' && site !== 'none')) {
    throw new ApiError('hosted_form_refused', 'The payment form was sent from another site, not from the invoice page');
  }
  const verdict = verifyHostedFormToken(links.secret, token, formToken, c.get('deps').clock());
  if (verdict === 'stale') throw new ApiError('hosted_form_refused', 'The invoice page was open for more than an hour: reload it and pay again');
  if (verdict !== 'ok') throw new ApiError('hosted_form_refused', 'The payment form did not come from the invoice page: open the invoice link and pay from there');
}

/** The invoice a hosted link opens, or the 404/410 it answers. */
async function hostedInvoiceId(c: Context<AppEnv>, token: string): Promise<string> {
  const { db, clock } = c.get('deps');
  const link = await resolveHostedLink(db, linksOf(c), token, clock());
  if (link.status === 'not_found') throw new ApiError('hosted_link_not_found', 'no such hosted invoice link');
  if (link.status === 'expired') {
    throw new ApiError('hosted_link_expired', 'this invoice link has expired; ask the seller for a new one', { expired_at: link.expiredAt.toISOString() });
  }
  return link.invoiceId;
}

export function registerDocuments(app: App): void {
  // Before the /hosted routes: their answers are for browsers (security headers, HTML error pages).
  app.use('/hosted/*', hostedPagesMiddleware((c) => settingsOf(c).seller.name));

  app.openapi(invoicePdfRoute, async (c) => {
    const { db } = c.get('deps');
    return sendPdf(c, await invoicePdf(db, settingsOf(c), c.req.valid('param').id, ownCustomerId(c)));
  });

  app.openapi(creditNotePdfRoute, async (c) => {
    const { db } = c.get('deps');
    return sendPdf(c, await creditNotePdf(db, settingsOf(c), c.req.valid('param').id, ownCustomerId(c)));
  });

  // A public page: it runs nothing, loads nothing but its own style, and no other site may frame it
  // (the headers are the /hosted middleware's).
  app.openapi(hostedPageRoute, async (c) => {
    const { token } = c.req.valid('param');
    const invoiceId = await hostedInvoiceId(c, token);
    const deps = c.get('deps');
    const link = encodeURIComponent(token);
    const html = await hostedInvoicePage(deps.db, settingsOf(c), invoiceId, {
      pdfHref: `${link}/pdf`,
      explainHref: `${link}/explain`,
      payAction: `${link}/pay`,
      formToken: hostedFormToken(linksOf(c).secret, token, deps.clock()),
      backFromCheckout: c.req.valid('query').checkout === 'complete',
    });
    return c.html(html, 200);
  });

  app.openapi(hostedExplanationRoute, async (c) => {
    const { token } = c.req.valid('param');
    const invoiceId = await hostedInvoiceId(c, token);
    // Relative to /hosted/invoices/{token}/explain: back to /hosted/invoices/{token}.
    return c.html(await hostedExplanationPage(c.get('deps').db, invoiceId, `../${encodeURIComponent(token)}`), 200);
  });

  app.openapi(hostedPayRoute, async (c) => {
    const { token } = c.req.valid('param');
    const form = c.req.valid('form');
    const links = linksOf(c);
    const invoiceId = await hostedInvoiceId(c, token);
    checkPayForm(c, links, token, form.form_token);
    const page = pageUrl(links, token);
    try {
      const outcome = await payHostedInvoice(c.get('deps'), invoiceId, {
        method: form.method,
        // The form's token: the same form sent twice makes one payment (or one checkout session).
        requestKey: form.form_token,
        requestId: c.get('requestId'),
        successUrl: `${page}?checkout=complete`,
        cancelUrl: page,
      });
      return c.redirect(outcome.kind === 'checkout' ? outcome.url : page, 303);
    } catch (err) {
      // Paid or voided meanwhile: the page says so.
      if (err instanceof DomainError && err.kind === 'invalid_transition') return c.redirect(page, 303);
      throw err;
    }
  });

  app.openapi(renewHostedLinkRoute, async (c) => {
    const { db, clock } = c.get('deps');
    const link = await renewHostedLink(db, linksOf(c), c.req.valid('param').id, clock(), requestContext(c));
    return c.json({ hosted_invoice_url: link.url, expires_at: link.expiresAt.toISOString() }, 201);
  });

  app.openapi(hostedPdfRoute, async (c) => {
    const invoiceId = await hostedInvoiceId(c, c.req.valid('param').token);
    return sendPdf(c, await invoicePdf(c.get('deps').db, settingsOf(c), invoiceId));
  });
}
