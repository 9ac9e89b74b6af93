/**
 * GET /openapi.json: the OpenAPI 3.0 document generated from the route definitions, with the error
 * code registry (info.description and `x-error-codes` / `x-issue-codes`).
 * GET /docs/api: Swagger UI served from node_modules (no CDN), so it renders offline.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { App } from '../context.js';
import { ERROR_CODES, ISSUE_CODES } from '../error-codes.js';
import { MAX_JSON_DEPTH } from '../middleware/json-body.js';

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

const errorCodeTable = Object.entries(ERROR_CODES)
  .map(([code, { status, meaning }]) => `| \`${code}\` | ${status} | ${meaning} |`)
  .join('\n');
const issueCodeTable = Object.entries(ISSUE_CODES)
  .map(([code, meaning]) => `| \`${code}\` | ${meaning} |`)
  .join('\n');

const DESCRIPTION = `Billing engine API. Money fields end in \`_nanos\`: raw units at scale 12 (1 currency unit =
1000000000000), serialized as decimal-integer strings.

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

**Errors** share one envelope \`{ "error": { "code", "message", "details?", "request_id" } }\`. These are all the
codes, each always answered with its status (also in \`x-error-codes\`):

| code | status | meaning |
|---|---|---|
${errorCodeTable}

Issues in \`details.issues\` name the field (\`path\`) and, where a rule has one, carry a \`code\` (also in
\`x-issue-codes\`):

| issue code | meaning |
|---|---|
${issueCodeTable}`;

export function registerDocs(app: App): void {
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'apiKey', { type: 'apiKey', in: 'header', name: 'X-API-Key' });
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/openapi.json',
    tags: ['Platform'],
    summary: 'This OpenAPI 3.0 document (public)',
    security: [],
    responses: { 200: { description: 'The OpenAPI 3.0 document', content: { 'application/json': { schema: { type: 'object' } } } } },
  });
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/docs/api',
    tags: ['Platform'],
    summary: 'The rendered API reference (public; works offline)',
    security: [],
    responses: { 200: { description: 'Swagger UI page for this document', content: { 'text/html': { schema: { type: 'string' } } } } },
  });
  app.doc('/openapi.json', {
    openapi: '3.0.3',
    info: { title: 'Billing Engine API', version: '1.0.0', description: DESCRIPTION },
    security: [{ bearerAuth: [] }, { apiKey: [] }],
    'x-error-codes': ERROR_CODES,
    'x-issue-codes': ISSUE_CODES,
  });
  app.get('/docs/api', (c) => c.html(PAGE));
  app.get('/docs/api/assets/:file', async (c) => {
    const file = c.req.param('file');
    const type = ASSETS[file];
    if (!type) return c.notFound();
    const body = await readFile(path.join(SWAGGER_DIR, file));
    return c.body(body, 200, { 'Content-Type': type, 'Cache-Control': 'public, max-age=86400' });
  });
}
