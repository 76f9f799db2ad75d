import { z } from 'zod';
import { NAS_ID_PATTERN } from '../../contract/ids.js';
import { jsonFastPath, requireApiKey, route, type FastPath, type Logger, type Route } from '../kit/index.js';
import { decideAccess, rejectReasonOf, type AccessDeps } from './access.js';
import { radiusAccess, radiusAccounting } from './metrics.js';
import { recordAccounting } from './accounting.js';
import { stationRefFor } from './device-credentials.js';
import type { ConnectionStore } from './connection-store.js';
import { AcceptBody, RadiusAttributes, RejectBody, text } from './radius-request.js';

const ACCOUNTING_STATUSES = new Set(['Start', 'Interim-Update', 'Stop', 'Accounting-On', 'Accounting-Off']);

export const nasQuery = {
  nas: z.string().regex(NAS_ID_PATTERN).describe('FreeRADIUS client name (%{client:shortname}): the NAS whose shared secret the packet proved.'),
};

/** What FreeRADIUS's rest module calls (edge/freeradius-site.ts writes its configuration). */
/** What an Accounting-Request does, whichever way it came (the route below, or the fast path). */
type AccountingHandler = (context: { body: RadiusAttributes; query: { nas: string }; correlationId: string }) => Promise<void>;

export function accountingHandler(
  access: AccessDeps,
  connections: ConnectionStore,
  seal: (text: string) => string,
  log: Logger,
  maxDelaySeconds: number,
): AccountingHandler {
  return async ({ body, query, correlationId }) => {
    const nas = query.nas;
    const outcome = await recordAccounting(connections, access.credentials, seal, nas, body, access.now(), maxDelaySeconds, (mac) =>
      stationRefFor(access.settings.DEVICE_REF_KEY, mac),
    );
    const status = text(body, 'Acct-Status-Type');
    radiusAccounting.inc({
      nas: access.gateways.has(nas) ? nas : 'unknown',
      status: status !== undefined && ACCOUNTING_STATUSES.has(status) ? status : 'other',
      outcome: outcome.kind,
    });
    // The accounting is kept whatever the session service says: a revoke it missed is retried
    // by the NAS's own retransmission only if we fail the packet, and a lost Stop is worse.
    if (outcome.kind === 'logged-off' && !(await access.peer.revoke(outcome.sessionId, correlationId)))
      log.warn({ sessionId: outcome.sessionId }, 'logoff at the gateway: the session service did not end the session');
    if (outcome.kind === 'nas-restart') log.info({ nasId: nas, closed: outcome.closed }, 'NAS restarted: its connections closed');
  };
}

/**
 * FreeRADIUS's accounting calls (an Interim-Update per connection and interval)
 * answered before the Express stack, as the route documents them.
 */
export function accountingFastPath(apiKey: string, accounting: AccountingHandler, logger: Logger): FastPath {
  return jsonFastPath({
    service: 'gateway',
    path: '/radius/accounting',
    apiKey,
    query: z.object(nasQuery),
    body: RadiusAttributes,
    bodyLimitBytes: 16 * 1024,
    logger,
    handle: accounting,
  });
}

export function radiusRoutes(apiKey: string, access: AccessDeps, accounting: AccountingHandler): Route[] {
  const key = requireApiKey(apiKey);
  return [
    route({
      method: 'post',
      path: '/radius/authorize',
      summary: 'Access-Request (PAP or CHAP): 200 with the Access-Accept attributes, or 401 with the Reply-Message of an Access-Reject.',
      security: 'apiKey',
      query: nasQuery,
      body: RadiusAttributes,
      steps: [key],
      responses: {
        200: { description: 'Accept.', schema: AcceptBody },
        401: { description: 'Reject (or UNAUTHORIZED without the key).', schema: z.union([RejectBody, z.object({ code: z.string() }).loose()]) },
      },
      handle: async ({ body, query, correlationId }) => {
        const nas = String(query['nas']);
        const reply = await decideAccess(access, nas, body, correlationId);
        radiusAccess.inc({
          nas: access.gateways.has(nas) ? nas : 'unknown',
          outcome: reply.status === 200 ? 'accept' : 'reject',
          reason: reply.status === 200 ? '' : rejectReasonOf(reply),
        });
        return reply;
      },
    }),
    route({
      method: 'post',
      path: '/radius/accounting',
      summary: 'Accounting-Request (Start, Interim-Update, Stop): recorded per gateway session; always acknowledged.',
      security: 'apiKey',
      query: nasQuery,
      body: RadiusAttributes,
      steps: [key],
      responses: { 204: { description: 'Acknowledged (recorded, or ignored when it concerns no session of ours).' } },
      handle: async (context) => {
        await accounting(context);
        return { status: 204, body: undefined };
      },
    }),
  ];
}
