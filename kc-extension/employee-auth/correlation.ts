import { acceptCorrelationId, CORRELATION_HEADER } from '../../contract/index.js';
import type { TokenRequest } from '../host/auth-host.js';

/** Spec 2.1: forward the caller's X-Correlation-ID when it has the agreed shape, else mint one. */
export function correlationId(request: TokenRequest, newUuid: () => string): string {
  return acceptCorrelationId(request.header(CORRELATION_HEADER), newUuid);
}
