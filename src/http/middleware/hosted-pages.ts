/**
 * The public /hosted/* routes are opened by payers in a browser, not by API clients:
 * - every answer carries X-Frame-Options DENY, nosniff, a same-origin referrer policy, no caching and noindex; an
 *   HTML one also the page's Content-Security-Policy (no script, only its own style);
 * - an error is answered as an HTML page with the error's status, saying what happened and what to
 *   do, instead of the JSON envelope (its code stays machine-readable in X-Error-Code).
 */
import type { MiddlewareHandler } from 'hono';
import { HOSTED_PAGE_CSP, renderHostedError } from '../../services/documents/html.js';
import type { AppEnv } from '../context.js';

export const PAGE_HEADERS: Record<string, string> = {
  'Cache-Control': 'private, no-store',
  // The link is a credential: never sent to another site (the processor's checkout page included); a same-origin
  // form still carries its Origin (under no-referrer a browser sends `Origin: null`).
  'Referrer-Policy': 'same-origin',
  'X-Robots-Tag': 'noindex',
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
};

export interface ErrorText {
  title: string;
  message: (error: { message: string; details?: Record<string, unknown> }, seller: string) => string;
}

const ERROR_PAGES: Record<string, ErrorText> = {
  hosted_link_not_found: {
    title: 'This invoice link is not valid',
    message: (_error, seller) =>
      `The link is incomplete or was changed. Open it again from the message it came in, copying the whole link, or ask ${seller} to send you the invoice link again.`,
  },
  hosted_link_expired: {
    title: 'This invoice link has expired',
    message: (error, seller) => {
      const at = typeof error.details?.expired_at === 'string' ? ` on ${error.details.expired_at.slice(0, 10)}` : '';
      return `For your security, invoice links stop working after a while; this one expired${at}. Ask ${seller} for a new link to the invoice: it opens the same invoice, and you can pay from it.`;
    },
  },
  hosted_form_refused: {
    title: 'The payment was not started',
    message: (error) => `${error.message}. Nothing was charged.`,
  },
  no_payment_method: {
    title: 'No payment method on file',
    message: () => 'There is no card on file to charge any more. Go back to the invoice and pay with a card instead. Nothing was charged.',
  },
  nothing_to_charge: {
    title: 'Nothing left to pay',
    message: () => 'This invoice has nothing left to pay. Go back to the invoice to see its current state.',
  },
};

const DEFAULT_PAGE: ErrorText = {
  title: 'Something went wrong',
  message: (error) => `${error.message}. Please try again in a moment; if it keeps failing, contact the seller.`,
};

/** What another family of browser pages (the customer portal) changes: its CSP (its own stylesheet) and its error pages' texts. */
export interface BrowserPageOptions {
  csp?: string;
  /** By error code, before the hosted invoice page's own. */
  errorPages?: Record<string, ErrorText>;
}

/** An error answer of a browser page's handler, read from the JSON envelope it answered with. */
export interface PageError {
  status: number;
  code: string;
  message: string;
  details?: Record<string, unknown>;
  requestId: string;
}

type PageContext = Parameters<MiddlewareHandler<AppEnv>>[0];

/**
 * Browser pages' answers: an error's JSON envelope becomes the HTML page `renderError` makes of it (same status and
 * headers, the code in X-Error-Code); every answer gets the browser headers, an HTML one also the pages' CSP.
 */
export function browserPagesMiddleware(csp: string, renderError: (c: PageContext, error: PageError) => string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const res = c.res;
    if (res.status >= 400 && res.headers.get('content-type')?.includes('application/json')) {
      const body = (await res
        .clone()
        .json()
        .catch(() => null)) as { error?: { code?: string; message?: string; details?: Record<string, unknown>; request_id?: string } } | null;
      const code = body?.error?.code ?? 'internal_error';
      const headers = new Headers(res.headers);
      headers.delete('content-length');
      headers.set('Content-Type', 'text/html; charset=UTF-8');
      headers.set('X-Error-Code', code);
      const html = renderError(c, {
        status: res.status,
        code,
        message: body?.error?.message ?? 'the request failed',
        ...(body?.error?.details ? { details: body.error.details } : {}),
        requestId: body?.error?.request_id ?? c.get('requestId'),
      });
      c.res = new Response(html, { status: res.status, headers });
    }
    for (const [name, value] of Object.entries(PAGE_HEADERS)) c.res.headers.set(name, value);
    if (c.res.headers.get('content-type')?.startsWith('text/html')) c.res.headers.set('Content-Security-Policy', csp);
  };
}

/** The middleware of /hosted/* (and /portal/*, with its options), given the seller's name the error pages refer the payer to. */
export function hostedPagesMiddleware(sellerName: (c: PageContext) => string, options: BrowserPageOptions = {}): MiddlewareHandler<AppEnv> {
  return browserPagesMiddleware(options.csp ?? HOSTED_PAGE_CSP, (c, error) => {
    const text = options.errorPages?.[error.code] ?? ERROR_PAGES[error.code] ?? DEFAULT_PAGE;
    return renderHostedError({ status: error.status, code: error.code, title: text.title, requestId: error.requestId, message: text.message(error, sellerName(c)) });
  });
}
