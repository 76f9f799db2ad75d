import type { UsageReport } from '../../contract/session.js';
import type { Logger } from '../kit/index.js';
import type { Database } from '../kit/store/index.js';
import type { SessionPeer } from './session-client.js';

/** How many connections one call to the session service carries at most (its request limit). */
export const USAGE_BATCH = 500;

interface DueRow {
  nas_id: string;
  acct_session_id: string;
  session_id: string;
  usage_key: string;
  updated_at: Date;
  octets: string | number;
  session_time: number;
  [column: string]: unknown;
}

/** A connection whose counters passed what the session service acknowledged. */
export interface DueUsage {
  nasId: string;
  acctSessionId: string;
  report: UsageReport;
}

/**
 * The usage feed's side of table `connections`: which connections' counters the session service
 * has not acknowledged, and marking them acknowledged. Counters there are the greatest each
 * connection reported (replays and late packets change nothing), so sending them is idempotent.
 */
export interface UsageFeedStore {
  due(limit: number): Promise<DueUsage[]>;
  sent(due: readonly DueUsage[]): Promise<void>;
  /**
   * Ends the running connections of these sessions (their person's allowance is used up): a
   * Disconnect queued for RADIUS ones, openNDS authorisations revoked; answers how many.
   */
  endConnectionsOf(sessionIds: readonly string[], now: Date): Promise<number>;
}

export function createUsageFeedStore(db: Database): UsageFeedStore {
  return {
    async due(limit) {
      const rows = await db.query<DueRow>(
        `SELECT nas_id, acct_session_id, session_id, usage_key::text AS usage_key, updated_at, input_octets + output_octets AS octets, session_time
         FROM connections WHERE input_octets + output_octets > usage_sent_octets OR session_time > usage_sent_seconds
         ORDER BY updated_at LIMIT $1`,
        [limit],
      );
      return rows.map((row) => ({
        nasId: row.nas_id,
        acctSessionId: row.acct_session_id,
        report: {
          connectionKey: row.usage_key,
          sessionId: row.session_id,
          at: row.updated_at.toISOString(),
          octets: Number(row.octets),
          sessionTime: row.session_time,
        },
      }));
    },
    async sent(due) {
      if (due.length === 0) return;
      // GREATEST: counters that grew while the call was under way stay due.
      await db.query(
        `UPDATE connections AS c SET usage_sent_octets = GREATEST(c.usage_sent_octets, v.octets), usage_sent_seconds = GREATEST(c.usage_sent_seconds, v.seconds)
         FROM unnest($1::text[], $2::text[], $3::uuid[], $4::bigint[], $5::bigint[]) AS v(nas_id, acct_session_id, usage_key, octets, seconds)
         WHERE c.nas_id = v.nas_id AND c.acct_session_id = v.acct_session_id AND c.usage_key = v.usage_key`,
        [
          due.map((d) => d.nasId),
          due.map((d) => d.acctSessionId),
          due.map((d) => d.report.connectionKey),
          due.map((d) => d.report.octets),
          due.map((d) => d.report.sessionTime),
        ],
      );
    },
    async endConnectionsOf(sessionIds, now) {
      if (sessionIds.length === 0) return 0;
      // The session stays GRANTED (a new period restores access without any action); only its
      // running connections end. openNDS clients take no RADIUS Disconnect: their authorisations
      // turn REVOKING, which router/revocation-poll.sh deauthenticates (a queued one is never
      // handed out), and BinAuth's notice of that end still brings the client's usage.
      const nds = await db.query(
        `UPDATE opennds_authorisations SET state = 'REVOKING', ended_at = $2, end_cause = 'allowance-used-up'
         WHERE session_id = ANY($1::text[]) AND state IN ('PENDING', 'AUTHORISED') RETURNING rhid`,
        [sessionIds, now],
      );
      const rows = await db.query(
        `UPDATE connections SET disconnect_status = 'PENDING', disconnect_next_at = $2, coa_status = NULL, coa_next_at = NULL
         WHERE session_id = ANY($1::text[]) AND stopped_at IS NULL AND disconnect_status IS NULL AND acct_session_id NOT LIKE 'nds-%'
         RETURNING acct_session_id`,
        [sessionIds, now],
      );
      return rows.length + nds.length;
    },
  };
}

export interface UsageFeedDeps {
  store: UsageFeedStore;
  peer: SessionPeer;
  /** Writes the Interim-Update counters waiting in memory, so what is sent is current. */
  flush: () => Promise<void>;
  now: () => Date;
  /** A Disconnect was queued (the sender runs at once). */
  onDisconnectQueued: () => void;
  logger: Logger;
}

/**
 * One pass of the usage feed: the due connections sent to the session service, marked sent when
 * it answered, and the connections of sessions whose allowance is used up queued for a
 * Disconnect. Answers whether more may be due (a full batch, or a failed call to retry).
 */
export async function pushUsage(deps: UsageFeedDeps, correlationId: string): Promise<'done' | 'more' | 'retry'> {
  // A session peer without the usage route (a test's stand-in) feeds nothing.
  if (deps.peer.reportUsage === undefined) return 'done';
  await deps.flush();
  const due = await deps.store.due(USAGE_BATCH);
  if (due.length === 0) return 'done';
  const answer = await deps.peer.reportUsage(
    due.map((d) => d.report),
    correlationId,
  );
  if (answer === undefined) return 'retry';
  await deps.store.sent(due);
  if (answer.refused > 0) deps.logger.warn({ refused: answer.refused }, 'usage refused by the session service (counters backwards or absurd)');
  if (answer.exhausted.length > 0) {
    const queued = await deps.store.endConnectionsOf(answer.exhausted, deps.now());
    if (queued > 0) {
      deps.logger.info(
        { sessions: answer.exhausted.length, connections: queued },
        'allowance used up: connections queued for a Disconnect or an openNDS revocation',
      );
      deps.onDisconnectQueued();
    }
  }
  return due.length === USAGE_BATCH ? 'more' : 'done';
}
