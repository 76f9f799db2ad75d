import { randomUUID } from 'node:crypto';
import { acceptCorrelationId as accept, CORRELATION_HEADER } from '../../contract/index.js';

export { CORRELATION_HEADER };

export function newCorrelationId(): string {
  return `corr-${randomUUID()}`;
}

/** Spec 2.1: the caller's id when it has the shape `corr-<uuid>`, a fresh one otherwise (contract/correlation.ts). */
export function acceptCorrelationId(value: string | undefined): string {
  return accept(value, randomUUID);
}
