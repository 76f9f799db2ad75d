import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { acceptCorrelationId as accept, CORRELATION_HEADER } from '../../contract/index.js';

export { CORRELATION_HEADER };

export function newCorrelationId(): string {
  return `corr-${randomUUID()}`;
}

/** Spec 2.1: the caller's id when it has the shape `corr-<uuid>`, a fresh one otherwise (contract/correlation.ts). */
export function acceptCorrelationId(value: string | undefined): string {
  return accept(value, randomUUID);
}

/** Accepts or generates the trace id, keeps it in `res.locals` and echoes it on every response. */
export const correlation: RequestHandler = (req, res, next) => {
  const correlationId = acceptCorrelationId(req.get(CORRELATION_HEADER));
  res.locals.correlationId = correlationId;
  res.set(CORRELATION_HEADER, correlationId);
  next();
};
