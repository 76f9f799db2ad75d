import { z } from 'zod';
import { CONTROLLER_PROFILES } from '../../edge/controllers/index.js';
import { ApiError, requireApiKey, route, type CallerKey, type Route } from '../kit/index.js';
import { chapAnswerFor, type Gateway, type GatewayRegistry } from '../../edge/index.js';
import type { GatewayScope } from './config.js';
import type { ConnectionStore } from './connection-store.js';
import type { CredentialStore } from './credential-store.js';
import { newUsername, passwordFor, usernameHash } from './credentials.js';
import { Connection, Credential, CredentialRequest } from './schemas.js';
import { PATH_ID_PATTERN } from '../../contract/ids.js';
import type { SessionPeer } from './session-client.js';

export interface PortalApiDeps {
  apiKeys: readonly CallerKey<GatewayScope>[];
  gateways: GatewayRegistry;
  credentials: CredentialStore;
  connections: ConnectionStore;
  peer: SessionPeer;
  now: () => Date;
  credentialKey: string;
  ttlSeconds: number;
}

function gatewayFor(gateways: GatewayRegistry, nasId: string | undefined): Gateway {
  const gateway = nasId === undefined ? (gateways.size === 1 ? [...gateways.values()][0] : undefined) : gateways.get(nasId);
  if (gateway === undefined)
    throw new ApiError('INVALID_REQUEST', {
      message: nasId === undefined ? 'nasId: required when several gateways are configured.' : 'nasId: no such gateway.',
    });
  return gateway;
}

/** What the portal calls: a one-time credential after a grant, and the connection state of a session. */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a route table: each route one declaration (schema, statuses, handler) read beside the OpenAPI it generates
export function portalRoutes(deps: PortalApiDeps): Route[] {
  const key = (scope: GatewayScope) => requireApiKey(deps.apiKeys, scope);
  return [
    route({
      method: 'post',
      path: '/api/v1/credentials',
      summary: 'Issues a one-time gateway credential for a GRANTED session and its device (single use, at most 120 s).',
      security: 'apiKey',
      body: CredentialRequest,
      steps: [key('credentials')],
      responses: {
        201: { description: 'The credential; its password is shown only here.', schema: Credential },
        403: { description: 'FORBIDDEN: the session belongs to another device.' },
        404: { description: 'NOT_FOUND: no such session.' },
        409: { description: 'SESSION_EXPIRED: the session is not GRANTED or has expired.' },
        502: { description: 'UPSTREAM_UNAVAILABLE: the session service did not answer.' },
      },
      handle: async ({ body, correlationId }) => {
        const gateway = gatewayFor(deps.gateways, body.nasId);
        const lookup = await deps.peer.read(body.sessionId, correlationId);
        if (lookup.kind === 'unavailable') throw new ApiError('UPSTREAM_UNAVAILABLE');
        if (lookup.kind === 'not-found') throw new ApiError('NOT_FOUND', { message: 'No session has this id.' });
        const now = deps.now();
        const sessionEnd = lookup.session.expiresAt === null ? 0 : Date.parse(lookup.session.expiresAt);
        if (lookup.session.state !== 'GRANTED' || sessionEnd <= now.getTime() || (await deps.credentials.ended(body.sessionId)))
          throw new ApiError('SESSION_EXPIRED');
        if (lookup.session.deviceRef !== body.deviceRef) throw new ApiError('FORBIDDEN', { message: 'The session belongs to another device.' });
        const username = newUsername();
        const password = passwordFor(deps.credentialKey, username);
        const expiresAt = new Date(Math.min(now.getTime() + deps.ttlSeconds * 1000, sessionEnd));
        await deps.credentials.issue({
          usernameHash: usernameHash(username),
          sessionId: body.sessionId,
          deviceRef: body.deviceRef,
          nasId: gateway.nasId,
          issuedAt: now,
          expiresAt,
        });
        const chap = CONTROLLER_PROFILES[gateway.profile].login.chap;
        const chapResponse = chapAnswerFor(chap, password, { challenge: body.challenge ?? null, chapId: body.chapId ?? null, uamSecret: gateway.uamSecret });
        return {
          status: 201,
          body: { username, password, ...(chapResponse === undefined ? {} : { chapResponse }), nasId: gateway.nasId, expiresAt: expiresAt.toISOString() },
        };
      },
    }),
    route({
      method: 'get',
      path: '/api/v1/connections/:sessionId',
      summary: 'Whether the gateway confirmed the session (accounting Start) and its usage; the newest gateway session counts.',
      security: 'apiKey',
      params: { sessionId: z.string().regex(PATH_ID_PATTERN) },
      steps: [key('connections')],
      responses: {
        200: { description: 'The connection state (NONE before any Start).', schema: Connection },
        400: { description: 'INVALID_REQUEST: a malformed session id.' },
        403: { description: 'FORBIDDEN: the key lacks the connections scope.' },
        404: { description: 'NOT_FOUND: the address names no session (`..` and the like resolve elsewhere).' },
      },
      handle: async ({ params: { sessionId } }) => {
        const latest = (await deps.connections.connectionsOf(sessionId))[0];
        if (latest === undefined) {
          return {
            status: 200,
            body: {
              sessionId,
              state: 'NONE',
              connected: false,
              nasId: null,
              startedAt: null,
              updatedAt: null,
              stoppedAt: null,
              inputOctets: 0,
              outputOctets: 0,
              sessionTime: 0,
              disconnect: null,
            },
          };
        }
        const connected = latest.stoppedAt === null && latest.disconnectStatus !== 'ACKED';
        return {
          status: 200,
          body: {
            sessionId,
            state: connected ? 'CONNECTED' : 'DISCONNECTED',
            connected,
            nasId: latest.nasId,
            startedAt: latest.startedAt.toISOString(),
            updatedAt: latest.updatedAt.toISOString(),
            stoppedAt: latest.stoppedAt?.toISOString() ?? null,
            inputOctets: latest.inputOctets,
            outputOctets: latest.outputOctets,
            sessionTime: latest.sessionTime,
            disconnect: latest.disconnectStatus,
          },
        };
      },
    }),
  ];
}
