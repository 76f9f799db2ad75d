import { deleteBatch, type Queryable, type RetentionRule } from '../kit/store/index.js';
import type { EntitlementConfig } from './config.js';

/** What the entitlement service keeps about a person and for how long (docs/operate/retention.md). */
export function entitlementRetention(config: EntitlementConfig): RetentionRule[] {
  return [
    {
      record: 'entitlements',
      days: config.RETENTION_ENTITLEMENTS_DAYS,
      // The requests that were answered with an entitlement go with it: they name it.
      async purgeBatch(db: Queryable, cutoff: Date, limit: number) {
        const rows = await db.query(
          `WITH doomed AS (
             SELECT entitlement_id FROM entitlements WHERE created_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED
           ), requests AS (
             DELETE FROM entitlement_requests WHERE entitlement_id IN (SELECT entitlement_id FROM doomed)
           )
           DELETE FROM entitlements WHERE entitlement_id IN (SELECT entitlement_id FROM doomed) RETURNING 1 AS gone`,
          [cutoff, limit],
        );
        return rows.length;
      },
    },
    {
      record: 'idempotency_records',
      days: config.RETENTION_IDEMPOTENCY_DAYS,
      purgeBatch: (db, cutoff, limit) => deleteBatch(db, 'entitlement_requests', 'claimed_at < $1', cutoff, limit),
    },
  ];
}
