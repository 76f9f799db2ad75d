import type { TokenRequest } from '../host/auth-host.js';

const SAFE_SHAPE = /^corr-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** spec 2.1: forward the caller's X-Correlation-ID when it has the agreed shape, else mint one. */
export function correlationId(request: TokenRequest, newUuid: () => string): string {
  const given = request.header('X-Correlation-ID');
  return given !== undefined && SAFE_SHAPE.test(given) ? given : `corr-${newUuid()}`;
}
