import { z } from 'zod';
import { ConnectionHistory } from '../../contract/gateway.js';
import { PATH_ID_PATTERN } from '../../contract/ids.js';
import { requireApiKey, route, type CallerKey, type Route } from '../kit/index.js';
import type { GatewayScope } from './config.js';
import type { ConnectionStore } from './connection-store.js';

/** A person's copy of their data: every connection of one of their network sessions (the portal asks, session by session). */
export function copyRoutes(apiKeys: readonly CallerKey<GatewayScope>[], connections: ConnectionStore): Route[] {
  return [
    route({
      method: 'get',
      path: '/api/v1/connections/:sessionId/history',
      summary: 'Every connection of a network session at the gateways, newest first: where, when and how much; nothing that names the device.',
      security: 'apiKey',
      params: { sessionId: z.string().regex(PATH_ID_PATTERN) },
      steps: [requireApiKey(apiKeys, 'connections')],
      responses: {
        200: { description: 'The connections (none before any accounting Start).', schema: ConnectionHistory },
        400: { description: 'INVALID_REQUEST: a malformed session id.' },
        401: { description: 'UNAUTHORIZED' },
        403: { description: 'FORBIDDEN: the key lacks the connections scope.' },
        404: { description: 'NOT_FOUND: the address names no session (`..` and the like resolve elsewhere).' },
      },
      handle: async ({ params: { sessionId } }) => ({
        status: 200,
        body: {
          sessionId,
          connections: (await connections.connectionsOf(sessionId)).map((connection) => ({
            nasId: connection.nasId,
            startedAt: connection.startedAt.toISOString(),
            updatedAt: connection.updatedAt.toISOString(),
            stoppedAt: connection.stoppedAt?.toISOString() ?? null,
            inputOctets: connection.inputOctets,
            outputOctets: connection.outputOctets,
            sessionTime: connection.sessionTime,
          })),
        },
      }),
    }),
  ];
}
