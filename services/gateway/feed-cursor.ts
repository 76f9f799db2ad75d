import { keptUntilWrite, type Database } from '../kit/store/index.js';

/** A session the change feed reported ended, and the state it ended in. */
export interface EndedSession {
  sessionId: string;
  state: string;
}

/** Sessions whose limits changed, and the NASes that get them (a CoA-Request, or a limit check where the controller takes no CoA). */
export interface ChangedLimits {
  sessionIds: string[];
  coaNasIds: string[];
}

/**
 * Where the gateway's follower of the session change feed stands, and what one page of the feed
 * causes. Everything a revocation causes is written in the transaction that moves the cursor, so
 * a crash between reading the feed and sending a Disconnect loses nothing (at-least-once).
 */
export interface FeedCursor {
  cursor(feed: string): Promise<string | undefined>;
  endSessions(feed: string, ended: EndedSession[], next: string, now: Date, changed?: ChangedLimits): Promise<void>;
}

export function createFeedCursor(db: Database): FeedCursor {
  return {
    /** Where the follower of `feed` goes on (kept until the next write on PGlite: an idle follower's read costs no statement). */
    cursor: keptUntilWrite(
      db,
      async (feed: string) => (await db.query<{ cursor: string }>('SELECT cursor FROM feed_cursor WHERE feed = $1', [feed]))[0]?.cursor,
      (feed) => feed,
    ),

    /**
     * Sessions ended: their credentials revoked, their running gateway sessions queued for a
     * Disconnect; sessions whose limits changed (`changed`): their running gateway sessions at
     * NASes whose controller takes a CoA (`coaNasIds`) queued for one; the cursor moved; one
     * transaction.
     */
    async endSessions(feed: string, ended: EndedSession[], next: string, now: Date, changed: ChangedLimits = { sessionIds: [], coaNasIds: [] }): Promise<void> {
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
          // openNDS connections get no RADIUS Disconnect: their authorisations turn
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
        await tx.query(`INSERT INTO feed_cursor (feed, cursor) VALUES ($1, $2) ON CONFLICT (feed) DO UPDATE SET cursor = EXCLUDED.cursor`, [feed, next]);
      });
    },
  };
}
