import { livenessOf } from '../../contract/session.js';
import { route, type Route } from '../kit/index.js';
import type { PortalConfig } from './config.js';
import type { PortalSessions } from './portal-session.js';
import { CaptiveState } from './schemas.js';

/**
 * RFC 8908 Captive Portal API, beyond the spec: `captive` stays true until the caller's network
 * session, as the session service reads it now, is live and, for a sign-in through a gateway, the
 * gateway confirmed it; `seconds-remaining` and `bytes-remaining` are no more than the person's
 * allowance leaves. A network advertises this URI by DHCP option 114 / RA option 37 (RFC 8910).
 */
export function captiveRoute(config: PortalConfig, sessions: PortalSessions, now: () => Date): Route {
  const portalUrl = config.PORTAL_PUBLIC_URL;
  return route({
    method: 'get',
    path: '/api/captive',
    summary: 'RFC 8908 captive portal state (application/captive+json).',
    responses: { 200: { description: 'Captive state.', schema: CaptiveState } },
    handle: async ({ req, res, correlationId }) => {
      res.set('Content-Type', 'application/captive+json');
      res.set('Cache-Control', 'private');
      const found = await sessions.current(req, correlationId);
      const liveness = found?.fresh === true ? livenessOf(found.session, now()) : undefined;
      const connection = found === undefined || !liveness?.live ? undefined : await sessions.connection(found.stored, correlationId);
      // The allowance's counters, as the session read answered them: nothing left is captive as well.
      const left = found?.session.remaining ?? null;
      const usedUp = left !== null && (left.secondsRemaining === 0 || left.bytesRemaining === 0);
      if (liveness?.live !== true || connection?.connected === false || usedUp) return { status: 200, body: { captive: true, 'user-portal-url': portalUrl } };
      const seconds = left?.secondsRemaining == null ? liveness.secondsLeft : Math.min(liveness.secondsLeft, left.secondsRemaining);
      return {
        status: 200,
        // Signing in again at the portal opens a fresh entitlement and session.
        body: {
          captive: false,
          'user-portal-url': portalUrl,
          'seconds-remaining': seconds,
          ...(left?.bytesRemaining == null ? {} : { 'bytes-remaining': left.bytesRemaining }),
          'can-extend-session': true,
        },
      };
    },
  });
}
