/**
 * The operator views (/admin and its pages; the JSON admin API under /admin/v1 is not theirs) are
 * opened by operators in a browser:
 * - every answer carries the hosted pages' browser headers (X-Frame-Options DENY, nosniff, a
 *   same-origin referrer policy, no caching, noindex); an HTML one also the views' Content-Security-Policy
 *   (no script at all, only the page's own style, forms only to this service, never framed);
 * - an error is answered as an HTML page with the error's status instead of the JSON envelope (its
 *   code stays machine-readable in X-Error-Code).
 */
import type { MiddlewareHandler } from 'hono';
import { esc, OPERATOR_PAGE_CSP, operatorPage } from '../../services/operator-views/html.js';
import type { AppEnv } from '../context.js';
import { browserPagesMiddleware } from './hosted-pages.js';

/** /admin and /admin/…, except the JSON admin API (/admin/v1 and below). */
export const isOperatorViewPath = (path: string): boolean =>
  path === '/admin' || (path.startsWith('/admin/') && path !== '/admin/v1' && !path.startsWith('/admin/v1/'));

const TITLES: Record<string, string> = {
  not_found: 'Not found',
  operator_form_refused: 'The form was refused',
  operator_login_failed: 'Sign-in failed',
  no_billing_error: 'Nothing to retry',
  billing_failed: 'The retry failed again',
};

export function operatorPagesMiddleware(): MiddlewareHandler<AppEnv> {
  const pages = browserPagesMiddleware(OPERATOR_PAGE_CSP, (_c, error) => {
    const title = TITLES[error.code] ?? 'Something went wrong';
    return operatorPage({
      title,
      body: `<h1>${esc(title)}</h1><section><p>${esc(error.message)}</p><p class="muted">Error ${error.status} · ${esc(error.code)} · request ${esc(
        error.requestId,
      )}</p><p><a href="/admin">Back to the overview</a></p></section>`,
    });
  });
  return (c, next) => (isOperatorViewPath(c.req.path) ? pages(c, next) : next());
}
