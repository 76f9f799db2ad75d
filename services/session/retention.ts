import { deleteBatch, deleteWithChildren, type RetentionRule } from '../kit/store/index.js';
import type { SessionConfig } from './config.js';

const USAGE_COUNTER_ENDED = `period_start < $1::timestamptz - CASE period WHEN 'DAY' THEN interval '2 days' WHEN 'WEEK' THEN interval '8 days' ELSE interval '32 days' END`;

/**
 * What the session service keeps about a person and for how long (docs/operate/retention.md).
 * A granted session is never purged, however old: it is still in use until it ends.
 */
export function sessionRetention(config: SessionConfig): RetentionRule[] {
  return [
    {
      record: 'network_sessions',
      days: config.RETENTION_NETWORK_SESSIONS_DAYS,
      // The session and its events go in one statement: the events name it.
      purgeBatch: (db, cutoff, limit) =>
        deleteWithChildren(
          db,
          { table: 'sessions', key: 'session_id', where: "state <> 'GRANTED' AND updated_at < $1", children: ['session_events'] },
          cutoff,
          limit,
        ),
    },
    {
      record: 'session_events',
      days: config.RETENTION_SESSION_EVENTS_DAYS,
      purgeBatch: (db, cutoff, limit) => deleteBatch(db, 'session_events', 'at < $1', cutoff, limit),
    },
    {
      // A connection's counted totals serve only while its packets may still come: a running
      // connection reports every interim interval, so its last packet is always recent.
      record: 'usage_connections',
      days: config.RETENTION_USAGE_DAYS,
      purgeBatch: (db, cutoff, limit) => deleteBatch(db, 'usage_connections', 'at < $1', cutoff, limit),
    },
    {
      // A counter is counted from its period's end, never its start: a counter still in force
      // must never go (the person would get the whole allowance again). A period's length, plus
      // a day for a daylight-saving day or a month of 31 days, bounds its end.
      record: 'usage_counters',
      days: config.RETENTION_USAGE_DAYS,
      purgeBatch: (db, cutoff, limit) => deleteBatch(db, 'usage_counters', USAGE_COUNTER_ENDED, cutoff, limit),
    },
  ];
}
