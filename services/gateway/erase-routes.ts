import { ConnectionErasure, ConnectionErasureRequest } from '../../contract/gateway.js';
import { requireApiKey, route, type CallerKey, type Route } from '../kit/index.js';
import type { Database } from '../kit/store/index.js';
import type { GatewayScope } from './config.js';

/**
 * Erases what the gateway service holds of a person's network sessions, in one transaction.
 * The sessions are ended here first, as the change feed would end them (nothing of theirs is
 * accepted again, running connections queued for a Disconnect), so the erasure does not wait
 * for the feed and the REVOKED change arriving later finds them ended already. Credentials (a
 * username hash and device reference) are deleted; connections keep only their counters for the
 * accounting totals: the username hash goes, and the sealed identity goes too unless a
 * Disconnect still needs it (the sender erases it once the NAS answers). openNDS authorisations
 * lose their device reference. Repeating it changes nothing more.
 */
export async function eraseConnections(db: Database, sessionIds: readonly string[], now: Date): Promise<ConnectionErasure> {
  if (sessionIds.length === 0) return { sessions: 0, disconnectsPending: 0 };
  const ids = [...new Set(sessionIds)];
  return db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO ended_sessions (session_id, state, ended_at) SELECT session_id, 'REVOKED', $2 FROM unnest($1::text[]) AS e(session_id)
       ON CONFLICT (session_id) DO NOTHING`,
      [ids, now],
    );
    await tx.query('DELETE FROM credentials WHERE session_id = ANY($1::text[])', [ids]);
    // 802.1X device credentials die with the person: their hashes are deleted, not kept as removed.
    await tx.query('DELETE FROM device_credentials WHERE session_id = ANY($1::text[])', [ids]);
    await tx.query(
      `UPDATE connections SET disconnect_status = 'PENDING', disconnect_next_at = $2, coa_status = NULL, coa_next_at = NULL
       WHERE session_id = ANY($1::text[]) AND stopped_at IS NULL AND disconnect_status IS NULL AND acct_session_id NOT LIKE 'nds-%'`,
      [ids, now],
    );
    const pending = await tx.query<{ n: string }>(
      `WITH erased AS (
         UPDATE connections SET username_hash = NULL, station_ref = NULL, identity = CASE WHEN disconnect_status = 'PENDING' THEN identity END
         WHERE session_id = ANY($1::text[]) RETURNING disconnect_status)
       SELECT count(*) FILTER (WHERE disconnect_status = 'PENDING')::text AS n FROM erased`,
      [ids],
    );
    await tx.query(
      `UPDATE opennds_authorisations SET state = 'REVOKING', ended_at = $2, end_cause = 'session-ended'
       WHERE session_id = ANY($1::text[]) AND state IN ('PENDING', 'AUTHORISED')`,
      [ids, now],
    );
    await tx.query(`UPDATE opennds_authorisations SET device_ref = '' WHERE session_id = ANY($1::text[])`, [ids]);
    return { sessions: ids.length, disconnectsPending: Number(pending[0]?.n ?? 0) };
  });
}

/** The gateway service's part of a person's erasure; the caller names the person's network sessions. */
export function eraseRoutes(
  apiKeys: readonly CallerKey<GatewayScope>[],
  db: Database,
  flush: () => Promise<void>,
  onQueued: () => void,
  now: () => Date,
): Route[] {
  return [
    route({
      method: 'post',
      path: '/api/v1/connections/erase',
      summary:
        "Erases a person's traces at the gateways: their sessions ended (running connections disconnected), credentials deleted, connections kept only as counters without username hash or device identity; repeating it changes nothing more.",
      security: 'apiKey',
      body: ConnectionErasureRequest,
      steps: [requireApiKey(apiKeys, 'erase')],
      responses: {
        200: { description: 'Erased.', schema: ConnectionErasure },
        400: { description: 'INVALID_REQUEST: not a list of session ids.' },
        401: { description: 'UNAUTHORIZED' },
        403: { description: 'FORBIDDEN: the key lacks the erase scope.' },
      },
      handle: async ({ body }) => {
        // Interim-Update counters waiting in memory are written first: nothing of theirs lands after.
        await flush();
        const erased = await eraseConnections(db, body.sessionIds, now());
        if (erased.disconnectsPending > 0) onQueued();
        return { status: 200, body: erased };
      },
    }),
  ];
}
