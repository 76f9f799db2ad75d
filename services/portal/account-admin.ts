import KcAdminClient, { NetworkError } from '@keycloak/keycloak-admin-client';
import type { PortalConfig } from './config.js';
import { isImportedEmployee, isVoucherAccount } from '../../contract/erasure.js';
import type { RetentionAudit } from './account-retention.js';
import { CUSTOMER_CLIENT } from './idp-client.js';

/**
 * `created` says whether Keycloak sent the verify-email mail; an account whose
 * mail could not be sent is created all the same and signs in with the customer baseline.
 */
export type CreateAccountOutcome = { kind: 'created'; verifyMail: 'sent' | 'not-sent' } | { kind: 'exists' } | { kind: 'rejected' } | { kind: 'unreachable' };

/**
 * An account held for its erasure: disabled and signed out everywhere, so it cannot sign in
 * (nor look whole) while the services erase it; `gone` when an earlier attempt removed it
 * already; `employee` for an account HR imported, which its company's HR process removes.
 */
export type HoldOutcome = { kind: 'held' } | { kind: 'gone' } | { kind: 'employee' } | { kind: 'voucher' } | { kind: 'unreachable' };

/**
 * An account as the retention job reads it (account-retention.ts): what decides whether it is a
 * self-registered account, a voucher, an employee, a demo or an operator account, and its age.
 */
export interface DirectoryAccount {
  id: string;
  username: string;
  /** Keycloak's createdTimestamp (ms); 0 when Keycloak did not say. */
  createdMs: number;
  attributes: Record<string, unknown>;
  /** The account's realm roles, composites included; only filled by findAccount (one call more an account). */
  roles?: string[];
}

/** The realm's accounts, read page by page by the retention job. */
export interface AccountDirectory {
  /** A page of accounts in Keycloak's order (`search`: Keycloak's attribute query, `name:value`); undefined when Keycloak did not answer. */
  listAccounts(first: number, max: number, search?: string): Promise<DirectoryAccount[] | undefined>;
  /** One account with its realm roles; null when it is gone, undefined when Keycloak did not answer. */
  findAccount(subjectId: string): Promise<DirectoryAccount | null | undefined>;
}

/**
 * `voucher`: the retention job erases a voucher's account a window after it expired (nobody can
 * sign in with it any more, so no guest's session is cut); every other caller is refused one.
 */
export interface HoldOptions {
  voucher?: boolean;
}

/**
 * A person's Keycloak account as their copy of their data shows it (data-copy.ts): the user
 * representation's own fields and every attribute, read when the copy is asked for. Keycloak never
 * puts credentials in a user representation; the copy drops the attributes that are keys, not data.
 */
export interface AccountRecord {
  username: string;
  email: string | null;
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
  /** Keycloak's createdTimestamp (ms); null when Keycloak did not say. */
  createdMs: number | null;
  enabled: boolean;
  attributes: Record<string, string[]>;
}

export interface AccountAdmin {
  /** The person's account for their copy of their data; undefined when Keycloak did not answer or the account is gone. */
  readAccount(subjectId: string): Promise<AccountRecord | undefined>;
  /** Creates an enabled customer account with this password (spec 4.1 rule 2), then has Keycloak mail its verify-email link. */
  createAccount(email: string, password: string, displayName: string | undefined): Promise<CreateAccountOutcome>;
  /** First step of an erasure: the account disabled and its Keycloak sessions ended, unless it is an imported employee's. */
  holdForErasure(subjectId: string, options?: HoldOptions): Promise<HoldOutcome>;
  /** Last step of an erasure: the Keycloak user removed (true also when it was gone already). */
  removeAccount(subjectId: string): Promise<boolean>;
}

// The refusals are the erasure's own (contract/erasure.ts): the portal and svc-admin read accounts alike.
export { isImportedEmployee, isVoucherAccount } from '../../contract/erasure.js';

/** Spec 2.3: `displayName` split on whitespace; the first word is the first name, the rest the last name. */
export function splitDisplayName(displayName: string | undefined): { firstName?: string; lastName?: string } {
  const words = (displayName ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return {};
  return { firstName: words[0], ...(words.length > 1 ? { lastName: words.slice(1).join(' ') } : {}) };
}

const directoryAccount = (user: { id?: string; username?: string; createdTimestamp?: number; attributes?: Record<string, unknown> }): DirectoryAccount => ({
  id: String(user.id),
  username: user.username ?? '',
  createdMs: user.createdTimestamp ?? 0,
  attributes: user.attributes ?? {},
});

type UserRepresentation = Parameters<typeof directoryAccount>[0] & {
  email?: string;
  emailVerified?: boolean;
  firstName?: string;
  lastName?: string;
  enabled?: boolean;
};

const accountRecord = (user: UserRepresentation): AccountRecord => ({
  username: user.username ?? '',
  email: user.email ?? null,
  emailVerified: user.emailVerified === true,
  firstName: user.firstName ?? null,
  lastName: user.lastName ?? null,
  createdMs: user.createdTimestamp ?? null,
  enabled: user.enabled !== false,
  attributes: Object.fromEntries(Object.entries(user.attributes ?? {}).map(([name, value]) => [name, (Array.isArray(value) ? value : [value]).map(String)])),
});

// Keycloak's own verify-email action token (admin send-verify-email), mailed
// through the realm's smtpServer; following the link sets email_verified, which the entitlement
// service requires before it asks loyalty. Its link leads back to the portal (the client's
// redirect URI). The realm's verifyEmail stays off: it would refuse the password grant until
// the link is followed, and a guest on a captive network needs the Wi-Fi to read the mail.
async function sendVerifyEmail(admin: KcAdminClient, config: PortalConfig, id: string): Promise<'sent' | 'not-sent'> {
  try {
    await admin.users.sendVerifyEmail({ id, clientId: CUSTOMER_CLIENT, redirectUri: `${new URL(config.PORTAL_PUBLIC_URL).origin}/` });
    return 'sent';
  } catch {
    return 'not-sent';
  }
}

// Renew the service-account token this long before it expires.
const RENEW_MARGIN_MS = 30_000;

/**
 * Account creation through Keycloak's admin API with the portal's service account (client
 * credentials of wifi-portal-api, limited to realm-management/manage-users). The token is kept
 * until shortly before it expires.
 */
export function createAccountAdmin(config: PortalConfig): AccountAdmin & AccountDirectory & RetentionAudit {
  const admin = new KcAdminClient({ baseUrl: config.IDP_URL, realmName: config.IDP_REALM, timeout: 5000 });
  let validUntil = 0;
  const authenticate = async () => {
    if (Date.now() < validUntil) return;
    await admin.auth({ grantType: 'client_credentials', clientId: CUSTOMER_CLIENT, clientSecret: config.PORTAL_API_CLIENT_SECRET });
    const exp = JSON.parse(Buffer.from(String(admin.accessToken).split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: number };
    validUntil = (exp.exp ?? 0) * 1000 - RENEW_MARGIN_MS;
  };
  const statusOf = (error: unknown): number | undefined => (error instanceof NetworkError ? (error.response as Response | undefined)?.status : undefined);
  const auditUrl = `${config.IDP_URL}/realms/${encodeURIComponent(config.IDP_REALM)}/svc-admin/api/audit/retention`;
  return {
    async record(subjectId, reason, outcome) {
      await authenticate();
      const answer = await fetch(auditUrl, {
        method: 'POST',
        headers: { authorization: `Bearer ${String(admin.accessToken)}`, 'content-type': 'application/json' },
        body: JSON.stringify({ subjectId, reason, outcome }),
        signal: AbortSignal.timeout(5000),
      });
      if (answer.status === 401) validUntil = 0;
      // Without its audit entry the job must not go on erasing: the run fails and is counted so.
      if (answer.status !== 200) throw new Error(`svc-admin's audit answered ${answer.status} to the retention job`);
    },
    async holdForErasure(subjectId, options = {}) {
      try {
        await authenticate();
        const user = await admin.users.findOne({ id: subjectId });
        if (user === undefined || user === null) return { kind: 'gone' };
        if (isImportedEmployee(user.attributes)) return { kind: 'employee' };
        if (isVoucherAccount(user.attributes) && options.voucher !== true) return { kind: 'voucher' };
        // The whole representation goes back: a partial one would drop what it leaves out.
        if (user.enabled !== false) await admin.users.update({ id: subjectId }, { ...user, enabled: false });
        await admin.users.logout({ id: subjectId });
        return { kind: 'held' };
      } catch (error) {
        if (statusOf(error) === 404) return { kind: 'gone' };
        if (statusOf(error) === 401) validUntil = 0;
        return { kind: 'unreachable' };
      }
    },
    async listAccounts(first, max, search) {
      try {
        await authenticate();
        const users = await admin.users.find({ first, max, briefRepresentation: false, ...(search === undefined ? {} : { q: search }) });
        return users.map(directoryAccount);
      } catch (error) {
        if (statusOf(error) === 401) validUntil = 0;
        return undefined;
      }
    },
    async findAccount(subjectId) {
      try {
        await authenticate();
        const user = await admin.users.findOne({ id: subjectId });
        if (user === undefined || user === null) return null;
        const roles = await admin.users.listCompositeRealmRoleMappings({ id: subjectId });
        return { ...directoryAccount(user), roles: roles.map((role) => String(role.name)) };
      } catch (error) {
        if (statusOf(error) === 404) return null;
        if (statusOf(error) === 401) validUntil = 0;
        return undefined;
      }
    },
    async readAccount(subjectId) {
      try {
        await authenticate();
        const user = await admin.users.findOne({ id: subjectId });
        return user === undefined || user === null ? undefined : accountRecord(user);
      } catch (error) {
        if (statusOf(error) === 401) validUntil = 0;
        return undefined;
      }
    },
    async removeAccount(subjectId) {
      try {
        await authenticate();
        await admin.users.del({ id: subjectId });
        return true;
      } catch (error) {
        if (statusOf(error) === 401) validUntil = 0;
        return statusOf(error) === 404;
      }
    },
    async createAccount(email, password, displayName) {
      try {
        await authenticate();
        const { id } = await admin.users.create({
          realm: config.IDP_REALM,
          username: email,
          email,
          enabled: true,
          ...splitDisplayName(displayName),
          credentials: [{ type: 'password', value: password, temporary: false }],
        });
        return { kind: 'created', verifyMail: await sendVerifyEmail(admin, config, id) };
      } catch (error) {
        if (error instanceof NetworkError) {
          const status = (error.response as Response | undefined)?.status;
          if (status === 409) return { kind: 'exists' };
          if (status === 400) return { kind: 'rejected' };
          if (status === 401) validUntil = 0;
        }
        return { kind: 'unreachable' };
      }
    },
  };
}
