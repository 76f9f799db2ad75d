/**
 * Local stand-in for the platform's shared wire contract (error codes, the spec 2.2 error body,
 * correlation id): the module's only place that builds error bodies, so it can be swapped for
 * the shared module without touching any caller.
 */
import type { AdminReply } from '../host/admin-host.js';

const CATALOGUE = {
  INVALID_REQUEST: { status: 400, message: 'The request is malformed.' },
  UNAUTHORIZED: { status: 401, message: 'Authentication is missing or not valid.' },
  FORBIDDEN: { status: 403, message: 'This request is not allowed.' },
  NOT_FOUND: { status: 404, message: 'Nothing exists at this address.' },
  MODEL_NOT_FOUND: { status: 404, message: 'No decision model has that name.' },
  DMN_EVALUATION_ERROR: { status: 422, message: 'The decision model could not be evaluated.' },
  DMN_UNAVAILABLE: { status: 503, message: 'No decision model is available.' },
  UPSTREAM_UNAVAILABLE: { status: 502, message: 'A service this request needs is unavailable.' },
  INTERNAL_ERROR: { status: 500, message: 'Something went wrong on our side.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof CATALOGUE;

/** Thrown anywhere in the module; the router turns it into the 2.2 body. Messages never carry input values. */
export class AdminError extends Error {
  readonly code: ErrorCode;
  readonly status: number;

  constructor(code: ErrorCode, message?: string) {
    super(message ?? CATALOGUE[code].message);
    this.code = code;
    this.status = CATALOGUE[code].status;
  }
}

const CORRELATION_SHAPE = /^corr-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** spec 2.1: the caller's X-Correlation-ID when it has the agreed shape, else a new one. */
export const correlationIdOf = (given: string | undefined, newUuid: () => string): string =>
  given !== undefined && CORRELATION_SHAPE.test(given) ? given : `corr-${newUuid()}`;

export function jsonReply(status: number, body: unknown, correlationId: string): AdminReply {
  return {
    status,
    contentType: 'application/json',
    body: JSON.stringify(body),
    headers: { 'X-Correlation-ID': correlationId, 'Cache-Control': 'no-store' },
  };
}

/** spec 2.2 error object. */
export function errorReply(error: AdminError, correlationId: string, nowMs: number): AdminReply {
  return jsonReply(
    error.status,
    { code: error.code, message: error.message, correlationId, timestamp: new Date(nowMs).toISOString() },
    correlationId,
  );
}
