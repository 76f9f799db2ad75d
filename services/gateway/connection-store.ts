import { keptUntilWrite, type Database } from '../kit/store/index.js';

export type DisconnectStatus = 'PENDING' | 'ACKED' | 'NAKED' | 'GONE' | 'NO_ANSWER';

export interface Usage {
  nasId: string;
  acctSessionId: string;
  sessionId: string;
  usernameHash: string | null;
  status: 'Start' | 'Interim-Update' | 'Stop';
  inputOctets: number;
  outputOctets: number;
  sessionTime: number;
  /** Issue 27: the session's identifying attributes, sealed (null on a Stop: erased). */
  sealedIdentity: string | null;
  /** Acct-Terminate-Cause of a Stop, as the NAS named it. */
  stopCause: string | null;
}

export interface ConnectionRecord {
  nasId: string;
  acctSessionId: string;
  sessionId: string;
  startedAt: Date;
  updatedAt: Date;
  stoppedAt: Date | null;
  inputOctets: number;
  outputOctets: number;
  sessionTime: number;
  disconnectStatus: DisconnectStatus | null;
  disconnectAttempts: number;
}

interface ConnectionRow {
  nas_id: string;
  acct_session_id: string;
  session_id: string;
  started_at: Date;
  updated_at: Date;
  stopped_at: Date | null;
  input_octets: string | number;
  output_octets: string | number;
  session_time: number;
  disconnect_status: DisconnectStatus | null;
  disconnect_attempts: number;
  [column: string]: unknown;
}

const toRecord = (row: ConnectionRow): ConnectionRecord => ({
  nasId: row.nas_id,
  acctSessionId: row.acct_session_id,
  sessionId: row.session_id,
  startedAt: row.started_at,
  updatedAt: row.updated_at,
  stoppedAt: row.stopped_at,
  inputOctets: Number(row.input_octets),
  outputOctets: Number(row.output_octets),
  sessionTime: row.session_time,
  disconnectStatus: row.disconnect_status,
  disconnectAttempts: row.disconnect_attempts,
});

/** A Disconnect-Request (or, issue 27 item 3, a CoA-Request) to send now: the row was leased to this sender until its answer is due. */
export interface DueRequest {
  nasId: string;
  acctSessionId: string;
  sessionId: string;
  attempt: number;
  /** The sealed identifying attributes from accounting, if the connection still runs. */
  sealedIdentity: string | null;
}

export type CoaStatus = 'PENDING' | 'ACKED' | 'NAKED' | 'NO_ANSWER';

type Counters = Pick<Usage, 'inputOctets' | 'outputOctets' | 'sessionTime'>;

export interface ConnectionStoreOptions {
  onDisconnectQueued?: () => void;
  /**
   * Issue 27: how long the Interim-Updates of a running connection wait in memory before one
   * statement writes all of them (0: each at once). Counters are cumulative at the NAS: a crash
   * loses only their freshness. A Stop, a Start, a read of connections and shutdown write first.
   */
  interimFlushMs?: number;
  /** Connections known running are forgotten after this long without an Interim-Update. */
  forgetAfterMs?: number;
  onFlushError?: (error: unknown) => void;
}

/** A connection of one NAS, as the map keys it. */
const keyOf = (nasId: string, acctSessionId: string) => `${nasId}\u0000${acctSessionId}`;

/**
 * Gateway sessions from accounting, the Disconnect-Request queue and the change-feed cursor.
 * Everything a revocation causes is written in the transaction that moves the cursor, so a
 * crash between reading the feed and sending a Disconnect loses nothing (at-least-once).
 */
export function createConnectionStore(db: Database, options: ConnectionStoreOptions = {}) {
  const onDisconnectQueued = options.onDisconnectQueued ?? (() => undefined);
  const flushMs = options.interimFlushMs ?? 0;
  const forgetAfterMs = options.forgetAfterMs ?? 3_600_000;
  // Issue 27: connections an Interim-Update found running (by the statement below), and the
  // counters of Interim-Updates not yet written, per connection. Per instance: in a cluster each
  // writes what it received, and "the greatest value seen" makes the order of writers moot.
  const running = new Map<string, { sessionId: string; usernameHash: string | null; seenAt: number }>();
  const pending = new Map<string, { nasId: string; acctSessionId: string; sessionId: string; at: Date } & Counters>();
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();
  /** Writes the pending counters (all, or those of `keys`) in one statement. */
  const flush = (keys?: string[]): Promise<void> => {
    const take = keys === undefined ? [...pending.keys()] : keys.filter((key) => pending.has(key));
    if (take.length === 0) return flushing;
    const batch = take.flatMap((key) => {
      const entry = pending.get(key);
      return entry === undefined ? [] : [[key, entry] as const];
    });
    for (const key of take) pending.delete(key);
    const write = async () => {
      try {
        await db.query(
          `UPDATE connections AS c SET updated_at = GREATEST(c.updated_at, v.at), input_octets = GREATEST(c.input_octets, v.input_octets),
             output_octets = GREATEST(c.output_octets, v.output_octets), session_time = GREATEST(c.session_time, v.session_time)
           FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::bigint[], $6::bigint[], $7::integer[])
             AS v(nas_id, acct_session_id, session_id, at, input_octets, output_octets, session_time)
           WHERE c.nas_id = v.nas_id AND c.acct_session_id = v.acct_session_id AND c.session_id = v.session_id`,
          [batch.map(([, p]) => p.nasId), batch.map(([, p]) => p.acctSessionId), batch.map(([, p]) => p.sessionId), batch.map(([, p]) => p.at),
            batch.map(([, p]) => p.inputOctets), batch.map(([, p]) => p.outputOctets), batch.map(([, p]) => p.sessionTime)],
        );
      } catch (error) {
        // Kept for the next write (merged with what came since).
        for (const [key, entry] of batch) merge(key, entry);
        options.onFlushError?.(error);
      }
      const forgetBefore = Date.now() - forgetAfterMs;
      for (const [key, entry] of running) if (entry.seenAt < forgetBefore) running.delete(key);
    };
    flushing = flushing.then(write);
    return flushing;
  };
  const merge = (key: string, entry: { nasId: string; acctSessionId: string; sessionId: string; at: Date } & Counters) => {
    const known = pending.get(key);
    pending.set(key, known === undefined ? entry : {
      ...known,
      // biome-ignore lint/complexity/useMathMinMax: these are Dates; Math.max would make a number.
      at: known.at > entry.at ? known.at : entry.at,
      inputOctets: Math.max(known.inputOctets, entry.inputOctets),
      outputOctets: Math.max(known.outputOctets, entry.outputOctets),
      sessionTime: Math.max(known.sessionTime, entry.sessionTime),
    });
    // Armed only while something waits (an idle gateway runs no timer), never holding the process.
    if (timer === undefined) {
      timer = setTimeout(() => {
        timer = undefined;
        void flush();
      }, flushMs);
      timer.unref();
    }
  };
  /** Forgets (after writing its pending counters) a connection a Start, Stop or Disconnect changes. */
  const settleKey = async (nasId: string, acctSessionId: string) => {
    const key = keyOf(nasId, acctSessionId);
    running.delete(key);
    await flush([key]);
  };
  /** The due requests of one queue (its columns `<queue>_status`, `_next_at`, `_attempts`), each leased until `leaseUntil` (another sender, or a restart, takes it after). */
  const takeDueOf = async (queue: 'disconnect' | 'coa', now: Date, leaseUntil: Date, limit: number): Promise<DueRequest[]> => {
    const rows = await db.query<{ nas_id: string; acct_session_id: string; session_id: string; attempts: number; identity: string | null }>(
      `UPDATE connections SET ${queue}_next_at = $2, ${queue}_attempts = ${queue}_attempts + 1
       WHERE (nas_id, acct_session_id) IN (
         SELECT nas_id, acct_session_id FROM connections
         WHERE ${queue}_status = 'PENDING' AND ${queue}_next_at <= $1
         ORDER BY ${queue}_next_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING nas_id, acct_session_id, session_id, ${queue}_attempts AS attempts, identity`,
      [now, leaseUntil, limit],
    );
    return rows.map((r) => ({ nasId: r.nas_id, acctSessionId: r.acct_session_id, sessionId: r.session_id, attempt: r.attempts, sealedIdentity: r.identity }));
  };
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
      await settleKey(usage.nasId, usage.acctSessionId);
      // Issue 27: a Start under an Acct-Session-Id whose connection stopped, or belongs to another
      // session, is a new connection (a NAS reusing its ids after a reboot), not the old one's;
      // but only when it happened after that connection began (and ended): a Start replayed late
      // from FreeRADIUS's buffer (`now` is its event time, Acct-Delay-Time taken off) is the old
      // connection's own and re-opens nothing.
      if (usage.status === 'Start') {
        await db.query(
          'DELETE FROM connections WHERE nas_id = $1 AND acct_session_id = $2 AND started_at <= $4 AND (session_id <> $3 OR stopped_at <= $4)',
          [usage.nasId, usage.acctSessionId, usage.sessionId, now],
        );
      }
      // Times are the packets' event times: a late packet moves started_at back, updated_at never
      // back; a stopped connection stays stopped (and its identity erased) whatever comes later;
      // a packet of another session under the same id changes nothing.
      const [row] = await db.query<{ queued: boolean }>(
        `INSERT INTO connections AS c (nas_id, acct_session_id, session_id, username_hash, started_at, updated_at, stopped_at,
           input_octets, output_octets, session_time, identity, stop_cause, disconnect_status, disconnect_next_at)
         VALUES ($1, $2, $3, $4, $5, $5, CASE WHEN $6 = 'Stop' THEN $5::timestamptz END, $7, $8, $9, $10, $11,
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
           stop_cause = COALESCE(c.stop_cause, EXCLUDED.stop_cause)
         WHERE c.session_id = EXCLUDED.session_id
         RETURNING disconnect_status = 'PENDING' AND disconnect_attempts = 0 AS queued`,
        [usage.nasId, usage.acctSessionId, usage.sessionId, usage.usernameHash, now, usage.status, usage.inputOctets, usage.outputOctets, usage.sessionTime, usage.status === 'Stop' ? null : usage.sealedIdentity, usage.status === 'Stop' ? usage.stopCause : null],
      );
      if (row?.queued === true) onDisconnectQueued();
    },

    /**
     * Issue 27: an Interim-Update of a connection already running under this NAS's Acct-Session-Id
     * and the same network session (`sessionId`, the Class it was believed for) or, without a
     * Class, the same credential (`usernameHash`): its counters and time, in one statement; what a
     * Start established (session, identity, trust) is not looked at again. False when there is no
     * such connection: the caller records it the long way.
     */
    async interim(key: { nasId: string; acctSessionId: string; sessionId: string | null; usernameHash: string | null }, usage: Counters, now: Date): Promise<boolean> {
      const mapKey = keyOf(key.nasId, key.acctSessionId);
      const known = running.get(mapKey);
      if (flushMs > 0 && known !== undefined && ((key.sessionId !== null && known.sessionId === key.sessionId) || (key.usernameHash !== null && known.usernameHash === key.usernameHash))) {
        known.seenAt = Date.now();
        merge(mapKey, { nasId: key.nasId, acctSessionId: key.acctSessionId, sessionId: known.sessionId, at: now, ...usage });
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
      if (flushMs > 0) running.set(mapKey, { sessionId: row.session_id, usernameHash: row.username_hash, seenAt: Date.now() });
      return true;
    },

    /** Issue 27: writes the Interim-Updates waiting in memory (before a read of counters, and at shutdown). */
    async flush(): Promise<void> {
      clearTimeout(timer);
      timer = undefined;
      await flush();
    },

    /**
     * Issue 27: a NAS's Accounting-On or -Off (it rebooted, or is going down) at `now` (its event
     * time): every connection it had open then is over (not one that started after it, when the
     * packet arrives late). Answers how many were closed.
     */
    async closeAllOf(nasId: string, now: Date): Promise<number> {
      await flush();
      for (const [key] of running) if (key.startsWith(keyOf(nasId, ''))) running.delete(key);
      const rows = await db.query(
        `UPDATE connections SET stopped_at = $2, updated_at = GREATEST(updated_at, $2), stop_cause = 'NAS-Reboot', identity = NULL
         WHERE nas_id = $1 AND stopped_at IS NULL AND started_at <= $2 RETURNING acct_session_id`,
        [nasId, now],
      );
      return rows.length;
    },

    /** Issue 27: connections with no accounting since `silentSince` are closed as stale; answers how many. */
    async closeStale(silentSince: Date, now: Date): Promise<number> {
      // Issue 30: nothing open since before `silentSince` (what waits in memory only makes a
      // connection younger): nothing to close, and on PGlite an idle sweep runs no statement.
      const oldest = await oldestOpen();
      if (oldest === undefined || oldest >= silentSince) return 0;
      // What waits in memory proves a connection alive: written first.
      await flush();
      const rows = await db.query<{ nas_id: string; acct_session_id: string }>(
        `UPDATE connections SET stopped_at = $2, stop_cause = 'Stale', identity = NULL
         WHERE stopped_at IS NULL AND updated_at < $1 RETURNING nas_id, acct_session_id`,
        [silentSince, now],
      );
      for (const row of rows) running.delete(keyOf(row.nas_id, row.acct_session_id));
      return rows.length;
    },

    /** Issue 30: connections started and neither stopped nor ACKed away, per NAS (as `connected` reads; for the metric, on scrape). */
    async openPerNas(): Promise<{ nasId: string; open: number }[]> {
      const rows = await db.query<{ nas_id: string; open: string | number }>("SELECT nas_id, count(*) AS open FROM connections WHERE stopped_at IS NULL AND disconnect_status IS DISTINCT FROM 'ACKED' GROUP BY nas_id");
      return rows.map((row) => ({ nasId: row.nas_id, open: Number(row.open) }));
    },

    async connectionsOf(sessionId: string): Promise<ConnectionRecord[]> {
      await flush();
      const rows = await db.query<ConnectionRow>('SELECT * FROM connections WHERE session_id = $1 ORDER BY started_at DESC, acct_session_id', [sessionId]);
      return rows.map(toRecord);
    },

    /** Where the follower of `feed` goes on (kept until the next write on PGlite: an idle follower's read costs no statement). */
    cursor: keptUntilWrite(db, async (feed: string) => (await db.query<{ cursor: string }>('SELECT cursor FROM feed_cursor WHERE feed = $1', [feed]))[0]?.cursor, (feed) => feed),

    /**
     * Sessions ended: their credentials revoked, their running gateway sessions queued for a
     * Disconnect; sessions whose limits changed (`changed`): their running gateway sessions at
     * NASes whose controller takes a CoA (`coaNasIds`) queued for one; the cursor moved; one
     * transaction.
     */
    async endSessions(feed: string, ended: { sessionId: string; state: string }[], next: string, now: Date, changed: { sessionIds: string[]; coaNasIds: string[] } = { sessionIds: [], coaNasIds: [] }): Promise<void> {
      await db.transaction(async (tx) => {
        if (changed.sessionIds.length > 0 && changed.coaNasIds.length > 0) {
          await tx.query(
            `UPDATE connections SET coa_status = 'PENDING', coa_next_at = $2, coa_attempts = 0
             WHERE session_id = ANY($1::text[]) AND nas_id = ANY($3::text[]) AND stopped_at IS NULL AND disconnect_status IS NULL`,
            [changed.sessionIds, now, changed.coaNasIds],
          );
        }
        if (ended.length > 0) {
          const ids = ended.map((e) => e.sessionId);
          await tx.query(
            `INSERT INTO ended_sessions (session_id, state, ended_at)
             SELECT * FROM unnest($1::text[], $2::text[]) AS e(session_id, state), (SELECT $3::timestamptz) AS t(ended_at)
             ON CONFLICT (session_id) DO NOTHING`,
            [ids, ended.map((e) => e.state), now],
          );
          await tx.query('UPDATE credentials SET revoked_at = $2 WHERE session_id = ANY($1::text[]) AND revoked_at IS NULL', [ids, now]);
          // openNDS connections (issue 28) get no RADIUS Disconnect: their authorisations turn
          // REVOKING, which router/revocation-poll.sh asks for (a queued one is never handed out).
          await tx.query(
            `UPDATE connections SET disconnect_status = 'PENDING', disconnect_next_at = $2, coa_status = NULL, coa_next_at = NULL
             WHERE session_id = ANY($1::text[]) AND stopped_at IS NULL AND disconnect_status IS NULL AND acct_session_id NOT LIKE 'nds-%'`,
            [ids, now],
          );
          await tx.query(
            `UPDATE opennds_authorisations SET state = 'REVOKING', ended_at = $2, end_cause = 'session-ended'
             WHERE session_id = ANY($1::text[]) AND state IN ('PENDING', 'AUTHORISED')`,
            [ids, now],
          );
        }
        await tx.query(
          `INSERT INTO feed_cursor (feed, cursor) VALUES ($1, $2) ON CONFLICT (feed) DO UPDATE SET cursor = EXCLUDED.cursor`,
          [feed, next],
        );
      });
    },

    /** Takes the due Disconnects, each leased until `leaseUntil`. */
    takeDue: (now: Date, leaseUntil: Date, limit: number) => takeDueOf('disconnect', now, leaseUntil, limit),

    /** Issue 30: when the next queued Disconnect or CoA is due (or its lease ends), or undefined when none waits (kept until the next write on PGlite). */
    nextDueAt: keptUntilWrite(db, async (): Promise<Date | undefined> => {
      const [row] = await db.query<{ next: Date | null }>(
        `SELECT least((SELECT min(disconnect_next_at) FROM connections WHERE disconnect_status = 'PENDING'),
                      (SELECT min(coa_next_at) FROM connections WHERE coa_status = 'PENDING')) AS next`,
      );
      return row?.next ?? undefined;
    }),

    /** Issue 27 item 3: the due CoA-Requests, each leased until `leaseUntil`. */
    takeDueCoa: (now: Date, leaseUntil: Date, limit: number) => takeDueOf('coa', now, leaseUntil, limit),

    /** A CoA attempt's answer: final (ACKED, NAKED, NO_ANSWER), dropped (null: the session ended meanwhile), or another try at `retryAt`. */
    async settleCoa(nasId: string, acctSessionId: string, outcome: { status: Exclude<CoaStatus, 'PENDING'> | null } | { retryAt: Date }): Promise<void> {
      if ('retryAt' in outcome) {
        await db.query(`UPDATE connections SET coa_next_at = $3 WHERE nas_id = $1 AND acct_session_id = $2 AND coa_status = 'PENDING'`, [nasId, acctSessionId, outcome.retryAt]);
        return;
      }
      await db.query(`UPDATE connections SET coa_status = $3, coa_next_at = NULL WHERE nas_id = $1 AND acct_session_id = $2 AND coa_status = 'PENDING'`, [nasId, acctSessionId, outcome.status]);
    },

    /** Issue 27 item 3: a connection's CoA state (tests and the operator's view). */
    async coaOf(nasId: string, acctSessionId: string): Promise<{ status: CoaStatus | null; attempts: number } | undefined> {
      const [row] = await db.query<{ coa_status: CoaStatus | null; coa_attempts: number }>('SELECT coa_status, coa_attempts FROM connections WHERE nas_id = $1 AND acct_session_id = $2', [nasId, acctSessionId]);
      return row === undefined ? undefined : { status: row.coa_status, attempts: row.coa_attempts };
    },

    /** The answer to one attempt: final (ACKED, NAKED, GONE, NO_ANSWER) or another try at `retryAt`; GONE also ends the connection. */
    async settle(nasId: string, acctSessionId: string, outcome: { status: Exclude<DisconnectStatus, 'PENDING'> } | { retryAt: Date }, now: Date): Promise<void> {
      if ('retryAt' in outcome) {
        await db.query(
          `UPDATE connections SET disconnect_next_at = $3 WHERE nas_id = $1 AND acct_session_id = $2 AND disconnect_status = 'PENDING'`,
          [nasId, acctSessionId, outcome.retryAt],
        );
        return;
      }
      await settleKey(nasId, acctSessionId);
      await db.query(
        `UPDATE connections SET disconnect_status = $3, disconnect_done_at = $4, disconnect_next_at = NULL,
           stopped_at = CASE WHEN $3 = 'GONE' THEN COALESCE(stopped_at, $4) ELSE stopped_at END,
           identity = CASE WHEN $3 = 'NAKED' OR $3 = 'NO_ANSWER' THEN identity END
         WHERE nas_id = $1 AND acct_session_id = $2 AND disconnect_status = 'PENDING'`,
        [nasId, acctSessionId, outcome.status, now],
      );
    },
  };
}
export type ConnectionStore = ReturnType<typeof createConnectionStore>;
