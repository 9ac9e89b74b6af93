/**
 * The one error envelope: { "error": { "code", "message", "details?", "request_id" } }.
 * Every failure of every route is rendered here, from typed errors, with one status per kind.
 */
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { DomainError, type DomainErrorKind } from '../services/errors.js';

/** Errors raised by the HTTP layer itself (auth, idempotency, limits, parsing). */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

const STATUS_BY_KIND: Record<DomainErrorKind, ContentfulStatusCode> = {
  validation: 400,
  unprocessable: 422,
  not_found: 404,
  conflict: 409,
  invalid_transition: 409,
};

/** Stable error codes and their statuses, published in the OpenAPI document. */
export const ERROR_CODES: Record<string, { status: number; meaning: string }> = {
  validation_failed: { status: 400, meaning: 'the request body, query or path failed validation; details.issues names each field' },
  malformed_json: { status: 400, meaning: 'the body is not valid JSON' },
  invalid_money: { status: 400, meaning: 'a *_nanos field is not a decimal-integer string within DECIMAL(38,0)' },
  unsupported_media_type: { status: 415, meaning: 'the body is not application/json' },
  unauthenticated: { status: 401, meaning: 'no credentials, or credentials that did not verify' },
  forbidden: { status: 403, meaning: 'valid credentials without the scope this route requires' },
  not_found: { status: 404, meaning: 'no such route' },
  '<entity>_not_found': { status: 404, meaning: 'the resource does not exist or is not visible to the caller' },
  invalid_state_transition: { status: 409, meaning: 'the resource is in a state that does not allow the operation' },
  conflict: { status: 409, meaning: 'the request conflicts with the current state' },
  idempotency_key_in_use: { status: 409, meaning: 'a request with this Idempotency-Key is still being processed' },
  idempotency_key_reused: { status: 422, meaning: 'this Idempotency-Key was used with a different request body' },
  invalid_idempotency_key: { status: 400, meaning: 'the Idempotency-Key header is empty or longer than 255 characters' },
  payload_too_large: { status: 413, meaning: 'the request body exceeds the size limit' },
  rate_limited: { status: 429, meaning: 'the caller exceeded its request rate; see Retry-After' },
  unprocessable: { status: 422, meaning: 'the request is well-formed but violates a business rule' },
  internal_error: { status: 500, meaning: 'an unexpected failure; the request_id identifies it in the logs' },
  service_unavailable: { status: 503, meaning: 'a dependency (database or Temporal) is unavailable' },
};

export const ErrorEnvelopeSchema = z
  .object({
    error: z.object({
      code: z.string().openapi({ example: 'validation_failed' }),
      message: z.string(),
      details: z.record(z.string(), z.unknown()).optional(),
      request_id: z.string(),
    }),
  })
  .openapi('Error');

export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;

export function envelope(c: Context, code: string, message: string, details?: Record<string, unknown>): ErrorEnvelope {
  return {
    error: { code, message, ...(details ? { details } : {}), request_id: (c.get('requestId') as string | undefined) ?? 'unknown' },
  };
}

/** Codes for the HTTPExceptions Hono's own middleware and validators throw. */
const HTTP_EXCEPTION_CODES: Partial<Record<number, string>> = {
  400: 'validation_failed',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

/**
 * Maps any thrown value to the envelope and status; unknown errors (and 5xx HTTPExceptions) become
 * a logged 500 whose message reveals nothing of the failure.
 */
export function renderError(c: Context, err: unknown): Response {
  if (err instanceof HTTPException && err.status < 500) {
    const malformed = err.status === 400 && /json/i.test(err.message);
    const code = malformed ? 'malformed_json' : (HTTP_EXCEPTION_CODES[err.status] ?? 'validation_failed');
    return c.json(envelope(c, code, malformed ? 'request body is not valid JSON' : err.message), err.status as ContentfulStatusCode);
  }
  if (err instanceof ApiError) {
    for (const [name, value] of Object.entries(err.headers ?? {})) c.header(name, value);
    return c.json(envelope(c, err.code, err.message, err.details), err.status);
  }
  if (err instanceof DomainError) {
    return c.json(envelope(c, err.code, err.message, err.details), STATUS_BY_KIND[err.kind]);
  }
  const logger = c.get('logger') as { error: (o: object, m: string) => void } | undefined;
  logger?.error({ err }, 'unhandled error');
  return c.json(envelope(c, 'internal_error', 'internal error'), 500);
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: ErrorEnvelopeSchema } },
});

/** Error responses every authenticated route can produce, spread into each route definition. */
export const commonErrorResponses = {
  400: errorResponse('Validation failed or malformed request'),
  401: errorResponse('Missing or invalid credentials'),
  403: errorResponse('Credentials lack the required scope'),
  404: errorResponse('Resource not found'),
  409: errorResponse('Conflict, invalid state transition, or idempotent request in flight'),
  413: errorResponse('Payload too large'),
  422: errorResponse('Business rule violated or Idempotency-Key reused with another body'),
  429: errorResponse('Rate limit exceeded'),
  500: errorResponse('Internal error'),
} as const;
