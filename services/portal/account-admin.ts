import KcAdminClient, { NetworkError } from '@keycloak/keycloak-admin-client';
import type { PortalConfig } from './config.js';
import { isImportedEmployee, isVoucherAccount } from '../../contract/erasure.js';
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

export interface AccountAdmin {
  /** Creates an enabled customer account with this password (spec 4.1 rule 2), then has Keycloak mail its verify-email link. */
  createAccount(email: string, password: string, displayName: string | undefined): Promise<CreateAccountOutcome>;
  /** First step of an erasure: the account disabled and its Keycloak sessions ended, unless it is an imported employee's. */
  holdForErasure(subjectId: string): Promise<HoldOutcome>;
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

// Renew the service-account token this long before it expires.
const RENEW_MARGIN_MS = 30_000;

/**
 * Account creation through Keycloak's admin API with the portal's service account (client
 * credentials of wifi-portal-api, limited to realm-management/manage-users). The token is kept
 * until shortly before it expires.
 */
export function createAccountAdmin(config: PortalConfig): AccountAdmin {
  const admin = new KcAdminClient({ baseUrl: config.IDP_URL, realmName: config.IDP_REALM, timeout: 5000 });
  let validUntil = 0;
  const authenticate = async () => {
    if (Date.now() < validUntil) return;
    await admin.auth({ grantType: 'client_credentials', clientId: CUSTOMER_CLIENT, clientSecret: config.PORTAL_API_CLIENT_SECRET });
    const exp = JSON.parse(Buffer.from(String(admin.accessToken).split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: number };
    validUntil = (exp.exp ?? 0) * 1000 - RENEW_MARGIN_MS;
  };
  // Keycloak's own verify-email action token (admin send-verify-email), mailed
  // through the realm's smtpServer; following the link sets email_verified, which the entitlement
  // service requires before it asks loyalty. Its link leads back to the portal (the client's
  // redirect URI). The realm's verifyEmail stays off: it would refuse the password grant until
  // the link is followed, and a guest on a captive network needs the Wi-Fi to read the mail.
  const sendVerifyEmail = async (id: string): Promise<'sent' | 'not-sent'> => {
    try {
      await admin.users.sendVerifyEmail({ id, clientId: CUSTOMER_CLIENT, redirectUri: `${new URL(config.PORTAL_PUBLIC_URL).origin}/` });
      return 'sent';
    } catch {
      return 'not-sent';
    }
  };
  const statusOf = (error: unknown): number | undefined => (error instanceof NetworkError ? (error.response as Response | undefined)?.status : undefined);
  return {
    async holdForErasure(subjectId) {
      try {
        await authenticate();
        const user = await admin.users.findOne({ id: subjectId });
        if (user === undefined || user === null) return { kind: 'gone' };
        if (isImportedEmployee(user.attributes)) return { kind: 'employee' };
        if (isVoucherAccount(user.attributes)) return { kind: 'voucher' };
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
        return { kind: 'created', verifyMail: await sendVerifyEmail(id) };
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
