import { keptUntilWrite, type Database } from '../kit/store/index.js';
import { keyOf, toRecord, type ConnectionRecord, type ConnectionRow, type Counters, type Usage } from './connection-records.js';
import type { CountersBuffer } from './counters-buffer.js';

/** An Interim-Update's connection: its NAS and Acct-Session-Id, and what it was believed for. */
export interface InterimKey {
  nasId: string;
  acctSessionId: string;
  sessionId: string | null;
  usernameHash: string | null;
}

/** The gateway sessions accounting reports: written, read, and closed when their NAS is gone. */
export interface ConnectionLog {
  record(usage: Usage, now: Date): Promise<void>;
  interim(key: InterimKey, usage: Counters, now: Date): Promise<boolean>;
  closeAllOf(nasId: string, now: Date): Promise<number>;
  closeStale(silentSince: Date, now: Date): Promise<number>;
  openPerNas(): Promise<{ nasId: string; open: number }[]>;
  connectionsOf(sessionId: string): Promise<ConnectionRecord[]>;
}

/**
 * Connections from accounting. Interim-Updates of a running connection go through `buffer`
 * (written behind); whatever reads or ends a connection writes what waits there first.
 * A Start of a session already ended is queued for a Disconnect at once (`onDisconnectQueued`).
 */
export function createConnectionLog(db: Database, buffer: CountersBuffer, onDisconnectQueued: () => void): ConnectionLog {
  /** When the connection longest without accounting (as written) was last heard of, or undefined when none is open. */
  const oldestOpen = keptUntilWrite(db, async (): Promise<Date | undefined> => {
    const [row] = await db.query<{ oldest: Date | null }>('SELECT min(updated_at) AS oldest FROM connections WHERE stopped_at IS NULL');
    return row?.oldest ?? undefined;
  });
  return {
    /**
     * Records a Start, Interim-Update or Stop. A gateway session of an ended session that is still
     * running (a Start arriving after the revoke) is queued for a Disconnect at once.
     */
    async record(usage: Usage, now: Date): Promise<void> {
      await buffer.settle(usage.nasId, usage.acctSessionId);
      // A Start under an Acct-Session-Id whose connection stopped, or belongs to another
      // session, is a new connection (a NAS reusing its ids after a reboot), not the old one's;
      // but only when it happened after that connection began (and ended): a Start replayed late
      // from FreeRADIUS's buffer (`now` is its event time, Acct-Delay-Time taken off) is the old
      // connection's own and re-opens nothing.
      if (usage.status === 'Start') {
        await db.query('DELETE FROM connections WHERE nas_id = $1 AND acct_session_id = $2 AND started_at <= $4 AND (session_id <> $3 OR stopped_at <= $4)', [
          usage.nasId,
          usage.acctSessionId,
          usage.sessionId,
          now,
        ]);
      }
      // Times are the packets' event times: a late packet moves started_at back, updated_at never
      // back; a stopped connection stays stopped (its identity and station reference erased: only a
      // live connection needs them) whatever comes later;
      // a packet of another session under the same id changes nothing.
      const [row] = await db.query<{ queued: boolean }>(
        `INSERT INTO connections AS c (nas_id, acct_session_id, session_id, username_hash, started_at, updated_at, stopped_at,
           input_octets, output_octets, session_time, identity, stop_cause, device_id, station_ref, disconnect_status, disconnect_next_at)
         VALUES ($1, $2, $3, $4, $5, $5, CASE WHEN $6 = 'Stop' THEN $5::timestamptz END, $7, $8, $9, $10, $11, $12, $13,
           CASE WHEN $6 <> 'Stop' AND EXISTS (SELECT 1 FROM ended_sessions WHERE session_id = $3) THEN 'PENDING' END,
           CASE WHEN $6 <> 'Stop' AND EXISTS (SELECT 1 FROM ended_sessions WHERE session_id = $3) THEN $5::timestamptz END)
         ON CONFLICT (nas_id, acct_session_id) DO UPDATE SET
           started_at = LEAST(c.started_at, EXCLUDED.started_at),
           updated_at = GREATEST(c.updated_at, EXCLUDED.updated_at),
           stopped_at = COALESCE(c.stopped_at, CASE WHEN $6 = 'Stop' THEN $5::timestamptz END),
           input_octets = GREATEST(c.input_octets, EXCLUDED.input_octets),
           output_octets = GREATEST(c.output_octets, EXCLUDED.output_octets),
           session_time = GREATEST(c.session_time, EXCLUDED.session_time),
           identity = CASE WHEN $6 = 'Stop' OR c.stopped_at IS NOT NULL THEN NULL ELSE COALESCE(c.identity, EXCLUDED.identity) END,
           stop_cause = COALESCE(c.stop_cause, EXCLUDED.stop_cause),
           device_id = COALESCE(c.device_id, EXCLUDED.device_id),
           station_ref = CASE WHEN $6 = 'Stop' OR c.stopped_at IS NOT NULL THEN NULL ELSE COALESCE(c.station_ref, EXCLUDED.station_ref) END
         WHERE c.session_id = EXCLUDED.session_id
         RETURNING disconnect_status = 'PENDING' AND disconnect_attempts = 0 AS queued`,
        [
          usage.nasId,
          usage.acctSessionId,
          usage.sessionId,
          usage.usernameHash,
          now,
          usage.status,
          usage.inputOctets,
          usage.outputOctets,
          usage.sessionTime,
          usage.status === 'Stop' ? null : usage.sealedIdentity,
          usage.status === 'Stop' ? usage.stopCause : null,
          usage.deviceId ?? null,
          usage.status === 'Stop' ? null : (usage.stationRef ?? null),
        ],
      );
      if (row?.queued === true) onDisconnectQueued();
    },

    /**
     * An Interim-Update of a connection already running under this NAS's Acct-Session-Id
     * and the same network session (`sessionId`, the Class it was believed for) or, without a
     * Class, the same credential (`usernameHash`): its counters and time, in one statement; what a
     * Start established (session, identity, trust) is not looked at again. False when there is no
     * such connection: the caller records it the long way.
     */
    async interim(key: InterimKey, usage: Counters, now: Date): Promise<boolean> {
      const mapKey = keyOf(key.nasId, key.acctSessionId);
      const known = buffer.running(mapKey);
      if (
        buffer.enabled &&
        known !== undefined &&
        ((key.sessionId !== null && known.sessionId === key.sessionId) || (key.usernameHash !== null && known.usernameHash === key.usernameHash))
      ) {
        known.seenAt = Date.now();
        buffer.add(mapKey, { nasId: key.nasId, acctSessionId: key.acctSessionId, sessionId: known.sessionId, at: now, ...usage });
        return true;
      }
      const rows = await db.query<{ session_id: string; username_hash: string | null }>(
        `UPDATE connections SET updated_at = GREATEST(updated_at, $3), input_octets = GREATEST(input_octets, $6), output_octets = GREATEST(output_octets, $7), session_time = GREATEST(session_time, $8)
         WHERE nas_id = $1 AND acct_session_id = $2 AND stopped_at IS NULL AND identity IS NOT NULL AND (session_id = $4 OR username_hash = $5)
         RETURNING session_id, username_hash`,
        [key.nasId, key.acctSessionId, now, key.sessionId, key.usernameHash, usage.inputOctets, usage.outputOctets, usage.sessionTime],
      );
      const [row] = rows;
      if (row === undefined) return false;
      if (buffer.enabled) buffer.noteRunning(mapKey, { sessionId: row.session_id, usernameHash: row.username_hash, seenAt: Date.now() });
      return true;
    },

    /**
     * A NAS's Accounting-On or -Off (it rebooted, or is going down) at `now` (its event
     * time): every connection it had open then is over (not one that started after it, when the
     * packet arrives late). Answers how many were closed.
     */
    async closeAllOf(nasId: string, now: Date): Promise<number> {
      await buffer.write();
      buffer.forget((key) => key.startsWith(keyOf(nasId, '')));
      const rows = await db.query(
        `UPDATE connections SET stopped_at = $2, updated_at = GREATEST(updated_at, $2), stop_cause = 'NAS-Reboot', identity = NULL
         WHERE nas_id = $1 AND stopped_at IS NULL AND started_at <= $2 RETURNING acct_session_id`,
        [nasId, now],
      );
      return rows.length;
    },

    /** Connections with no accounting since `silentSince` are closed as stale; answers how many. */
    async closeStale(silentSince: Date, now: Date): Promise<number> {
      // Nothing open since before `silentSince` (what waits in memory only makes a
      // connection younger): nothing to close, and on PGlite an idle sweep runs no statement.
      const oldest = await oldestOpen();
      if (oldest === undefined || oldest >= silentSince) return 0;
      // What waits in memory proves a connection alive: written first.
      await buffer.write();
      const rows = await db.query<{ nas_id: string; acct_session_id: string }>(
        `UPDATE connections SET stopped_at = $2, stop_cause = 'Stale', identity = NULL
         WHERE stopped_at IS NULL AND updated_at < $1 RETURNING nas_id, acct_session_id`,
        [silentSince, now],
      );
      const closed = new Set(rows.map((row) => keyOf(row.nas_id, row.acct_session_id)));
      buffer.forget((key) => closed.has(key));
      return rows.length;
    },

    /** Connections started and neither stopped nor ACKed away, per NAS (as `connected` reads; for the metric, on scrape). */
    async openPerNas(): Promise<{ nasId: string; open: number }[]> {
      const rows = await db.query<{ nas_id: string; open: string | number }>(
        "SELECT nas_id, count(*) AS open FROM connections WHERE stopped_at IS NULL AND disconnect_status IS DISTINCT FROM 'ACKED' GROUP BY nas_id",
      );
      return rows.map((row) => ({ nasId: row.nas_id, open: Number(row.open) }));
    },

    async connectionsOf(sessionId: string): Promise<ConnectionRecord[]> {
      await buffer.write();
      const rows = await db.query<ConnectionRow>('SELECT * FROM connections WHERE session_id = $1 ORDER BY started_at DESC, acct_session_id', [sessionId]);
      return rows.map(toRecord);
    },
  };
}
