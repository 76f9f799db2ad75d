import { eraseSubjectEverywhere, isImportedEmployee, isVoucherAccount, type ErasureOutcome } from '../../contract/erasure.js';
import type { Logger } from '../kit/index.js';
import type { Queryable, RetentionRule } from '../kit/store/index.js';
import type { AccountAdmin, AccountDirectory, DirectoryAccount } from './account-admin.js';
import type { PortalConfig } from './config.js';
import type { PortalSessionStore } from './portal-session-store.js';
import { dayOf } from './sign-in-days.js';
import { portalErasureSteps } from './erase-account.js';
import type { Upstreams } from './upstreams.js';

/** Why the retention job erased an account, as its audit entry says. */
export type RetentionReason = 'inactive' | 'voucher-expired';

/** The durable audit (svc-admin's, decision 0093): the job records each erasure it made or began. */
export interface RetentionAudit {
  record(subjectId: string, reason: RetentionReason, outcome: ErasureOutcome): Promise<void>;
}

export interface AccountRetentionDeps {
  config: Pick<PortalConfig, 'RETENTION_INACTIVE_ACCOUNTS_DAYS' | 'RETENTION_VOUCHER_ACCOUNTS_DAYS' | 'RETENTION_ACCOUNTS_PER_RUN'>;
  accounts: AccountAdmin;
  directory: AccountDirectory;
  upstreams: Upstreams;
  store: PortalSessionStore;
  audit: RetentionAudit;
  logger: Logger;
}

/**
 * Realm roles every account holds: anything else (svc-admin's operator role, realm-management's
 * composites) makes an account an operator's, which the venue manages by hand.
 */
const ORDINARY_ROLE = /^(default-roles-.*|offline_access|uma_authorization)$/;
const first = (attributes: Record<string, unknown>, name: string): string | undefined => {
  const value = attributes[name];
  return Array.isArray(value) ? (value[0] === undefined ? undefined : String(value[0])) : value === undefined || value === null ? undefined : String(value);
};

/**
 * A self-registered account (by email and password, by phone number): the only kind removed for
 * inactivity. An imported employee's account is its company's HR process's; a voucher's goes by
 * its own window; a demo account (realm-dev.json marks them) and an operator's (a realm role
 * beyond the defaults, or a client's service account) are the venue's.
 */
export function isSelfRegistered(account: DirectoryAccount): boolean {
  if (isImportedEmployee(account.attributes) || isVoucherAccount(account.attributes)) return false;
  if (first(account.attributes, 'demo_account') === 'true') return false;
  if (account.username.startsWith('service-account-')) return false;
  return (account.roles ?? []).every((role) => ORDINARY_ROLE.test(role));
}

/** A voucher that stopped admitting anyone before `cutoff` (its validity's end); a voucher without a valid end is kept. */
export function voucherExpiredBefore(account: DirectoryAccount, cutoff: Date): boolean {
  if (!isVoucherAccount(account.attributes)) return false;
  const until = Date.parse(first(account.attributes, 'voucher_valid_until') ?? '');
  return Number.isFinite(until) && until < cutoff.getTime();
}

/**
 * Inactive self-registered accounts and long-expired vouchers' accounts, erased by the portal's
 * purge job through the same steps as a person's own erasure (contract/erasure.ts): network
 * sessions revoked, every service's part erased, the Keycloak user removed, the portal's sign-ins
 * deleted. Each run erases at most RETENTION_ACCOUNTS_PER_RUN accounts a rule and
 * reads at most that many from Keycloak: an erasure is several calls to four services, and the
 * job must not hold a portal busy for long. Cursors (in memory: a restart starts a pass again)
 * carry each pass on from where the last run stopped, so accounts the job keeps (an employee, an
 * account whose erasure did not finish) never hide the ones after them.
 */
export function accountRetention(deps: AccountRetentionDeps): RetentionRule[] {
  const { config, accounts, directory, upstreams, store, audit, logger } = deps;
  const page = config.RETENTION_ACCOUNTS_PER_RUN;
  let dayCursor: { day: string; subjectId: string } | undefined;
  let sweepFrom = 0;
  let voucherFrom = 0;

  const erase = async (subjectId: string, reason: RetentionReason): Promise<boolean> => {
    const correlationId = `retention-${reason}`;
    const outcome = await eraseSubjectEverywhere(subjectId, portalErasureSteps(accounts, upstreams, correlationId, { voucher: reason === 'voucher-expired' }));
    // The sign-in day stays: the person's newest terms acceptance is kept counted from it (decision 0102).
    if (outcome === 'erased') await store.dropSubject(subjectId);
    await audit.record(subjectId, reason, outcome);
    if (outcome === 'incomplete')
      logger.warn({ reason }, 'an erasure by the retention job did not finish; the account stays disabled and a later run finishes it');
    return outcome === 'erased';
  };

  /** Accounts whose last sign-in day is before the cutoff, checked one by one in Keycloak. */
  const byLastDay = async (db: Queryable, cutoff: Date): Promise<number> => {
    const after = dayCursor ?? { day: '0001-01-01', subjectId: '' };
    const rows = await db.query<{ subject_id: string; day: string }>(
      `SELECT subject_id, to_char(last_day, 'YYYY-MM-DD') AS day FROM sign_in_days
       WHERE last_day < $1::date AND (last_day, subject_id) > ($2::date, $3) ORDER BY last_day, subject_id LIMIT $4`,
      [dayOf(cutoff), after.day, after.subjectId, page],
    );
    const last = rows.at(-1);
    dayCursor = rows.length < page || last === undefined ? undefined : { day: last.day, subjectId: last.subject_id };
    let erased = 0;
    for (const row of rows) {
      const account = await directory.findAccount(row.subject_id);
      if (account === undefined) throw new Error('Keycloak did not answer the retention job');
      if (account === null || !isSelfRegistered(account)) continue;
      if (await erase(account.id, 'inactive')) erased++;
    }
    return erased;
  };

  /** Accounts that never completed a sign-in (no day recorded), older than the cutoff: a page of Keycloak's accounts a run. */
  const neverSignedIn = async (db: Queryable, cutoff: Date): Promise<number> => {
    const listed = await directory.listAccounts(sweepFrom, page);
    if (listed === undefined) throw new Error('Keycloak did not answer the retention job');
    const old = listed.filter((account) => account.createdMs > 0 && account.createdMs < cutoff.getTime());
    const days =
      old.length === 0
        ? []
        : await db.query<{ subject_id: string }>('SELECT subject_id FROM sign_in_days WHERE subject_id = ANY($1::text[])', [old.map((a) => a.id)]);
    const signedIn = new Set(days.map((row) => row.subject_id));
    let erased = 0;
    for (const candidate of old.filter((account) => !signedIn.has(account.id) && isSelfRegistered(account))) {
      // The roles are read per candidate only (one call more an account).
      const account = await directory.findAccount(candidate.id);
      if (account === undefined) throw new Error('Keycloak did not answer the retention job');
      if (account === null || !isSelfRegistered(account)) continue;
      if (await erase(account.id, 'inactive')) erased++;
    }
    // Erased accounts leave Keycloak's list: the next page starts that many places earlier.
    sweepFrom = listed.length < page ? 0 : sweepFrom + listed.length - erased;
    return erased;
  };

  const expiredVouchers = async (_db: Queryable, cutoff: Date): Promise<number> => {
    const listed = await directory.listAccounts(voucherFrom, page, 'user_type:VOUCHER');
    if (listed === undefined) throw new Error('Keycloak did not answer the retention job');
    let erased = 0;
    for (const account of listed.filter((candidate) => voucherExpiredBefore(candidate, cutoff))) {
      if (await erase(account.id, 'voucher-expired')) erased++;
    }
    voucherFrom = listed.length < page ? 0 : voucherFrom + listed.length - erased;
    return erased;
  };

  return [
    {
      record: 'inactive_accounts',
      days: config.RETENTION_INACTIVE_ACCOUNTS_DAYS,
      purgeBatch: async (db, cutoff) => (await byLastDay(db, cutoff)) + (await neverSignedIn(db, cutoff)),
      once: true,
    },
    { record: 'voucher_accounts', days: config.RETENTION_VOUCHER_ACCOUNTS_DAYS, purgeBatch: expiredVouchers, once: true },
  ];
}
