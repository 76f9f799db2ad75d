import { callJson, OutboundError, type OutboundFailure, type OutboundResponse } from '../kit/index.js';
import type { PortalConfig } from './config.js';

export const CUSTOMER_CLIENT = 'wifi-portal-api';
export const EMPLOYEE_CLIENT = 'wifi-portal-employee-api';
export const PHONE_CLIENT = 'wifi-portal-phone-api';
export const VOUCHER_CLIENT = 'wifi-portal-voucher-api';
export type PortalClient = typeof CUSTOMER_CLIENT | typeof EMPLOYEE_CLIENT | typeof PHONE_CLIENT | typeof VOUCHER_CLIENT;

export interface Tokens {
  accessToken: string;
  refreshToken: string | null;
}

/** What the token endpoint said, reduced to what the portal answers (docs/decisions/0050-no-enumeration.md). */
export type GrantOutcome =
  | { kind: 'tokens'; tokens: Tokens }
  | { kind: 'refused'; error: string; status: number; description?: string; seconds?: Record<string, number> }
  /** No usable answer: no answer at all (`failure`), or a 5xx that is an outage (`status`). */
  | { kind: 'unreachable'; failure?: OutboundFailure; status?: number };

// Spec 8 timeouts: customer grant 5000 ms, employee grant 12000 ms (above HR's 3000 ms x 2).
// A phone code request waits for the SMS gateway (3000 ms x 2 attempts by default): as long as the employee grant.
export const IDP_TIMEOUT_MS: Record<PortalClient, number> = {
  [CUSTOMER_CLIENT]: 5000,
  [EMPLOYEE_CLIENT]: 12_000,
  [PHONE_CLIENT]: 12_000,
  [VOUCHER_CLIENT]: 5000,
};

export interface IdpClient {
  passwordGrant(username: string, password: string, correlationId: string): Promise<GrantOutcome>;
  /**
   * `clientAddress` (the address the portal believes, PORTAL_TRUSTED_PROXIES) goes to Keycloak as
   * X-Forwarded-For: the employee authenticator limits attempts per client address
   * (so that one address cannot use up HR's ceiling), and Keycloak believes the header only from a proxy it trusts (proxy-trusted-addresses).
   */
  employeeGrant(employeeId: string, citizenId: string, correlationId: string, clientAddress?: string): Promise<GrantOutcome>;
  /**
   * The phone authenticator's two steps: `phone` alone asks for a code (refused with `code_sent`
   * when it went out), `phone` and `code` sign in. `clientAddress` as for the employee grant.
   */
  phoneGrant(fields: { phone: string; code?: string }, correlationId: string, clientAddress?: string): Promise<GrantOutcome>;
  /** The voucher authenticator: `code` as typed (Keycloak normalises it). `clientAddress` as for the employee grant: the per-address limit is Keycloak's. */
  voucherGrant(code: string, correlationId: string, clientAddress?: string): Promise<GrantOutcome>;
  refresh(client: PortalClient, refreshToken: string, correlationId: string): Promise<GrantOutcome>;
  /** Back-channel logout of the Keycloak session behind a refresh token; true when it ended. */
  logout(client: PortalClient, refreshToken: string, correlationId: string): Promise<boolean>;
}

/** The client address the portal believes (PORTAL_TRUSTED_PROXIES), told to Keycloak for its per-address limits. */
const forwardedFor = (clientAddress?: string): Record<string, string> => (clientAddress === undefined ? {} : { 'X-Forwarded-For': clientAddress });

export function createIdpClient(config: PortalConfig): IdpClient {
  const endpoints = (idp: string) => `${idp}/realms/${config.IDP_REALM}/protocol/openid-connect`;
  const bases: Record<PortalClient, string> = {
    [CUSTOMER_CLIENT]: endpoints(config.IDP_URL),
    [EMPLOYEE_CLIENT]: endpoints(config.IDP_EMPLOYEE_URL ?? config.IDP_URL),
    [PHONE_CLIENT]: endpoints(config.IDP_URL),
    [VOUCHER_CLIENT]: endpoints(config.IDP_URL),
  };
  const secrets: Record<PortalClient, string> = {
    [CUSTOMER_CLIENT]: config.PORTAL_API_CLIENT_SECRET,
    [EMPLOYEE_CLIENT]: config.PORTAL_EMPLOYEE_CLIENT_SECRET,
    [PHONE_CLIENT]: config.PORTAL_PHONE_CLIENT_SECRET,
    [VOUCHER_CLIENT]: config.PORTAL_VOUCHER_CLIENT_SECRET,
  };
  const post = (
    client: PortalClient,
    path: string,
    form: Record<string, string>,
    correlationId: string,
    headers: Record<string, string> = {},
  ): Promise<OutboundResponse> =>
    callJson({
      url: `${bases[client]}/${path}`,
      form: { client_id: client, client_secret: secrets[client], ...form },
      correlationId,
      timeoutMs: IDP_TIMEOUT_MS[client],
      headers,
    });
  const grant = async (
    client: PortalClient,
    form: Record<string, string>,
    correlationId: string,
    headers: Record<string, string> = {},
  ): Promise<GrantOutcome> => {
    let reply: OutboundResponse;
    try {
      reply = await post(client, 'token', form, correlationId, headers);
    } catch (error) {
      if (error instanceof OutboundError) return { kind: 'unreachable', failure: error.failure };
      throw error;
    }
    const body = (typeof reply.body === 'object' && reply.body !== null ? reply.body : {}) as Record<string, unknown>;
    if (reply.status === 200 && typeof body['access_token'] === 'string') {
      const refresh = body['refresh_token'];
      return { kind: 'tokens', tokens: { accessToken: body['access_token'], refreshToken: typeof refresh === 'string' ? refresh : null } };
    }
    const error = typeof body['error'] === 'string' ? body['error'] : undefined;
    // A 5xx is an outage, except the authenticators' own 503/504 (HR or the SMS gateway down or late),
    // which say so in an OAuth error body (docs/develop/keycloak-extension.md "Error bodies").
    if (reply.status >= 500 && (error === undefined || (reply.status !== 503 && reply.status !== 504))) return { kind: 'unreachable', status: reply.status };
    const description = typeof body['error_description'] === 'string' ? body['error_description'].slice(0, 200) : undefined;
    // The phone authenticator's code_sent carries the code's lifetime and the resend gap.
    const seconds = Object.fromEntries(['expires_in', 'resend_after'].flatMap((name) => (typeof body[name] === 'number' ? [[name, body[name]]] : [])));
    return {
      kind: 'refused',
      error: error ?? 'unknown',
      status: reply.status,
      ...(description === undefined ? {} : { description }),
      ...(Object.keys(seconds).length === 0 ? {} : { seconds }),
    };
  };
  return {
    passwordGrant: (username, password, correlationId) =>
      grant(CUSTOMER_CLIENT, { grant_type: 'password', username, password, scope: 'openid' }, correlationId),
    employeeGrant: (employeeId, citizenId, correlationId, clientAddress) =>
      grant(EMPLOYEE_CLIENT, { grant_type: 'password', employeeId, citizenId, scope: 'openid' }, correlationId, forwardedFor(clientAddress)),
    phoneGrant: (fields, correlationId, clientAddress) =>
      grant(PHONE_CLIENT, { grant_type: 'password', ...fields, scope: 'openid' }, correlationId, forwardedFor(clientAddress)),
    voucherGrant: (code, correlationId, clientAddress) =>
      grant(VOUCHER_CLIENT, { grant_type: 'password', code, scope: 'openid' }, correlationId, forwardedFor(clientAddress)),
    refresh: (client, refreshToken, correlationId) => grant(client, { grant_type: 'refresh_token', refresh_token: refreshToken }, correlationId),
    async logout(client, refreshToken, correlationId) {
      try {
        const reply = await post(client, 'logout', { refresh_token: refreshToken }, correlationId);
        return reply.status === 204 || reply.status === 200;
      } catch {
        return false;
      }
    },
  };
}
