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
import { PAGE_HEADERS } from './hosted-pages.js';

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
  return async (c, next) => {
    if (!isOperatorViewPath(c.req.path)) return next();
    await next();
    const res = c.res;
    if (res.status >= 400 && res.headers.get('content-type')?.includes('application/json')) {
      const body = (await res
        .clone()
        .json()
        .catch(() => null)) as { error?: { code?: string; message?: string; request_id?: string } } | null;
      const code = body?.error?.code ?? 'internal_error';
      const title = TITLES[code] ?? 'Something went wrong';
      const headers = new Headers(res.headers);
      headers.delete('content-length');
      headers.set('Content-Type', 'text/html; charset=UTF-8');
      headers.set('X-Error-Code', code);
      const html = operatorPage({
        title,
        body: `<h1>${esc(title)}</h1><section><p>${esc(body?.error?.message ?? 'the request failed')}</p><p class="muted">Error ${res.status} · ${esc(code)} · request ${esc(
          body?.error?.request_id ?? c.get('requestId'),
        )}</p><p><a href="/admin">Back to the overview</a></p></section>`,
      });
      c.res = new Response(html, { status: res.status, headers });
    }
    for (const [name, value] of Object.entries(PAGE_HEADERS)) c.res.headers.set(name, value);
    if (c.res.headers.get('content-type')?.startsWith('text/html')) c.res.headers.set('Content-Security-Policy', OPERATOR_PAGE_CSP);
  };
}
