import { deleteBatch, type RetentionRule } from '../kit/store/index.js';
import type { PortalConfig } from './config.js';

// The cutoff's UTC day: sign-in days are calendar days (sign-in-days.ts), compared alike on every server time zone.
const CUTOFF_DAY = "($1::timestamptz AT TIME ZONE 'UTC')::date";
const LATER =
  'SELECT 1 FROM terms_acceptances later WHERE later.subject_id = terms_acceptances.subject_id AND later.accepted_at > terms_acceptances.accepted_at';
/**
 * An acceptance proves which terms governed a person's use of the network. One superseded by a
 * later acceptance governed nothing since: its window counts from the later one. A person's newest
 * acceptance governs every sign-in they still make: its window counts from their last sign-in day.
 */
const ACCEPTANCE_ENDED = `(EXISTS (${LATER} AND later.accepted_at < $1))
  OR (accepted_at < $1 AND NOT EXISTS (${LATER})
      AND NOT EXISTS (SELECT 1 FROM sign_in_days WHERE sign_in_days.subject_id = terms_acceptances.subject_id AND sign_in_days.last_day >= ${CUTOFF_DAY}))`;

/**
 * Sign-in days serve the terms acceptances and the inactive accounts' erasure (account-retention.ts):
 * a day is kept as long as either needs it. The inactive window gets a month more, so that the
 * job, a page of accounts a run, reaches every account by its day before the day goes (one it
 * missed is still found by its creation time, later). 0 in either keeps them for ever.
 */
export function signInDaysWindow(config: Pick<PortalConfig, 'RETENTION_TERMS_ACCEPTANCES_DAYS' | 'RETENTION_INACTIVE_ACCOUNTS_DAYS'>): number {
  const terms = config.RETENTION_TERMS_ACCEPTANCES_DAYS;
  const inactive = config.RETENTION_INACTIVE_ACCOUNTS_DAYS;
  return terms === 0 ? 0 : inactive === 0 ? terms : Math.max(terms, inactive + 30);
}

/**
 * The portal's records (docs/operate/retention.md). Sign-ins, gateway contexts and used hids go a
 * day after they stop serving: reads already drop them as they pass, but only when something is
 * read; on a quiet portal the job does. A day, as for a sign-in ended by expiry (cookies.ts keeps
 * it that long for ending only). Terms acceptances go by RETENTION_TERMS_ACCEPTANCES_DAYS, sign-in days by signInDaysWindow.
 */
export function portalRetention(config: Pick<PortalConfig, 'RETENTION_TERMS_ACCEPTANCES_DAYS' | 'RETENTION_INACTIVE_ACCOUNTS_DAYS'>): RetentionRule[] {
  const terms = config.RETENTION_TERMS_ACCEPTANCES_DAYS;
  return [
    { record: 'portal_sessions', days: 1, purgeBatch: (db, cutoff, limit) => deleteBatch(db, 'portal_sessions', 'expires_at < $1', cutoff, limit) },
    { record: 'gateway_contexts', days: 1, purgeBatch: (db, cutoff, limit) => deleteBatch(db, 'gateway_contexts', 'expires_at < $1', cutoff, limit) },
    { record: 'opennds_used_hids', days: 1, purgeBatch: (db, cutoff, limit) => deleteBatch(db, 'opennds_used_hids', 'used_at < $1', cutoff, limit) },
    { record: 'terms_acceptances', days: terms, purgeBatch: (db, cutoff, limit) => deleteBatch(db, 'terms_acceptances', ACCEPTANCE_ENDED, cutoff, limit) },
    {
      record: 'sign_in_days',
      days: signInDaysWindow(config),
      purgeBatch: (db, cutoff, limit) => deleteBatch(db, 'sign_in_days', `last_day < ${CUTOFF_DAY}`, cutoff, limit),
    },
  ];
}
