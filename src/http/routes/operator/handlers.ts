/**
 * The operator views (docs/operator.md): HTML pages for operators under /admin, beside the JSON
 * admin API (/admin/v1, untouched, still the API key or an admin token). They are browser pages, not
 * API operations, so they are not in the OpenAPI document.
 *
 * GET /admin                         the sign-in form, or (signed in) the overview
 * POST /admin/login                  the admin API key → the session cookie, 303 to /admin
 * POST /admin/logout                 ends the session, 303 to /admin
 * GET /admin/customers/:id, /admin/subscriptions/:id, /admin/invoices/:id
 * POST /admin/held/:entity/:id/retry the Retry button of a held workflow, 303 to /admin
 *
 * Every POST needs a form of this service's own pages: its Origin (or Sec-Fetch-Site) and its token
 * (the session's CSRF token; the login form's signed token); anything else is 403 operator_form_refused.
 */
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { DomainError } from '../../../errors.js';
import { UUID_PATTERN } from '../../../ids.js';
import type { BillingErrorEntity } from '../../../services/failures/billing-errors.js';
import { customerPage, invoicePage, subscriptionPage } from '../../../services/operator-views/details.js';
import { HELD_ENTITIES, retryHeldWorkflow } from '../../../services/operator-views/held.js';
import { loginPage, type PageSession } from '../../../services/operator-views/html.js';
import { operatorOverviewPage, type OverviewNotice } from '../../../services/operator-views/overview.js';
import { DEFAULT_TEMPORAL_UI_URL, type OperatorViewSettings } from '../../../services/operator-views/temporal-links.js';
import type { App, AppEnv } from '../../context.js';
import { ApiError } from '../../errors.js';
import { verifyApiKey } from '../../middleware/auth.js';
import { operatorPagesMiddleware } from '../../middleware/operator-pages.js';
import {
  csrfToken,
  issueSession,
  loginFormToken,
  SESSION_COOKIE,
  SESSION_LIFETIME_SECONDS,
  verifyCsrfToken,
  verifyLoginFormToken,
  verifySession,
  type OperatorSession,
} from '../../operator-session.js';

/** A processor notification's id (the processor's event id); every other held resource has a UUID. */
const PROCESSOR_EVENT_ID = /^[A-Za-z0-9_.:-]{1,255}$/;

const viewSettings = (c: Context<AppEnv>): OperatorViewSettings => {
  const { settings } = c.get('deps');
  return { temporalUiUrl: settings.temporalUiUrl ?? DEFAULT_TEMPORAL_UI_URL, namespace: settings.temporalNamespace };
};

/** Where browsers reach this service: the request's own origin, and PUBLIC_URL's behind a proxy. */
function ownOrigins(c: Context<AppEnv>): Set<string> {
  const origins = new Set([new URL(c.req.url).origin]);
  const publicUrl = c.get('deps').settings.hostedLinks?.baseUrl;
  if (publicUrl) origins.add(new URL(publicUrl).origin);
  return origins;
}

/** Secure cookies when the service is reached over https (the request, or PUBLIC_URL behind a proxy). */
const secure = (c: Context<AppEnv>): boolean => [...ownOrigins(c)].some((origin) => origin.startsWith('https:'));

const refused = (message: string) => new ApiError('operator_form_refused', message);

/** A form counts only when a browser sent it from this service's pages (a browser names a cross-site form's origin). */
function checkSameOrigin(c: Context<AppEnv>): void {
  const origin = c.req.header('origin');
  const site = c.req.header('sec-fetch-site');
  if ((origin !== undefined && !ownOrigins(c).has(origin)) || (site !== undefined && site !== 'same-origin' && site !== 'none')) {
    throw refused('The form was sent from another site, not from the operator pages');
  }
}

async function sessionOf(c: Context<AppEnv>): Promise<OperatorSession | null> {
  const { settings, clock } = c.get('deps');
  return verifySession(settings, getCookie(c, SESSION_COOKIE), clock());
}

const pageSession = (c: Context<AppEnv>, session: OperatorSession): PageSession => ({ csrfToken: csrfToken(c.get('deps').settings.jwtSecret, session) });

/** A signed-in POST: the session, its CSRF token and a same-origin form, or 403. */
async function formSession(c: Context<AppEnv>): Promise<{ session: OperatorSession; form: Record<string, string> }> {
  checkSameOrigin(c);
  const session = await sessionOf(c);
  if (!session) throw refused('Your operator session ended: sign in again, then repeat the action');
  const form = await formOf(c);
  if (!verifyCsrfToken(c.get('deps').settings.jwtSecret, session, form.csrf_token)) {
    throw refused('The form did not come from a page of this session: reload the page and try again');
  }
  return { session, form };
}

async function formOf(c: Context<AppEnv>): Promise<Record<string, string>> {
  const body = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
  return Object.fromEntries(Object.entries(body).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])));
}

/** The audit actor of an operator: the API key the session was opened with, as the API names it. */
const operatorCommand = (c: Context<AppEnv>, session: OperatorSession) => ({ actor: { type: 'api_key' as const, id: session.subject }, requestId: c.get('requestId') });

const ENTITY_LABEL: Record<BillingErrorEntity, string> = {
  subscription: 'subscription',
  invoice: 'invoice',
  dunning_schedule: 'dunning schedule of invoice',
  contract: 'contract',
  processor_event: 'processor notification',
  wallet_top_up: 'wallet top-up',
};

const OUTCOMES = ['cleared', 'held', 'not_held'] as const;
type RetryOutcome = (typeof OUTCOMES)[number];

/** The notice after a retry, from the redirect's query (fixed texts: nothing the query says is shown but a known kind and id). */
function retryNotice(retried: string | undefined, outcome: string | undefined): OverviewNotice | undefined {
  const match = /^([a-z_]+):([A-Za-z0-9_.:-]{1,255})$/.exec(retried ?? '');
  const entity = match?.[1] as BillingErrorEntity | undefined;
  if (!match || !entity || !HELD_ENTITIES.includes(entity) || !OUTCOMES.includes(outcome as RetryOutcome)) return undefined;
  const what = `${ENTITY_LABEL[entity]} ${match[2]}`;
  if (outcome === 'cleared') return { tone: 'ok', text: `Retried the ${what}: the step went through and it is no longer held.` };
  if (outcome === 'held') return { tone: 'error', text: `Retried the ${what}: the step failed again and it is still held.` };
  return { tone: 'ok', text: `The ${what} was not held any more: nothing was retried.` };
}

function validId(entity: BillingErrorEntity, id: string): boolean {
  return entity === 'processor_event' ? PROCESSOR_EVENT_ID.test(id) : UUID_PATTERN.test(id);
}

/** A detail page: signed in (else to the sign-in form), a well-formed id (else 404), then the page. */
function detailPage(kind: 'customer' | 'subscription' | 'invoice', render: (c: Context<AppEnv>, session: PageSession, id: string) => Promise<string>) {
  return async (c: Context<AppEnv>) => {
    const session = await sessionOf(c);
    if (!session) return c.redirect('/admin', 303);
    const id = c.req.param('id') ?? '';
    if (!UUID_PATTERN.test(id)) throw new DomainError('not_found', `${kind}_not_found`, `no ${kind} ${id}`);
    return c.html(await render(c, pageSession(c, session), id.toLowerCase()), 200);
  };
}

export function registerOperatorViews(app: App): void {
  app.use('*', operatorPagesMiddleware());

  app.get('/admin', async (c) => {
    const deps = c.get('deps');
    const session = await sessionOf(c);
    if (!session) return c.html(loginPage(loginFormToken(deps.settings.jwtSecret, deps.clock())), 200);
    const notice = retryNotice(c.req.query('retried'), c.req.query('outcome'));
    return c.html(await operatorOverviewPage(deps, viewSettings(c), pageSession(c, session), notice), 200);
  });

  app.post('/admin/login', async (c) => {
    const deps = c.get('deps');
    checkSameOrigin(c);
    const form = await formOf(c);
    if (!verifyLoginFormToken(deps.settings.jwtSecret, form.form_token, deps.clock())) {
      throw refused('The sign-in form did not come from the sign-in page, or was open for more than an hour: reload it and sign in again');
    }
    let subject: string;
    try {
      subject = verifyApiKey(form.api_key ?? '', deps.settings.apiKeyHash).subject;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      c.get('logger').warn({ operator_sign_in: 'refused' }, 'operator sign-in refused');
      return c.html(loginPage(loginFormToken(deps.settings.jwtSecret, deps.clock()), 'That is not the admin API key.'), 401);
    }
    const { token, session } = await issueSession(deps.settings, subject, deps.clock());
    setCookie(c, SESSION_COOKIE, token, { httpOnly: true, secure: secure(c), sameSite: 'Strict', path: '/admin', maxAge: SESSION_LIFETIME_SECONDS });
    c.get('logger').info({ operator: subject, session_expires_at: session.expiresAt.toISOString() }, 'operator signed in');
    return c.redirect('/admin', 303);
  });

  app.post('/admin/logout', async (c) => {
    const { session } = await formSession(c);
    deleteCookie(c, SESSION_COOKIE, { path: '/admin', secure: secure(c) });
    c.get('logger').info({ operator: session.subject }, 'operator signed out');
    return c.redirect('/admin', 303);
  });

  app.get(
    '/admin/customers/:id',
    detailPage('customer', (c, session, id) => customerPage(c.get('deps'), viewSettings(c), session, id)),
  );
  app.get(
    '/admin/subscriptions/:id',
    detailPage('subscription', (c, session, id) => subscriptionPage(c.get('deps'), viewSettings(c), session, id)),
  );
  app.get(
    '/admin/invoices/:id',
    detailPage('invoice', (c, session, id) => invoicePage(c.get('deps'), viewSettings(c), session, id)),
  );

  app.post('/admin/held/:entity/:id/retry', async (c) => {
    const { session } = await formSession(c);
    const entity = c.req.param('entity') as BillingErrorEntity;
    const id = c.req.param('id');
    if (!HELD_ENTITIES.includes(entity) || !validId(entity, id)) throw new ApiError('not_found', `no held ${entity} ${id}`);
    let outcome: RetryOutcome;
    try {
      const error = await retryHeldWorkflow(c.get('deps'), entity, id, operatorCommand(c, session));
      outcome = error === null ? 'cleared' : 'held';
    } catch (err) {
      if (!(err instanceof DomainError) || (err.code !== 'billing_failed' && err.code !== 'no_billing_error')) throw err;
      outcome = err.code === 'billing_failed' ? 'held' : 'not_held';
    }
    c.get('logger').info({ operator: session.subject, entity, id, outcome }, 'operator retried a held workflow');
    return c.redirect(`/admin?retried=${encodeURIComponent(`${entity}:${id}`)}&outcome=${outcome}`, 303);
  });
}
