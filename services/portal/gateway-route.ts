import { ApiError, route, type Route } from '../kit/index.js';
import type { PortalConfig } from './config.js';
import { sidCookie } from './cookies.js';
import { parseGatewayContext } from './gateway-context.js';
import type { GatewayContextStore } from './gateway-context-store.js';

/** Issue 17: where a gateway sends a captive device; the context is kept for the sign-in that follows. */
export function gatewayRoute(config: PortalConfig, gatewayContexts: GatewayContextStore): Route {
  const cookie = sidCookie(config.PORTAL_PUBLIC_URL);
  return route({
    method: 'get',
    path: '/gateway',
    summary: 'Issue 17: where a gateway sends a captive device (UAM/WISPr or Cisco web-auth parameters); keeps the context for the sign-in and shows the sign-in page.',
    responses: {
      303: { description: 'Context kept behind cookie gw (or none given); to the sign-in page, without the parameters.' },
      400: { description: 'INVALID_REQUEST: a gateway parameter is malformed (named, never echoed).' },
    },
    handle: async ({ req, res }) => {
      const parsed = parseGatewayContext(req.query as Record<string, unknown>, config.GATEWAY_DEFAULT_NAS_ID);
      if (parsed.kind === 'invalid') throw new ApiError('INVALID_REQUEST', { message: `Gateway parameters: ${parsed.problems.map((problem) => problem.split(':')[0]).join(', ')} malformed.` });
      if (parsed.kind === 'context') {
        const ttl = config.GATEWAY_CONTEXT_TTL_SECONDS * 1000;
        cookie.gateway(req, res, await gatewayContexts.put(parsed.context), ttl);
      }
      res.setHeader('Location', '/');
      return { status: 303, body: undefined };
    },
  });
}
