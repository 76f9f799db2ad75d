import { deleteBatch, type RetentionRule } from '../kit/store/index.js';

/**
 * The portal's records, removed a day after they stop serving (docs/operate/retention.md). Reads
 * already drop them as they pass, but only when something is read: on a quiet portal the job does.
 * A day, as for a sign-in ended by expiry (cookies.ts keeps it that long for ending only).
 */
export const PORTAL_RETENTION: readonly RetentionRule[] = [
  { record: 'portal_sessions', days: 1, purgeBatch: (db, cutoff, limit) => deleteBatch(db, 'portal_sessions', 'expires_at < $1', cutoff, limit) },
  { record: 'gateway_contexts', days: 1, purgeBatch: (db, cutoff, limit) => deleteBatch(db, 'gateway_contexts', 'expires_at < $1', cutoff, limit) },
  { record: 'opennds_used_hids', days: 1, purgeBatch: (db, cutoff, limit) => deleteBatch(db, 'opennds_used_hids', 'used_at < $1', cutoff, limit) },
];
