import type { Allowance } from '../../contract/entitlement.js';
import type { Database, Queryable } from '../kit/store/index.js';
import { periodOf } from './allowance-period.js';

/**
 * One accounting packet's counters for one controller connection, as cumulative totals since the
 * connection began (RFC 2866: octets with their gigawords already added, session time).
 */
export interface UsageReport {
  /** Names the connection: the NAS, its Acct-Session-Id and the network session it belongs to. */
  connectionKey: string;
  subjectId: string;
  period: Allowance['period'];
  /** When the packet's event happened (arrival less Acct-Delay-Time). */
  at: Date;
  octets: number;
  sessionTime: number;
}

export interface Usage {
  bytes: number;
  seconds: number;
}

export type UsageOutcome =
  | { kind: 'counted'; added: Usage; used: Usage }
  /** Nothing changed: counters that went backwards, absurd values, or a connection of another person. */
  | { kind: 'refused'; reason: 'BACKWARDS' | 'ABSURD' | 'OTHER_SUBJECT' };

export interface Remaining {
  bytesRemaining: number | null;
  secondsRemaining: number | null;
  renewsAt: Date;
}

export interface UsageCounters {
  /** Adds what this packet carries that no earlier packet of the connection did, to its period. */
  add(report: UsageReport): Promise<UsageOutcome>;
  /** What the person has left of `allowance` in the period holding `at` (null: no limit). */
  remaining(subjectId: string, allowance: Allowance, at: Date): Promise<Remaining>;
}

// A year of session time, or more octets than a 10 Gbit/s link carries in the session's time
// (plus an interim interval's slack), is a NAS's nonsense, not usage.
const MAX_SESSION_SECONDS = 366 * 86_400;
const MAX_BYTES_PER_SECOND = 1.25e9;
const SLACK_SECONDS = 300;

export function isAbsurd(octets: number, sessionTime: number): boolean {
  if (!Number.isSafeInteger(octets) || !Number.isSafeInteger(sessionTime) || octets < 0 || sessionTime < 0) return true;
  return sessionTime > MAX_SESSION_SECONDS || octets > (sessionTime + SLACK_SECONDS) * MAX_BYTES_PER_SECOND;
}

interface SeenRow {
  subject_id: string;
  bytes: string | number;
  seconds: string | number;
  at: Date;
  [column: string]: unknown;
}

async function countIn(tx: Queryable, report: UsageReport, timeZone: string): Promise<UsageOutcome> {
  await tx.query(
    `INSERT INTO usage_connections (connection_key, subject_id, bytes, seconds, at) VALUES ($1, $2, 0, 0, $3)
     ON CONFLICT (connection_key) DO NOTHING`,
    [report.connectionKey, report.subjectId, report.at],
  );
  const [seen] = await tx.query<SeenRow>('SELECT subject_id, bytes, seconds, at FROM usage_connections WHERE connection_key = $1 FOR UPDATE', [
    report.connectionKey,
  ]);
  if (seen === undefined || seen.subject_id !== report.subjectId) return { kind: 'refused', reason: 'OTHER_SUBJECT' };
  const seenBytes = Number(seen.bytes);
  const seenSeconds = Number(seen.seconds);
  // A later packet with smaller totals: the counters went backwards (a wrap without gigawords,
  // a reset). A late packet (earlier event) with smaller totals was counted by a later one.
  if (report.at >= seen.at && (report.octets < seenBytes || report.sessionTime < seenSeconds)) return { kind: 'refused', reason: 'BACKWARDS' };
  const added = { bytes: Math.max(0, report.octets - seenBytes), seconds: Math.max(0, report.sessionTime - seenSeconds) };
  const { start } = periodOf(report.period, report.at, timeZone);
  if (added.bytes > 0 || added.seconds > 0) {
    await tx.query(
      `UPDATE usage_connections SET bytes = GREATEST(bytes, $2), seconds = GREATEST(seconds, $3), at = GREATEST(at, $4) WHERE connection_key = $1`,
      [report.connectionKey, report.octets, report.sessionTime, report.at],
    );
  }
  const [used] = await tx.query<{ bytes: string | number; seconds: string | number }>(
    `INSERT INTO usage_counters AS u (subject_id, period, period_start, bytes, seconds) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (subject_id, period, period_start) DO UPDATE SET bytes = u.bytes + EXCLUDED.bytes, seconds = u.seconds + EXCLUDED.seconds
     RETURNING bytes, seconds`,
    [report.subjectId, report.period, start, added.bytes, added.seconds],
  );
  return { kind: 'counted', added, used: { bytes: Number(used?.bytes ?? 0), seconds: Number(used?.seconds ?? 0) } };
}

/** Allowance counters per person and period in the session service's store (PGlite or PostgreSQL). */
export function createUsageCounters(db: Database, timeZone: string): UsageCounters {
  return {
    async add(report) {
      if (isAbsurd(report.octets, report.sessionTime)) return { kind: 'refused', reason: 'ABSURD' };
      // Every refusal in countIn comes before its first write (the connection row it may add is
      // new only when no packet came before, and then nothing can be refused): nothing changes.
      return db.transaction((tx) => countIn(tx, report, timeZone));
    },
    async remaining(subjectId, allowance, at) {
      const window = periodOf(allowance.period, at, timeZone);
      const [used] = await db.query<{ bytes: string | number; seconds: string | number }>(
        'SELECT bytes, seconds FROM usage_counters WHERE subject_id = $1 AND period = $2 AND period_start = $3',
        [subjectId, allowance.period, window.start],
      );
      const left = (limit: number | null, spent: number) => (limit === null ? null : Math.max(0, limit - spent));
      return {
        bytesRemaining: left(allowance.dataBytes, Number(used?.bytes ?? 0)),
        secondsRemaining: left(allowance.timeSeconds, Number(used?.seconds ?? 0)),
        renewsAt: window.renewsAt,
      };
    },
  };
}
