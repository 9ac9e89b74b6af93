/**
 * GET /openapi.json: the OpenAPI 3.0 document generated from the route definitions.
 * GET /docs/api: Swagger UI served from node_modules (no CDN), so it renders offline.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { App } from '../context.js';
import { ERROR_CODES } from '../errors.js';
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

**Rate limit**: a token bucket per caller. Every response carries \`RateLimit-Limit\` and \`RateLimit-Remaining\`;
a refused request gets 429 \`rate_limited\` with \`Retry-After\` (seconds).

**Errors** share one envelope \`{ "error": { "code", "message", "details?", "request_id" } }\`:

| code | status | meaning |
|---|---|---|
${errorCodeTable}`;

export function registerDocs(app: App): void {
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'apiKey', { type: 'apiKey', in: 'header', name: 'X-API-Key' });
  app.doc('/openapi.json', {
    openapi: '3.0.3',
    info: { title: 'Billing Engine API', version: '1.0.0', description: DESCRIPTION },
    security: [{ bearerAuth: [] }, { apiKey: [] }],
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
