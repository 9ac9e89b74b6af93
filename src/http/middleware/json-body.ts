/**
 * Request bodies of mutating requests, checked once for every route before any of them (or the
 * idempotency store) sees one:
 * - an empty body is no body: its Content-Type is dropped, so an optional body is simply absent and
 *   a required one fails validation naming the missing fields;
 * - any other body must be sent as JSON (415 unsupported_media_type) and parse (400 malformed_json),
 *   except an HTML form (application/x-www-form-urlencoded) posted to a /hosted/ or /portal/ page, which its route validates;
 * - bytes that are not UTF-8 are 400 malformed_json (JSON is UTF-8, RFC 8259): they would otherwise be
 *   stored as U+FFFD; a declared charset other than UTF-8 is 415;
 * - nesting deeper than MAX_JSON_DEPTH is refused by a linear pre-scan of the text before JSON.parse,
 *   so a huge `[[[…]]]` costs one pass over its bytes instead of building millions of nested values on
 *   the event loop;
 * - strings PostgreSQL cannot store (U+0000, unpaired surrogates) are 400 validation_failed naming the
 *   field, instead of failing in the database.
 */
import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../errors.js';
import type { AppEnv } from '../context.js';
import { isOperatorViewPath } from './operator-pages.js';

/** Deeper bodies are refused: nothing in the API nests this far, and recursing over them overflows. */
export const MAX_JSON_DEPTH = 32;
export const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);
const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;
const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';

/** Whether a body is an HTML form (which only the /hosted/ and /portal/ pages take). */
export const isFormBody = (contentType: string | undefined): boolean => (contentType ?? '').split(';')[0]!.trim().toLowerCase() === FORM_MEDIA_TYPE;
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)"?/i;
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
const OPEN_BRACKET = new Set([0x5b, 0x7b]);
const CLOSE_BRACKET = new Set([0x5d, 0x7d]);
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

interface JsonNode {
  value: unknown;
  key: string | undefined;
  parent: JsonNode | undefined;
  depth: number;
}

const pathOf = (node: JsonNode): string => {
  const keys: string[] = [];
  for (let n: JsonNode | undefined = node; n?.key !== undefined; n = n.parent) keys.unshift(n.key);
  return keys.join('.') || '(body)';
};

function unstorableString(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain U+0000';
  if (UNPAIRED_SURROGATE.test(text)) return 'must be valid Unicode (unpaired surrogate)';
  return undefined;
}

/**
 * True when arrays/objects in the JSON text nest deeper than `max`: counts brackets outside strings in
 * one pass (escaped quotes inside strings included), without parsing.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i += 1;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (OPEN_BRACKET.has(code)) {
      depth += 1;
      if (depth > max) return true;
    } else if (CLOSE_BRACKET.has(code)) {
      depth -= 1;
    }
  }
  return false;
}

/** The first value PostgreSQL could not store or the API would not handle, walked without recursion. */
function findUnacceptable(root: unknown): { path: string; message: string } | undefined {
  const stack: JsonNode[] = [{ value: root, key: undefined, parent: undefined, depth: 0 }];
  for (let node = stack.pop(); node; node = stack.pop()) {
    const { value } = node;
    if (typeof value === 'string') {
      const message = unstorableString(value);
      if (message) return { path: pathOf(node), message };
    } else if (value !== null && typeof value === 'object') {
      if (node.depth >= MAX_JSON_DEPTH) return { path: pathOf(node), message: `nests deeper than ${MAX_JSON_DEPTH} levels` };
      for (const [key, child] of Object.entries(value)) {
        const childNode = { value: child, key, parent: node, depth: node.depth + 1 };
        const message = unstorableString(key);
        if (message) return { path: pathOf(childNode), message: `field name ${message}` };
        stack.push(childNode);
      }
    }
  }
  return undefined;
}

/** See the module comment. */
export function jsonBodyMiddleware(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!BODY_METHODS.has(c.req.method)) return next();
    const contentType = c.req.header('content-type');
    const bytes = await c.req.arrayBuffer();
    if (bytes.byteLength === 0) {
      if (contentType !== undefined) {
        const headers = new Headers(c.req.raw.headers);
        headers.delete('content-type');
        c.req.raw = new Request(c.req.raw.url, { method: c.req.raw.method, headers, signal: c.req.raw.signal });
      }
      return next();
    }
    // The hosted invoice page's Pay form and the customer portal's forms, posted by a browser: their routes validate the form.
    if (isFormBody(contentType) && (c.req.path.startsWith('/hosted/') || c.req.path.startsWith('/portal/'))) return next();
    // The operator views' forms (/admin, outside the JSON admin API): their routes check them.
    if (isFormBody(contentType) && isOperatorViewPath(c.req.path)) return next();
    if (!JSON_MEDIA_TYPE.test((contentType ?? '').split(';')[0]!.trim())) {
      throw new ApiError('unsupported_media_type', 'request bodies must be JSON (Content-Type: application/json)');
    }
    const charset = CHARSET.exec(contentType ?? '')?.[1]?.toLowerCase();
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      throw new ApiError('unsupported_media_type', `request bodies must be UTF-8 JSON (charset ${charset} is not accepted)`);
    }
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      throw new ApiError('malformed_json', 'request body is not valid UTF-8');
    }
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
      throw new ApiError('validation_failed', `invalid request: (body): nests deeper than ${MAX_JSON_DEPTH} levels`, {
        issues: [{ path: '(body)', message: `nests deeper than ${MAX_JSON_DEPTH} levels` }],
      });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ApiError('malformed_json', 'request body is not valid JSON');
    }
    const problem = findUnacceptable(parsed);
    if (problem) {
      throw new ApiError('validation_failed', `invalid request: ${problem.path}: ${problem.message}`, { issues: [problem] });
    }
    await next();
  };
}
