import { deleteBatch, deleteWithChildren, type RetentionRule } from '../kit/store/index.js';
import type { EntitlementConfig } from './config.js';

/** What the entitlement service keeps about a person and for how long (docs/operate/retention.md). */
export function entitlementRetention(config: EntitlementConfig): RetentionRule[] {
  return [
    {
      record: 'entitlements',
      days: config.RETENTION_ENTITLEMENTS_DAYS,
      // The requests that were answered with an entitlement go with it: they name it.
      purgeBatch: (db, cutoff, limit) =>
        deleteWithChildren(db, { table: 'entitlements', key: 'entitlement_id', where: 'created_at < $1', children: ['entitlement_requests'] }, cutoff, limit),
    },
    {
      record: 'idempotency_records',
      days: config.RETENTION_IDEMPOTENCY_DAYS,
      purgeBatch: (db, cutoff, limit) => deleteBatch(db, 'entitlement_requests', 'claimed_at < $1', cutoff, limit),
    },
  ];
}
