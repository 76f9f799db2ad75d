import type { AuthmonGrant, DeauthMethod } from '../../edge/controllers/opennds-authmon.js';
import type { Database } from '../kit/store/index.js';

/** Why the platform revokes an authorisation: its session ended, or its person's allowance is used up. */
export const REVOCATION_CAUSES = ['session-ended', 'allowance-used-up'] as const;

/** The connection row of an openNDS authorisation: the connection view reads openNDS clients as it reads RADIUS ones. */
export const connectionIdOf = (rhid: string) => `nds-${rhid.slice(0, 16)}`;

export interface QueuedAuthorisation extends AuthmonGrant {
  hid: string;
  nasId: string;
  sessionId: string;
  deviceRef: string;
}

interface GrantRow {
  rhid: string;
  session_minutes: number;
  up_kbit: number;
  down_kbit: number;
  up_quota_kb: string | number;
  down_quota_kb: string | number;
  custom: string;
  [column: string]: unknown;
}

/** The queue authmon collects: a signed-in client queued, polled, acknowledged. */
export interface OpenndsGrants {
  /** False when this hid or rhid was queued already (a replayed arrival). */
  queue(item: QueuedAuthorisation, now: Date): Promise<boolean>;
  /** What authmon is to authorise at this gateway now. */
  pending(nasId: string): Promise<AuthmonGrant[]>;
  /**
   * authmon authorised these: AUTHORISED, and a connection opens (the page reads it as connected).
   * A session may end between openNDS's authorisation and authmon's acknowledgement (the row is
   * REVOKING already): its connection opens too, so the revocation's report closes it and the
   * connection view does not lose a client that was online.
   */
  acked(nasId: string, rhids: readonly string[], now: Date): Promise<number>;
}

/** How an authorised client ends: the platform revokes it (revocation-poll.sh), or the gateway reports it (BinAuth). */
export interface OpenndsEnds {
  /** The rhids revocation-poll.sh is to deauthenticate at this gateway. */
  revoking(nasId: string): Promise<string[]>;
  /** revocation-poll.sh deauthenticated these: ENDED, their connections stopped (the Disconnect's ACK, in RADIUS terms). */
  revoked(nasId: string, rhids: readonly string[], now: Date): Promise<number>;
  /**
   * A BinAuth notice (the gateway ended the client): the row with this hid ends, its connection
   * stops with the byte counts. When the platform had ended the session (REVOKING), this is
   * revocation-poll.sh's own `ndsctl deauth` told by BinAuth, often before the script's report:
   * the revocation's acknowledgement (cause kept, disconnect ACKED), as `revoked` records it.
   * Otherwise the gateway ended it itself, with the method as its cause. A notice for a client
   * the script already reported revoked adds its usage only. Answers the session, or undefined
   * when no open or revoked row has this hid (an unknown or forged token).
   */
  deauthed(
    nasId: string,
    hid: string,
    method: DeauthMethod,
    usage: { bytesIncoming: number; bytesOutgoing: number; seconds: number },
    now: Date,
  ): Promise<string | undefined>;
}

/** One authorised client's running totals, as revocation-poll.sh read them from `ndsctl json`. */
export interface RunningCounters {
  hid: string;
  /** openNDS's download (its counters.incoming): the column BinAuth's bytes_incoming writes. */
  inputOctets: number;
  outputOctets: number;
}

/** openNDS's running counters, written to the connection as an Interim-Update's are. */
export interface OpenndsUsage {
  /**
   * Writes each client's totals to the connection of its open authorisation (AUTHORISED, or
   * REVOKING: still online until deauthenticated) at this gateway, with the seconds since
   * authmon's acknowledgement: the greatest of each seen, so a replayed, reordered or
   * backwards report changes nothing and BinAuth's end notice (exact bytes, never fewer)
   * counts once. Clients with no open authorisation here are skipped. Answers how many were written.
   */
  runningUsage(nasId: string, counters: readonly RunningCounters[], now: Date): Promise<number>;
}

/** The router's signed channel: its nonces, and when it was last heard from. */
export interface OpenndsChannel {
  /**
   * Records a signed request's nonce; false when this gateway's nonce was seen (a replay).
   * Nonces older than twice the window are dropped: a request that old is refused as stale.
   */
  spendNonce(nasId: string, nonce: string, now: Date, windowSeconds: number): Promise<boolean>;
  /**
   * A poll from the gateway: it is polling (the portal takes its arrivals), and its open
   * connections are alive (the stale sweep closes those of a gateway that stopped polling).
   */
  heardFrom(nasId: string, now: Date): Promise<void>;
  /** When the gateway's authmon (or BinAuth, revocation-poll.sh) last reached the platform; undefined: never. */
  lastPoll(nasId: string): Promise<Date | undefined>;
}

/**
 * openNDS authorisations in the gateway service's store (PostgreSQL), so any instance
 * answers any router's poll and nothing is lost on a restart. The session change feed's ends
 * reach them in the transaction that moves its cursor (connection-store.ts `endSessions`).
 */
export interface OpenndsStore extends OpenndsGrants, OpenndsEnds, OpenndsChannel, OpenndsUsage {}

export function createOpenndsStore(db: Database): OpenndsStore {
  return { ...openndsGrants(db), ...openndsEnds(db), ...openndsChannel(db), ...openndsUsage(db) };
}

function openndsGrants(db: Database): OpenndsGrants {
  return {
    async queue(item: QueuedAuthorisation, now: Date): Promise<boolean> {
      const rows = await db.query(
        `INSERT INTO opennds_authorisations (rhid, hid, nas_id, session_id, device_ref, session_minutes, up_kbit, down_kbit, up_quota_kb, down_quota_kb, custom, state, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'PENDING', $12) ON CONFLICT DO NOTHING RETURNING rhid`,
        [
          item.rhid,
          item.hid,
          item.nasId,
          item.sessionId,
          item.deviceRef,
          item.sessionMinutes,
          item.uploadKbitPerSecond,
          item.downloadKbitPerSecond,
          item.uploadQuotaKB,
          item.downloadQuotaKB,
          item.custom,
          now,
        ],
      );
      return rows.length === 1;
    },
    async pending(nasId: string): Promise<AuthmonGrant[]> {
      const rows = await db.query<GrantRow>("SELECT * FROM opennds_authorisations WHERE nas_id = $1 AND state = 'PENDING' ORDER BY created_at LIMIT 200", [
        nasId,
      ]);
      return rows.map((r) => ({
        rhid: r.rhid,
        sessionMinutes: r.session_minutes,
        uploadKbitPerSecond: r.up_kbit,
        downloadKbitPerSecond: r.down_kbit,
        uploadQuotaKB: Number(r.up_quota_kb),
        downloadQuotaKB: Number(r.down_quota_kb),
        custom: r.custom,
      }));
    },
    async acked(nasId: string, rhids: readonly string[], now: Date): Promise<number> {
      if (rhids.length === 0) return 0;
      return db.transaction(async (tx) => {
        const rows = await tx.query<{ rhid: string; session_id: string }>(
          `UPDATE opennds_authorisations SET state = CASE WHEN state = 'PENDING' THEN 'AUTHORISED' ELSE state END, authorised_at = $3
           WHERE nas_id = $1 AND rhid = ANY($2::text[]) AND (state = 'PENDING' OR (state = 'REVOKING' AND authorised_at IS NULL))
           RETURNING rhid, session_id`,
          [nasId, rhids, now],
        );
        for (const row of rows) {
          await tx.query(
            `INSERT INTO connections (nas_id, acct_session_id, session_id, started_at, updated_at) VALUES ($1, $2, $3, $4, $4)
             ON CONFLICT (nas_id, acct_session_id) DO NOTHING`,
            [nasId, connectionIdOf(row.rhid), row.session_id, now],
          );
        }
        return rows.length;
      });
    },
  };
}

function openndsEnds(db: Database): OpenndsEnds {
  return {
    async revoking(nasId: string): Promise<string[]> {
      const rows = await db.query<{ rhid: string }>(
        "SELECT rhid FROM opennds_authorisations WHERE nas_id = $1 AND state = 'REVOKING' ORDER BY ended_at LIMIT 200",
        [nasId],
      );
      return rows.map((r) => r.rhid);
    },
    async revoked(nasId: string, rhids: readonly string[], now: Date): Promise<number> {
      return db.transaction(async (tx) => {
        const rows = await tx.query<{ rhid: string }>(
          `UPDATE opennds_authorisations SET state = 'ENDED', end_cause = COALESCE(end_cause, 'revoked')
           WHERE nas_id = $1 AND rhid = ANY($2::text[]) AND state = 'REVOKING' RETURNING rhid`,
          [nasId, rhids],
        );
        await tx.query(
          `UPDATE connections SET stopped_at = COALESCE(stopped_at, $3), updated_at = $3, stop_cause = COALESCE(stop_cause, 'Admin-Reset'),
             disconnect_status = 'ACKED', disconnect_done_at = $3
           WHERE nas_id = $1 AND acct_session_id = ANY($2::text[])`,
          [nasId, rows.map((r) => connectionIdOf(r.rhid)), now],
        );
        return rows.length;
      });
    },
    async deauthed(
      nasId: string,
      hid: string,
      method: DeauthMethod,
      usage: { bytesIncoming: number; bytesOutgoing: number; seconds: number },
      now: Date,
    ): Promise<string | undefined> {
      return db.transaction(async (tx) => {
        const open = (
          await tx.query<{ rhid: string; session_id: string; state: string }>(
            `SELECT rhid, session_id, state FROM opennds_authorisations
             WHERE nas_id = $1 AND hid = $2 AND (state IN ('AUTHORISED', 'REVOKING') OR (state = 'ENDED' AND end_cause IN ($3, $4, 'revoked'))) FOR UPDATE`,
            [nasId, hid, ...REVOCATION_CAUSES],
          )
        )[0];
        if (open === undefined) return undefined;
        // A revoked client's notice may come after revocation-poll.sh's report (ENDED already):
        // it still carries the client's usage, which only BinAuth tells; the counters take the
        // greatest totals, so a notice counted twice adds nothing.
        const revoking = open.state !== 'AUTHORISED';
        await tx.query(
          `UPDATE opennds_authorisations SET state = 'ENDED', ended_at = COALESCE(ended_at, $2), end_cause = COALESCE(end_cause, $3) WHERE rhid = $1`,
          [open.rhid, now, revoking ? 'revoked' : method],
        );
        await tx.query(
          `UPDATE connections SET stopped_at = COALESCE(stopped_at, $3), updated_at = $3, stop_cause = COALESCE(stop_cause, $4),
             input_octets = GREATEST(input_octets, $5), output_octets = GREATEST(output_octets, $6), session_time = GREATEST(session_time, $7),
             disconnect_status = CASE WHEN $8::boolean THEN 'ACKED' ELSE disconnect_status END, disconnect_done_at = CASE WHEN $8::boolean THEN $3 ELSE disconnect_done_at END
           WHERE nas_id = $1 AND acct_session_id = $2`,
          [nasId, connectionIdOf(open.rhid), now, revoking ? 'Admin-Reset' : method, usage.bytesIncoming, usage.bytesOutgoing, usage.seconds, revoking],
        );
        return open.session_id;
      });
    },
  };
}

function openndsChannel(db: Database): OpenndsChannel {
  return {
    async spendNonce(nasId: string, nonce: string, now: Date, windowSeconds: number): Promise<boolean> {
      await db.query('DELETE FROM opennds_nonces WHERE seen_at < $1', [new Date(now.getTime() - 2 * windowSeconds * 1000)]);
      const rows = await db.query('INSERT INTO opennds_nonces (nas_id, nonce, seen_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING nonce', [
        nasId,
        nonce,
        now,
      ]);
      return rows.length === 1;
    },
    async heardFrom(nasId: string, now: Date): Promise<void> {
      await db.query(
        'INSERT INTO opennds_gateway_polls (nas_id, polled_at) VALUES ($1, $2) ON CONFLICT (nas_id) DO UPDATE SET polled_at = GREATEST(opennds_gateway_polls.polled_at, EXCLUDED.polled_at)',
        [nasId, now],
      );
      await db.query("UPDATE connections SET updated_at = $2 WHERE nas_id = $1 AND stopped_at IS NULL AND acct_session_id LIKE 'nds-%'", [nasId, now]);
    },
    async lastPoll(nasId: string): Promise<Date | undefined> {
      const [row] = await db.query<{ polled_at: Date }>('SELECT polled_at FROM opennds_gateway_polls WHERE nas_id = $1', [nasId]);
      return row === undefined ? undefined : new Date(row.polled_at);
    },
  };
}

function openndsUsage(db: Database): OpenndsUsage {
  return {
    async runningUsage(nasId: string, counters: readonly RunningCounters[], now: Date): Promise<number> {
      if (counters.length === 0) return 0;
      const rows = await db.query(
        `UPDATE connections AS c SET input_octets = GREATEST(c.input_octets, v.input_octets), output_octets = GREATEST(c.output_octets, v.output_octets),
           session_time = GREATEST(c.session_time, FLOOR(EXTRACT(EPOCH FROM ($2::timestamptz - c.started_at)))::integer), updated_at = GREATEST(c.updated_at, $2)
         FROM opennds_authorisations AS a, unnest($3::text[], $4::bigint[], $5::bigint[]) AS v(hid, input_octets, output_octets)
         WHERE a.nas_id = $1 AND a.hid = v.hid AND a.state IN ('AUTHORISED', 'REVOKING') AND a.authorised_at IS NOT NULL
           AND c.nas_id = $1 AND c.acct_session_id = 'nds-' || left(a.rhid, 16) AND c.stopped_at IS NULL
         RETURNING c.acct_session_id`,
        [nasId, now, counters.map((c) => c.hid), counters.map((c) => c.inputOctets), counters.map((c) => c.outputOctets)],
      );
      return rows.length;
    },
  };
}
