import { ApiError, route, type Route } from '../kit/index.js';
import type { PortalConfig } from './config.js';
import { deviceOf } from './cookies.js';
import { crossSiteGuard } from './cross-site.js';
import type { IdpClient, PortalClient } from './idp-client.js';
import type { PortalSessions } from './portal-session.js';
import { LogoutReply, MetaReply, PortalSession, Unauthenticated } from './schemas.js';

/** Spec 4.1: reading, refreshing and ending the signed-in state, and what the UI needs to know. */
export function sessionRoutes(config: PortalConfig, sessions: PortalSessions, idp: IdpClient): Route[] {
  const { sameOrigin, problem: crossSiteProblem } = crossSiteGuard(config.PORTAL_PUBLIC_URL);
  return [
    route({
      method: 'get',
      path: '/api/v1/auth/session',
      summary: 'The signed-in state, with the network session re-read; always 200.',
      responses: { 200: { description: 'PortalSession, or {authenticated:false}.', schema: PortalSession.or(Unauthenticated) } },
      handle: async ({ req, correlationId }) => {
        const found = await sessions.current(req, correlationId);
        if (found === undefined) return { status: 200, body: { authenticated: false, correlationId } };
        const connection = await sessions.connection(found.stored, correlationId);
        return { status: 200, body: sessions.view(found.stored, found.session, correlationId, connection === undefined ? {} : { connection }) };
      },
    }),
    route({
      method: 'post',
      path: '/api/v1/auth/refresh',
      summary: 'Refreshes the tokens with the refresh token, re-reads the network session and renews the cookie.',
      steps: [sameOrigin],
      responses: {
        200: { description: 'Refreshed; sets a new cookie sid.', schema: PortalSession },
        401: { description: 'UNAUTHORIZED' },
        403: { description: 'FORBIDDEN (cross-site request)' },
      },
      handle: async ({ req, res, correlationId }) => {
        const found = await sessions.current(req, correlationId);
        if (found === undefined || found.stored.refreshToken === null) throw new ApiError('UNAUTHORIZED', { message: 'No portal session to refresh.' });
        const outcome = await idp.refresh(found.stored.client as PortalClient, found.stored.refreshToken, correlationId);
        if (outcome.kind !== 'tokens') {
          // The identity provider ended this sign-in (logout, disabled account): so does the network.
          if (outcome.kind === 'refused') await sessions.end(req, res, correlationId, { identityProviderEnded: true });
          throw new ApiError('UNAUTHORIZED', { message: 'The sign-in could not be refreshed.' });
        }
        const data = {
          ...found.stored,
          accessToken: outcome.tokens.accessToken,
          refreshToken: outcome.tokens.refreshToken ?? found.stored.refreshToken,
          networkSession: found.session,
        };
        await sessions.open(req, res, data, deviceOf(req).handle, correlationId, 'itself');
        return { status: 200, body: sessions.view(data, found.session, correlationId) };
      },
    }),
    route({
      method: 'post',
      path: '/api/v1/auth/logout',
      summary: 'Revokes the network session, logs out at the identity provider, drops the portal session; always 200.',
      responses: { 200: { description: '{ok, correlationId}; ok is false when a step could not be done.', schema: LogoutReply } },
      handle: async ({ req, res, correlationId }) => {
        // Always 200 (spec 4.1 rule 5): a cross-site attempt changes nothing and answers ok:false.
        if (crossSiteProblem(req, false) !== undefined) return { status: 200, body: { ok: false, correlationId } };
        return { status: 200, body: { ok: await sessions.end(req, res, correlationId), correlationId } };
      },
    }),
    route({
      method: 'get',
      path: '/api/v1/meta',
      summary: 'What the UI needs to know about this portal.',
      responses: { 200: { description: 'Meta.', schema: MetaReply } },
      handle: () => ({
        status: 200,
        body: {
          flight: config.PORTAL_FLIGHT,
          idp: `${config.IDP_PUBLIC_URL ?? config.IDP_URL}/realms/${config.IDP_REALM}`,
          mode: 'api',
          exposeToken: config.EXPOSE_TOKEN,
        },
      }),
    }),
  ];
}
