/**
 * The customer portal handlers (issue 32): each reads the validated request, calls its service and
 * answers. The /portal pages share the hosted invoice page's browser middleware (security headers,
 * HTML error pages), with the portal's own CSP and error texts.
 */
import type { Context } from 'hono';
import { invoicePdf } from '../../../services/documents/documents.js';
import { hostedFormToken, hostedInvoiceUrl, verifyHostedFormToken, type HostedLinkSettings } from '../../../services/documents/hosted-links.js';
import { DEFAULT_DOCUMENT_SETTINGS } from '../../../services/documents/settings.js';
import { cancelAtPeriodEnd, completePaymentMethodSetup, startPaymentMethodSetup, type PortalActor } from '../../../services/portal/actions.js';
import { portalOverview } from '../../../services/portal/overview.js';
import { PORTAL_PAGE_CSP, renderPortalPage, renderSignedOutPage, type PortalLinks } from '../../../services/portal/page.js';
import { createPortalSession, DEFAULT_PORTAL_SESSION_TTL_MINUTES, renewPortalSession, resolvePortalSession, revokePortalSession } from '../../../services/portal/sessions.js';
import { ownCustomerId } from '../../actor.js';
import type { App, AppEnv } from '../../context.js';
import { ApiError } from '../../errors.js';
import { notFound } from '../../../errors.js';
import { requestContext } from '../../helpers.js';
import { hostedPagesMiddleware, type ErrorText } from '../../middleware/hosted-pages.js';
import { sendPdf } from '../documents/handlers.js';
import {
  mintOwnPortalSessionRoute,
  mintPortalSessionRoute,
  portalCancelRoute,
  portalInvoicePdfRoute,
  portalPageRoute,
  portalPaymentMethodRoute,
  portalSetupCompleteRoute,
  portalSignOutRoute,
  renewPortalSessionRoute,
  revokePortalSessionRoute,
} from './routes.js';

const PORTAL_ERROR_PAGES: Record<string, ErrorText> = {
  portal_session_not_found: {
    title: 'This billing portal link is not valid',
    message: (_error, seller) => `The link is incomplete or was changed. Open the billing portal again from ${seller}'s site, or ask ${seller} for a new link.`,
  },
  portal_session_expired: {
    title: 'This billing portal link has expired',
    message: (_error, seller) => `For your security, billing portal links work for a limited time. Open the billing portal again from ${seller}'s site to get a new link.`,
  },
  portal_session_revoked: {
    title: 'You are signed out of the billing portal',
    message: (_error, seller) => `This billing portal link was closed. Open the billing portal again from ${seller}'s site to get a new link.`,
  },
  portal_form_refused: {
    title: 'The request was not made',
    message: (error) => `${error.message}. Nothing was changed.`,
  },
  checkout_session_not_found: {
    title: 'This card setup is not known here',
    message: () => 'Go back to the billing portal and add your card again from there. Nothing was changed.',
  },
};

const settingsOf = (c: Context<AppEnv>) => c.get('deps').settings.documents ?? DEFAULT_DOCUMENT_SETTINGS;

/** The portal's address and form key: those of the hosted pages. Without them there is no portal. */
const linksOf = (c: Context<AppEnv>): HostedLinkSettings => {
  const links = c.get('deps').settings.hostedLinks;
  if (!links) throw new ApiError('portal_session_not_found', 'no such portal session');
  return links;
};

const ttlOf = (c: Context<AppEnv>): number => c.get('deps').settings.portalSessionTtlMinutes ?? DEFAULT_PORTAL_SESSION_TTL_MINUTES;

/** The portal page of a link, on this service's public address. */
const pageUrl = (links: HostedLinkSettings, token: string): string => `${links.baseUrl.replace(/\/+$/, '')}/portal/${encodeURIComponent(token)}`;

/** Form tokens of portal pages are signed for the session (not the link), in their own namespace. */
const formSubject = (sessionId: string): string => `portal:${sessionId}`;

/** The session a portal link opens, or the 404/410 it answers. */
async function portalSession(c: Context<AppEnv>, token: string) {
  linksOf(c);
  const resolved = await resolvePortalSession(c.get('deps'), token);
  switch (resolved.status) {
    case 'ok':
      return resolved.session;
    case 'not_found':
      throw new ApiError('portal_session_not_found', 'no such portal session');
    case 'expired':
      throw new ApiError('portal_session_expired', 'this portal link has expired', { expired_at: resolved.expiredAt.toISOString() });
    case 'revoked':
      throw new ApiError('portal_session_revoked', 'this portal session was revoked', { revoked_at: resolved.revokedAt.toISOString() });
  }
}

/**
 * A form counts only when it comes from the portal page itself: a browser names the origin of a
 * cross-site form (Origin, Sec-Fetch-Site), and the form carries the token the page was rendered with.
 */
function checkForm(c: Context<AppEnv>, sessionId: string, formToken: string): void {
  const links = linksOf(c);
  const origin = c.req.header('origin');
  const site = c.req.header('sec-fetch-site');
  if ((origin !== undefined && origin !== new URL(links.baseUrl).origin) || (site !== undefined && site !== 'same-origin' && site !== 'none')) {
    throw new ApiError('portal_form_refused', 'The form was sent from another site, not from the billing portal');
  }
  const verdict = verifyHostedFormToken(links.secret, formSubject(sessionId), formToken, c.get('deps').clock());
  if (verdict === 'stale') throw new ApiError('portal_form_refused', 'The billing portal page was open for more than an hour: reload it and try again');
  if (verdict !== 'ok') throw new ApiError('portal_form_refused', 'The form did not come from the billing portal page: open the portal and try again there');
}

const actorOf = (c: Context<AppEnv>, session: { id: string; customerId: string }): PortalActor => ({
  sessionId: session.id,
  customerId: session.customerId,
  requestId: c.get('requestId'),
});

export function registerPortal(app: App): void {
  // Before the /portal routes: their answers are for browsers (security headers, HTML error pages, the portal's CSP).
  app.use('/portal/*', hostedPagesMiddleware((c) => settingsOf(c).seller.name, { csp: PORTAL_PAGE_CSP, errorPages: PORTAL_ERROR_PAGES }));

  app.openapi(mintPortalSessionRoute, async (c) => {
    const body = c.req.valid('json') ?? {};
    const session = await createPortalSession(c.get('deps'), c.req.valid('param').id, { ttlMinutes: ttlOf(c), baseUrl: linksOf(c).baseUrl, returnUrl: body.return_url }, requestContext(c));
    return c.json(session, 201);
  });

  app.openapi(mintOwnPortalSessionRoute, async (c) => {
    const own = ownCustomerId(c);
    const body = c.req.valid('json') ?? {};
    // A customer token mints its own customer's link only: another customer's id is as unknown to it as any.
    if (own !== undefined && body.customer_id !== undefined && body.customer_id !== own) throw notFound('customer', body.customer_id);
    const customerId = own ?? body.customer_id;
    if (customerId === undefined) {
      throw new ApiError('validation_failed', 'invalid request: customer_id: required with admin credentials', { issues: [{ path: 'customer_id', message: 'required with admin credentials' }] });
    }
    const session = await createPortalSession(c.get('deps'), customerId, { ttlMinutes: ttlOf(c), baseUrl: linksOf(c).baseUrl, returnUrl: body.return_url }, requestContext(c));
    return c.json(session, 201);
  });

  app.openapi(renewPortalSessionRoute, async (c) =>
    c.json(await renewPortalSession(c.get('deps'), c.req.valid('param').id, { ttlMinutes: ttlOf(c), baseUrl: linksOf(c).baseUrl }, requestContext(c)), 200),
  );

  app.openapi(revokePortalSessionRoute, async (c) => c.json(await revokePortalSession(c.get('deps'), c.req.valid('param').id, requestContext(c)), 200));

  // A public page: it runs no script, loads nothing but its own styles, and no other site may frame it.
  app.openapi(portalPageRoute, async (c) => {
    const { token } = c.req.valid('param');
    const session = await portalSession(c, token);
    const deps = c.get('deps');
    const links = linksOf(c);
    const base = encodeURIComponent(token);
    const pageLinks: PortalLinks = {
      pdf: (invoiceId) => `${base}/invoices/${invoiceId}/pdf`,
      pay: (invoice) => (invoice.status === 'Open' && BigInt(invoice.amount_due_nanos) > 0n ? hostedInvoiceUrl(links, invoice) : null),
      paymentMethodAction: `${base}/payment-method`,
      cancelAction: (subscriptionId) => `${base}/subscriptions/${subscriptionId}/cancel`,
      signOutAction: `${base}/sign-out`,
      formToken: hostedFormToken(links.secret, formSubject(session.id), deps.clock()),
      returnUrl: session.returnUrl,
    };
    const overview = await portalOverview(deps, session.customerId);
    const settings = settingsOf(c);
    return c.html(renderPortalPage(overview, pageLinks, settings.locale, c.req.valid('query').notice ?? null, settings.seller.name), 200);
  });

  app.openapi(portalInvoicePdfRoute, async (c) => {
    const { token, id } = c.req.valid('param');
    const session = await portalSession(c, token);
    return sendPdf(c, await invoicePdf(c.get('deps').db, settingsOf(c), id, session.customerId));
  });

  app.openapi(portalPaymentMethodRoute, async (c) => {
    const { token } = c.req.valid('param');
    const session = await portalSession(c, token);
    const { form_token: formToken } = c.req.valid('form');
    checkForm(c, session.id, formToken);
    const page = pageUrl(linksOf(c), token);
    const { url } = await startPaymentMethodSetup(c.get('deps'), actorOf(c, session), {
      successUrl: `${page}/payment-method/complete?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${page}?notice=setup_cancelled`,
      // The form's token: the same form sent twice opens one checkout session.
      requestKey: formToken,
    });
    return c.redirect(url, 303);
  });

  app.openapi(portalSetupCompleteRoute, async (c) => {
    const { token } = c.req.valid('param');
    const session = await portalSession(c, token);
    const done = await completePaymentMethodSetup(c.get('deps'), actorOf(c, session), c.req.valid('query').session_id);
    return c.redirect(`${pageUrl(linksOf(c), token)}?notice=${done.outcome === 'saved' ? 'card_saved' : 'setup_incomplete'}`, 303);
  });

  app.openapi(portalCancelRoute, async (c) => {
    const { token, id } = c.req.valid('param');
    const session = await portalSession(c, token);
    checkForm(c, session.id, c.req.valid('form').form_token);
    await cancelAtPeriodEnd(c.get('deps'), actorOf(c, session), id);
    return c.redirect(`${pageUrl(linksOf(c), token)}?notice=cancel_scheduled#usage`, 303);
  });

  app.openapi(portalSignOutRoute, async (c) => {
    const { token } = c.req.valid('param');
    const session = await portalSession(c, token);
    checkForm(c, session.id, c.req.valid('form').form_token);
    await revokePortalSession(c.get('deps'), session.id, { actor: { type: 'customer', id: session.customerId }, requestId: c.get('requestId') }, session.customerId);
    return c.html(renderSignedOutPage(settingsOf(c).seller.name, session.returnUrl), 200);
  });
}
