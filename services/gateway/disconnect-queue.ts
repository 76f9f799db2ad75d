import { keptUntilWrite, type Database } from '../kit/store/index.js';
import type { CoaStatus, DisconnectStatus, DueRequest } from './connection-records.js';
import type { CountersBuffer } from './counters-buffer.js';

/** A CoA attempt's answer: final, dropped (status null: the session ended meanwhile), or another try. */
export type CoaOutcome = { status: Exclude<CoaStatus, 'PENDING'> | null } | { retryAt: Date };
/** A Disconnect attempt's answer: final, or another try. */
export type DisconnectOutcome = { status: Exclude<DisconnectStatus, 'PENDING'> } | { retryAt: Date };

/**
 * The Disconnect-Request and CoA-Request queues (columns `disconnect_*` and `coa_*` of a
 * connection): what is due, leased to one sender at a time, and each attempt's answer.
 */
export interface DisconnectQueue {
  takeDue(now: Date, leaseUntil: Date, limit: number): Promise<DueRequest[]>;
  nextDueAt(): Promise<Date | undefined>;
  takeDueCoa(now: Date, leaseUntil: Date, limit: number): Promise<DueRequest[]>;
  settleCoa(nasId: string, acctSessionId: string, outcome: CoaOutcome): Promise<void>;
  coaOf(nasId: string, acctSessionId: string): Promise<{ status: CoaStatus | null; attempts: number } | undefined>;
  /** A connection whose caps passed a shrunk allowance at a controller without CoA: its CoA entry turns into a Disconnect due now. */
  disconnectInstead(nasId: string, acctSessionId: string, now: Date): Promise<void>;
  settle(nasId: string, acctSessionId: string, outcome: DisconnectOutcome, now: Date): Promise<void>;
}

/** The caps the latest Access-Accept of a connection's session at its NAS gave (credential-store.ts `gave`), as JSON; NULL when none was recorded. */
const GIVEN = `(SELECT json_build_object('seconds', c.given_seconds, 'octets', c.given_octets) FROM credentials c
     WHERE c.session_id = connections.session_id AND c.nas_id = connections.nas_id AND c.given_at IS NOT NULL
     ORDER BY c.given_at DESC LIMIT 1)`;

/** A final Disconnect answer ends what `buffer` knows of the connection first. */
export function createDisconnectQueue(db: Database, buffer: CountersBuffer): DisconnectQueue {
  /** The due requests of one queue (its columns `<queue>_status`, `_next_at`, `_attempts`), each leased until `leaseUntil` (another sender, or a restart, takes it after). */
  const takeDueOf = async (queue: 'disconnect' | 'coa', now: Date, leaseUntil: Date, limit: number): Promise<DueRequest[]> => {
    const rows = await db.query<{
      nas_id: string;
      acct_session_id: string;
      session_id: string;
      attempts: number;
      identity: string | null;
      usage_sent_octets: string | number;
      usage_sent_seconds: string | number;
      given: { seconds: number; octets: string | number | null } | null;
    }>(
      `UPDATE connections SET ${queue}_next_at = $2, ${queue}_attempts = ${queue}_attempts + 1
       WHERE (nas_id, acct_session_id) IN (
         SELECT nas_id, acct_session_id FROM connections
         WHERE ${queue}_status = 'PENDING' AND ${queue}_next_at <= $1
         ORDER BY ${queue}_next_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING nas_id, acct_session_id, session_id, ${queue}_attempts AS attempts, identity, usage_sent_octets, usage_sent_seconds,
         ${queue === 'coa' ? GIVEN : 'NULL'} AS given`,
      [now, leaseUntil, limit],
    );
    return rows.map((r) => ({
      nasId: r.nas_id,
      acctSessionId: r.acct_session_id,
      sessionId: r.session_id,
      attempt: r.attempts,
      sealedIdentity: r.identity,
      counted: { octets: Number(r.usage_sent_octets), seconds: Number(r.usage_sent_seconds) },
      ...(r.given === null ? {} : { given: { seconds: Number(r.given.seconds), octets: r.given.octets === null ? null : Number(r.given.octets) } }),
    }));
  };
  return {
    /** Takes the due Disconnects, each leased until `leaseUntil`. */
    takeDue: (now: Date, leaseUntil: Date, limit: number) => takeDueOf('disconnect', now, leaseUntil, limit),

    /** When the next queued Disconnect or CoA is due (or its lease ends), or undefined when none waits (kept until the next write on PGlite). */
    nextDueAt: keptUntilWrite(db, async (): Promise<Date | undefined> => {
      const [row] = await db.query<{ next: Date | null }>(
        `SELECT least((SELECT min(disconnect_next_at) FROM connections WHERE disconnect_status = 'PENDING'),
                      (SELECT min(coa_next_at) FROM connections WHERE coa_status = 'PENDING')) AS next`,
      );
      return row?.next ?? undefined;
    }),

    /** The due CoA-Requests, each leased until `leaseUntil`. */
    takeDueCoa: (now: Date, leaseUntil: Date, limit: number) => takeDueOf('coa', now, leaseUntil, limit),

    /** A CoA attempt's answer: final (ACKED, NAKED, NO_ANSWER), dropped (null: the session ended meanwhile), or another try at `retryAt`. */
    async settleCoa(nasId: string, acctSessionId: string, outcome: CoaOutcome): Promise<void> {
      if ('retryAt' in outcome) {
        await db.query(`UPDATE connections SET coa_next_at = $3 WHERE nas_id = $1 AND acct_session_id = $2 AND coa_status = 'PENDING'`, [
          nasId,
          acctSessionId,
          outcome.retryAt,
        ]);
        return;
      }
      await db.query(`UPDATE connections SET coa_status = $3, coa_next_at = NULL WHERE nas_id = $1 AND acct_session_id = $2 AND coa_status = 'PENDING'`, [
        nasId,
        acctSessionId,
        outcome.status,
      ]);
    },

    /** A connection's CoA state (tests and the operator's view). */
    async coaOf(nasId: string, acctSessionId: string): Promise<{ status: CoaStatus | null; attempts: number } | undefined> {
      const [row] = await db.query<{ coa_status: CoaStatus | null; coa_attempts: number }>(
        'SELECT coa_status, coa_attempts FROM connections WHERE nas_id = $1 AND acct_session_id = $2',
        [nasId, acctSessionId],
      );
      return row === undefined ? undefined : { status: row.coa_status, attempts: row.coa_attempts };
    },

    async disconnectInstead(nasId: string, acctSessionId: string, now: Date): Promise<void> {
      await db.query(
        `UPDATE connections SET coa_status = NULL, coa_next_at = NULL, disconnect_status = 'PENDING', disconnect_next_at = $3
         WHERE nas_id = $1 AND acct_session_id = $2 AND coa_status = 'PENDING' AND disconnect_status IS NULL AND stopped_at IS NULL`,
        [nasId, acctSessionId, now],
      );
    },

    /** The answer to one attempt: final (ACKED, NAKED, GONE, NO_ANSWER) or another try at `retryAt`; GONE also ends the connection. */
    async settle(nasId: string, acctSessionId: string, outcome: DisconnectOutcome, now: Date): Promise<void> {
      if ('retryAt' in outcome) {
        await db.query(`UPDATE connections SET disconnect_next_at = $3 WHERE nas_id = $1 AND acct_session_id = $2 AND disconnect_status = 'PENDING'`, [
          nasId,
          acctSessionId,
          outcome.retryAt,
        ]);
        return;
      }
      await buffer.settle(nasId, acctSessionId);
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
