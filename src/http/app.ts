/**
 * The app factory: one Hono app with the middleware stack every route shares, the error envelope,
 * the generated OpenAPI 3.0 document and the offline API reference.
 */
import { OpenAPIHono, z, type RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { newId } from '../ids.js';
import { ApiError, envelope, renderError } from './errors.js';
import type { App, AppDeps, AppEnv } from './context.js';
import { validationError } from './helpers.js';
import { authMiddleware } from './middleware/auth.js';
import { idempotencyMiddleware } from './middleware/idempotency.js';
import { jsonBodyMiddleware } from './middleware/json-body.js';
import { anonymousRateLimitMiddleware, rateLimitMiddleware } from './middleware/rate-limit.js';
import { registerDocs } from './routes/docs.js';
import { registerHealth } from './routes/health.js';
import { withRouteErrorCodes } from './route-errors.js';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Query strings are as strict as bodies: a parameter a route does not declare is a 400 naming it
 * (`?customer=` for `?customer_id=` must not silently list everything). Routes declaring no query
 * accept none.
 */
function withStrictQuery<R extends RouteConfig>(route: R): R {
  const query = route.request?.query;
  if (query !== undefined && !(query instanceof z.ZodObject)) return route;
  return { ...route, request: { ...route.request, query: (query ?? z.object({})).strict() } };
}

/** zod failures of any route become the envelope with one issue per offending field (validationError). */
export function newApp(): App {
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      if (result.success) return;
      // The validator hands the hook the input it parsed (untyped here): a field left out is told apart from a wrong one.
      const failure = validationError(result.error, (result as { data?: unknown }).data);
      return c.json(envelope(c, failure.code, failure.message, failure.details), 400);
    },
  });
  const register = app.openapi.bind(app);
  app.openapi = ((route, handler, hook) => register(withRouteErrorCodes(withStrictQuery(route)), handler, hook)) as App['openapi'];
  return app;
}

function requestContext(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && REQUEST_ID_PATTERN.test(incoming) ? incoming : newId();
    const logger = deps.logger.child({ request_id: requestId });
    c.set('requestId', requestId);
    c.set('logger', logger);
    c.set('deps', deps);
    // Set before the response exists, it goes out with whatever response is built; set after, it
    // would rebuild the finished response (its body stream included) for one header.
    c.header('X-Request-Id', requestId);
    const started = performance.now();
    try {
      await next();
    } catch (err) {
      // Hono's onError only sees thrown Errors; anything else thrown still gets the envelope.
      c.res = renderError(c, err);
    }
    if (c.res.headers.get('X-Request-Id') === null) c.header('X-Request-Id', requestId);
    logger.info(
      {
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        duration_ms: Math.round((performance.now() - started) * 10) / 10,
        caller: c.get('principal')?.subject,
        error_code: c.get('errorCode'),
      },
      'request',
    );
  };
}

/**
 * 413 above the body limit. A declared Content-Length is checked without touching the body, which is
 * then read once, straight from the socket, by the JSON body check; only a body of unknown length
 * (chunked) is counted as it streams in (Hono's bodyLimit), so it is cut off at the limit.
 */
function bodyLimitMiddleware(maxSize: number): MiddlewareHandler<AppEnv> {
  const tooLarge = (): never => {
    throw new ApiError('payload_too_large', `request body exceeds ${maxSize} bytes`);
  };
  const streamed = bodyLimit({ maxSize, onError: tooLarge });
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const declared = c.req.header('content-length');
    if (declared !== undefined && c.req.header('transfer-encoding') === undefined) {
      return Number(declared) > maxSize ? tooLarge() : next();
    }
    return streamed(c, next);
  };
}

export interface RouteModule {
  (app: App): void;
}

export function createApp(deps: AppDeps, routes: RouteModule[] = []): App {
  const app = newApp();
  app.use('*', requestContext(deps));
  app.use('*', bodyLimitMiddleware(deps.settings.bodyLimitBytes));
  app.use('*', anonymousRateLimitMiddleware());
  app.use('*', authMiddleware());
  app.use('*', rateLimitMiddleware());
  app.use('*', jsonBodyMiddleware());
  app.use('*', idempotencyMiddleware());

  registerHealth(app);
  for (const register of routes) register(app);
  registerDocs(app);

  app.notFound((c) => c.json(envelope(c, 'not_found', `no route ${c.req.method} ${c.req.path}`), 404));
  app.onError((err, c) => renderError(c, err));
  return app;
}
