/**
 * The one error envelope: { "error": { "code", "message", "details?", "request_id" } }.
 * Every failure of every route is rendered here, from typed errors, with the status ERROR_CODES
 * (./error-codes.ts) gives each code.
 */
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { DomainError, type DomainErrorKind } from '../errors.js';
import { isDependencyUnavailable } from '../services/availability.js';
import { ERROR_CODES, type ErrorCode, type ErrorCodeEntry } from './error-codes.js';

/** Errors raised by the HTTP layer itself (auth, idempotency, limits, parsing); the status is the code's. */
export class ApiError extends Error {
  readonly status: ContentfulStatusCode;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = ERROR_CODES[code].status;
  }
}

/** The status of a domain error whose code is missing from ERROR_CODES (the unit test keeps that from happening). */
const STATUS_BY_KIND: Record<DomainErrorKind, ContentfulStatusCode> = {
  validation: 400,
  unprocessable: 422,
  not_found: 404,
  conflict: 409,
  invalid_transition: 409,
  gone: 410,
  unavailable: 503,
};

export const ErrorEnvelopeSchema = z
  .object({
    error: z.object({
      code: z.string().openapi({ enum: Object.keys(ERROR_CODES), example: 'validation_failed', description: 'one of the error registry\'s codes (x-error-codes, /docs/errors)' }),
      message: z.string(),
      details: z.record(z.string(), z.unknown()).optional().openapi({ additionalProperties: true }),
      request_id: z.string(),
    }),
  })
  .openapi('Error');

export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;

export function envelope(c: Context, code: string, message: string, details?: Record<string, unknown>): ErrorEnvelope {
  // The access log line names the code of every error answer.
  c.set('errorCode', code);
  return {
    error: { code, message, ...(details ? { details } : {}), request_id: (c.get('requestId') as string | undefined) ?? 'unknown' },
  };
}

/** Codes for the HTTPExceptions Hono's own middleware and validators throw. */
const HTTP_EXCEPTION_CODES: Partial<Record<number, ErrorCode>> = {
  400: 'validation_failed',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

/**
 * Maps any thrown value to the envelope and the status ERROR_CODES gives its code. A database or
 * Temporal that cannot be reached is a 503; any other unknown error (and 5xx HTTPExceptions) a
 * logged 500 whose message reveals nothing of the failure.
 */
export function renderError(c: Context, err: unknown): Response {
  const logger = c.get('logger') as { warn: (o: object, m: string) => void; error: (o: object, m: string) => void } | undefined;
  if (err instanceof HTTPException && err.status < 500) {
    const malformed = err.status === 400 && /json/i.test(err.message);
    const code = malformed ? 'malformed_json' : (HTTP_EXCEPTION_CODES[err.status] ?? 'validation_failed');
    return c.json(envelope(c, code, malformed ? 'request body is not valid JSON' : err.message), ERROR_CODES[code].status);
  }
  if (err instanceof ApiError) {
    for (const [name, value] of Object.entries(err.headers ?? {})) c.header(name, value);
    return c.json(envelope(c, err.code, err.message, err.details), err.status);
  }
  if (err instanceof DomainError) {
    const entry = (ERROR_CODES as Record<string, ErrorCodeEntry>)[err.code];
    if (!entry) logger?.warn({ code: err.code }, 'error code missing from ERROR_CODES');
    return c.json(envelope(c, err.code, err.message, err.details), entry?.status ?? STATUS_BY_KIND[err.kind]);
  }
  if (isDependencyUnavailable(err)) {
    logger?.warn({ err }, 'dependency unavailable');
    return c.json(envelope(c, 'service_unavailable', 'a service this API depends on (database, Temporal) could not be reached; retry later'), 503);
  }
  logger?.error({ err }, 'unhandled error');
  return c.json(envelope(c, 'internal_error', 'internal error'), 500);
}

/** What an error answer of each status means: the start of the description of that status's response. */
const STATUS_SUMMARIES: Record<number, string> = {
  400: 'Validation failed or malformed request',
  401: 'Missing or invalid credentials',
  403: 'Credentials lack the required scope',
  404: 'Resource not found',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload too large',
  415: 'Request body is not JSON',
  422: 'Business rule violated',
  429: 'Rate limit exceeded',
  500: 'Internal error',
  503: 'Database, Temporal or the payment processor unavailable',
};

/** The error response of one status in the document: the envelope, and the codes it can carry there. */
export const errorResponse = (status: number, codes: readonly string[]) => ({
  description: `${STATUS_SUMMARIES[status] ?? 'Error'}. error.code: ${codes.map((code) => `\`${code}\``).join(', ')}`,
  content: { 'application/json': { schema: ErrorEnvelopeSchema } },
});

/**
 * The whole catalogue as error responses, one per status with every code ERROR_CODES answers with it
 * (a route's own responses list only its codes: src/http/route-errors.ts).
 */
export const commonErrorResponses: Record<number, ReturnType<typeof errorResponse>> = Object.fromEntries(
  [...new Set(Object.values(ERROR_CODES as Record<string, ErrorCodeEntry>).map((entry) => entry.status as number))].map((status) => [
    status,
    errorResponse(
      status,
      Object.entries(ERROR_CODES as Record<string, ErrorCodeEntry>).filter(([, entry]) => entry.status === status).map(([code]) => code),
    ),
  ]),
);
