import { deleteBatch, type RetentionRule } from '../kit/store/index.js';
import type { GatewayConfig } from './config.js';

/**
 * What the gateway service keeps about a person's devices and for how long
 * (docs/operate/retention.md). A connection still running is never purged: only one the NAS (or
 * the stale sweep) stopped.
 */
export function gatewayRetention(config: GatewayConfig): RetentionRule[] {
  return [
    {
      record: 'connections',
      days: config.RETENTION_CONNECTIONS_DAYS,
      purgeBatch: (db, cutoff, limit) => deleteBatch(db, 'connections', 'stopped_at < $1', cutoff, limit),
    },
    {
      record: 'opennds_authorisations',
      days: config.RETENTION_CONNECTIONS_DAYS,
      purgeBatch: (db, cutoff, limit) => deleteBatch(db, 'opennds_authorisations', "state = 'ENDED' AND ended_at < $1", cutoff, limit),
    },
    {
      // An 802.1X device credential removed by its person, or whose sign-in ended, refuses every
      // authentication already; its hashes are kept as long as a one-time credential's, then go
      // (before ended_sessions, which it reads).
      record: 'device_credentials',
      days: config.RETENTION_CREDENTIALS_DAYS,
      purgeBatch: (db, cutoff, limit) =>
        deleteBatch(db, 'device_credentials', 'removed_at < $1 OR session_id IN (SELECT session_id FROM ended_sessions WHERE ended_at < $1)', cutoff, limit),
    },
    {
      record: 'ended_sessions',
      days: config.RETENTION_NETWORK_SESSIONS_DAYS,
      purgeBatch: (db, cutoff, limit) => deleteBatch(db, 'ended_sessions', 'ended_at < $1', cutoff, limit),
    },
    {
      record: 'credentials',
      days: config.RETENTION_CREDENTIALS_DAYS,
      purgeBatch: (db, cutoff, limit) => deleteBatch(db, 'credentials', 'expires_at < $1', cutoff, limit),
    },
  ];
}
