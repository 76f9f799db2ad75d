import { route, type Route } from '../kit/index.js';
import type { PortalConfig } from './config.js';
import { connectionOf } from './connection.js';
import { readSid } from './cookies.js';
import type { PortalSessionStore } from './portal-session-store.js';
import { CaptiveState } from './schemas.js';
import type { Upstreams } from './upstreams.js';

/**
 * RFC 8908 Captive Portal API, beyond the spec: `captive` stays true until the caller's network
 * session is GRANTED and, for a sign-in through a gateway, the gateway confirmed it (issue 17). A network advertises this URI by DHCP option 114 / RA option 37 (RFC 8910).
 */
export function captiveRoute(config: PortalConfig, store: PortalSessionStore, upstreams: Upstreams, now: () => Date): Route {
  const portalUrl = config.PORTAL_PUBLIC_URL;
  return route({
    method: 'get',
    path: '/api/captive',
    summary: 'RFC 8908 captive portal state (application/captive+json).',
    responses: { 200: { description: 'Captive state.', schema: CaptiveState } },
    handle: async ({ req, res, correlationId }) => {
      res.set('Content-Type', 'application/captive+json');
      res.set('Cache-Control', 'private');
      const sid = readSid(req);
      const stored = sid === undefined ? undefined : await store.get(sid);
      const read = stored === undefined ? undefined : await upstreams.readSession(stored.networkSessionId, correlationId);
      const session = read?.kind === 'answer' && read.status === 200 ? read.body : undefined;
      const expiresAt = typeof session?.['expiresAt'] === 'string' ? Date.parse(session['expiresAt']) : Number.NaN;
      const connection = stored === undefined || session === undefined ? undefined : await connectionOf(upstreams, stored, correlationId);
      if (session?.['state'] !== 'GRANTED' || Number.isNaN(expiresAt) || connection?.connected === false) {
        return { status: 200, body: { captive: true, 'user-portal-url': portalUrl } };
      }
      return {
        status: 200,
        body: {
          captive: false,
          'user-portal-url': portalUrl,
          'seconds-remaining': Math.max(0, Math.floor((expiresAt - now().getTime()) / 1000)),
          // Signing in again at the portal opens a fresh entitlement and session.
          'can-extend-session': true,
        },
      };
    },
  });
}
