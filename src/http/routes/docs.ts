/**
 * GET /openapi.json: the OpenAPI 3.0 document generated from the route definitions (getting started
 * in info.description, the error code registry in `x-error-codes` / `x-issue-codes`).
 * GET /docs/errors: the error-code catalogue as a page of its own.
 * GET /docs/api: Swagger UI served from node_modules (no CDN), so it renders offline.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { App } from '../context.js';
import { ERROR_CODES, ISSUE_CODES } from '../error-codes.js';
import { MAX_JSON_DEPTH } from '../middleware/json-body.js';
import { errorResponse } from '../errors.js';
import { PAGE_HEADERS } from '../helpers.js';
import { openApiDocument } from '../openapi-document.js';

const require = createRequire(import.meta.url);
const SWAGGER_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Billing API reference</title>
<link rel="stylesheet" href="/docs/api/assets/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="/docs/api/assets/swagger-ui-bundle.js"></script>
<script src="/docs/api/assets/swagger-ui-standalone-preset.js"></script>
<script>
window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#reference', deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout' });
});
</script>
</body>
</html>`;

/** The pages of the reference answer only a refused rate (429) besides their content. */
const rateLimited = { 429: errorResponse(429, ['rate_limited']) };

const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** GET /docs/errors: every error code with its status and meaning, and every issue code (also `x-error-codes`, `x-issue-codes`). */
const ERRORS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Billing API error codes</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse;width:100%}td,th{border:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top}code{white-space:nowrap}</style>
</head>
<body>
<h1>Error codes</h1>
<p>Every error answer is <code>{ "error": { "code", "message", "details?", "request_id" } }</code>; each code is always answered with its status.
Back to the <a href="/docs/api">API reference</a>.</p>
<table id="error-codes">
<thead><tr><th>code</th><th>status</th><th>meaning</th></tr></thead>
<tbody>
${Object.entries(ERROR_CODES)
  .map(([code, { status, meaning }]) => `<tr><td><code>${escape(code)}</code></td><td>${status}</td><td>${escape(meaning)}</td></tr>`)
  .join('\n')}
</tbody>
</table>
<h2>Issue codes</h2>
<p>Issues in <code>details.issues</code> name the field (<code>path</code>) and, where a rule has one, carry a <code>code</code>:</p>
<table id="issue-codes">
<thead><tr><th>issue code</th><th>meaning</th></tr></thead>
<tbody>
${Object.entries(ISSUE_CODES)
  .map(([code, meaning]) => `<tr><td><code>${escape(code)}</code></td><td>${escape(meaning)}</td></tr>`)
  .join('\n')}
</tbody>
</table>
</body>
</html>`;

const DESCRIPTION = `Billing engine API: customers, catalog, usage events, subscriptions, invoices, payments, contracts,
webhooks and the audit trail. Money fields end in \`_nanos\`: raw units at scale 12 (1 currency unit = 1000000000000),
serialized as decimal-integer strings. The endpoints follow this introduction; the error codes are on their own
page, [/docs/errors](/docs/errors).

**Getting started** (local mode: \`npm start\` prints \`BILLING_TOKEN\`, an admin token):

\`\`\`sh
H="Authorization: Bearer $BILLING_TOKEN"; J='content-type: application/json'; API=http://127.0.0.1:3000
CUSTOMER=$(curl -s $API/admin/v1/customers -H "$H" -H "$J" -d '{"display_name":"Acme","email":"ap@acme.test","currency":"USD","account_type":"Organization"}' | jq -r .id)
PLAN=$(curl -s $API/admin/v1/catalog/plans -H "$H" -H "$J" -d '{"name":"Pro","billing_cadence":"Monthly"}' | jq -r .id)
curl -s $API/admin/v1/catalog/skus -H "$H" -H "$J" -d '{"plan_id":"'$PLAN'","name":"Base fee","pricing_model":"Flat","unit_amount_nanos":"49000000000000","currency":"USD"}'
curl -s $API/admin/v1/catalog/skus -H "$H" -H "$J" -d '{"plan_id":"'$PLAN'","name":"API calls","pricing_model":"PerUnit","unit_amount_nanos":"10000000000","meter_event_type":"api_calls","currency":"USD"}'
SUB=$(curl -s $API/v1/subscriptions -H "$H" -H "$J" -d '{"customer_id":"'$CUSTOMER'","plan_id":"'$PLAN'","currency":"USD"}' | jq -r .id)
curl -s $API/v1/events -H "$H" -H "$J" -d '{"id":"evt-1","event_type":"api_calls","customer_id":"'$CUSTOMER'","subscription_id":"'$SUB'","properties":{}}'   # dated at receipt
curl -s -X POST $API/admin/v1/subscriptions/$SUB/bill -H "$H"      # invoice the usage so far
curl -s "$API/admin/v1/invoices?customer_id=$CUSTOMER" -H "$H"
\`\`\`

A **customer token** (sees only that customer's resources under /v1) is an HS256 JWT with \`sub\` = the customer id,
\`scope\` = \`customer\` and an \`exp\` at most 1 h away, signed with JWT_SECRET: \`npm run token -- customer $CUSTOMER\`
mints one (it reads JWT_SECRET, or the local dev secret).

**Authentication**: \`Authorization: Bearer <JWT>\` (HS256, claims sub/exp/scope) or \`X-API-Key\`.
/v1/* accepts customer or admin scope, /admin/v1/* admin only. /v1/webhooks/processor is called by the payment
processor and authenticated by its signature instead.

**Idempotency**: every mutating request accepts \`Idempotency-Key\` (1-255 characters), scoped by caller, method
and path. A replay within 24 h returns the stored status and body with \`X-Idempotency-Replayed: true\`; the same
key with another body is 422 \`idempotency_key_reused\`, and while the first request runs, 409
\`idempotency_key_in_use\`. A 400 (the request was refused as invalid) and a 5xx are not stored: the key may be
retried, with a corrected body after a 400.

**Request bodies** are JSON (\`Content-Type: application/json\`, else 415); an empty body counts as no body.
Unknown fields are rejected (400 validation_failed) so that typos never pass silently, as are strings containing
U+0000 or unpaired surrogates and nesting deeper than ${MAX_JSON_DEPTH} levels.

**Dates and times**: every date-time in a request (body field or query parameter) is ISO 8601 with seconds and an
offset (\`Z\` or \`±hh:mm\` up to ±15:59), e.g. \`2026-01-31T12:00:00Z\`, naming a real instant from 1970-01-01T00:00:00Z to
9999-12-31T23:59:59Z; dates are \`YYYY-MM-DD\` and must exist (no \`2026-02-30\`). Anything else is 400
\`validation_failed\` naming the field.

**Rate limit**: token buckets, one per authenticated caller and, for requests without valid credentials (public
routes, missing or refused credentials), one per client address. Every response carries \`RateLimit-Limit\` and
\`RateLimit-Remaining\`; a refused request gets 429 \`rate_limited\` with \`Retry-After\` (seconds).

**Errors** share one envelope \`{ "error": { "code", "message", "details?", "request_id" } }\`; every code is
always answered with its status. The catalogue of codes and of the issue codes in \`details.issues\` is at
[/docs/errors](/docs/errors) (also \`x-error-codes\` and \`x-issue-codes\` in this document).`;

export function registerDocs(app: App): void {
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'apiKey', { type: 'apiKey', in: 'header', name: 'X-API-Key' });
  for (const [name, header] of Object.entries(PAGE_HEADERS)) app.openAPIRegistry.registerComponent('headers', name, header);
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/openapi.json',
    operationId: 'getOpenApiDocument',
    tags: ['Platform'],
    summary: 'This OpenAPI 3.0 document (public)',
    description: 'Public. Generated from the route definitions; the error codes are under x-error-codes and x-issue-codes.',
    security: [],
    responses: { 200: { description: 'The OpenAPI 3.0 document', content: { 'application/json': { schema: { type: 'object' } } } }, ...rateLimited },
  });
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/docs/api',
    operationId: 'getApiReference',
    tags: ['Platform'],
    summary: 'The rendered API reference (public; works offline)',
    description: 'Public. Swagger UI for /openapi.json, served with its assets so it renders without network access.',
    security: [],
    responses: { 200: { description: 'Swagger UI page for this document', content: { 'text/html': { schema: { type: 'string' } } } }, ...rateLimited },
  });
  // Built on first request, once every route is registered; the routes do not change afterwards.
  let document: object | undefined;
  app.get('/openapi.json', (c) => c.json((document ??= openApiDocument(app, DESCRIPTION)), 200));
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/docs/errors',
    operationId: 'getErrorCatalogue',
    tags: ['Platform'],
    summary: 'The error-code catalogue (public)',
    description: 'Public. Every error code with its status and meaning, and every issue code of details.issues.',
    security: [],
    responses: { 200: { description: 'Every error code with its status and meaning, and every issue code', content: { 'text/html': { schema: { type: 'string' } } } }, ...rateLimited },
  });
  app.get('/docs/api', (c) => c.html(PAGE));
  app.get('/docs/errors', (c) => c.html(ERRORS_PAGE));
  app.get('/docs/api/assets/:file', async (c) => {
    const file = c.req.param('file');
    const type = ASSETS[file];
    if (!type) return c.notFound();
    const body = await readFile(path.join(SWAGGER_DIR, file));
    return c.body(body, 200, { 'Content-Type': type, 'Cache-Control': 'public, max-age=86400' });
  });
}
