import { UUID } from './ids.js';

/** Spec 2.1: the trace id header carried portal -> identity provider -> HR -> entitlement -> session. */
export const CORRELATION_HEADER = 'X-Correlation-ID';

/** Spec 2.1: shape `corr-<uuid>`. */
export const CORRELATION_ID_PATTERN = new RegExp(`^corr-${UUID}$`, 'i');

export function isCorrelationId(value: string | undefined | null): value is string {
  return typeof value === 'string' && CORRELATION_ID_PATTERN.test(value);
}

/**
 * The caller's id when it has the spec's shape, else `corr-<newUuid()>`. Anything else is
 * replaced rather than trusted, so no caller can plant a value (a citizen number, say) in logs.
 */
export function acceptCorrelationId(value: string | undefined | null, newUuid: () => string): string {
  return isCorrelationId(value) ? value : `corr-${newUuid()}`;
}
