import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';

export const CORRELATION_HEADER = 'X-Correlation-ID';

// Spec 2.1: shape `corr-<uuid>`. Anything else is replaced rather than trusted, so a caller
// cannot plant a citizen number (or any other value) in our logs through this header.
const CORRELATION_SHAPE = /^corr-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function newCorrelationId(): string {
  return `corr-${randomUUID()}`;
}

/** The caller's id when it has the spec's shape, a fresh one otherwise. */
export function acceptCorrelationId(value: string | undefined): string {
  return value !== undefined && CORRELATION_SHAPE.test(value) ? value : newCorrelationId();
}

/** Accepts or generates the trace id, keeps it in `res.locals` and echoes it on every response. */
export const correlation: RequestHandler = (req, res, next) => {
  const correlationId = acceptCorrelationId(req.get(CORRELATION_HEADER));
  res.locals.correlationId = correlationId;
  res.set(CORRELATION_HEADER, correlationId);
  next();
};
