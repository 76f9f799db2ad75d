import type { DeviceGateway } from '../../../services/portal/devices.js';
import { randomUUID } from 'node:crypto';
import type { ExecutionContext } from 'ava';
import type { Database } from '../../../services/kit/store/index.js';
import type { AccountAdmin, AccountRecord, CreateAccountOutcome, HoldOutcome } from '../../../services/portal/account-admin.js';
import { createApp, MIGRATIONS } from '../../../services/portal/app.js';
import { PortalConfig } from '../../../services/portal/config.js';
import type { GrantOutcome, IdpClient } from '../../../services/portal/idp-client.js';
import type { CurrentTerms } from '../../../services/portal/terms.js';
import type { PeerAnswer, Upstreams } from '../../../services/portal/upstreams.js';
import { openTestDatabase } from '../../helpers/databases.js';
import { boot, capturingLogger, type Answer, type Booted } from '../../helpers/service.js';

// In-process fakes of the portal's three outbound ports (identity provider, entitlement and
// session, account admin) for unit tests; the end-to-end tests use the real ones.

export const SUBJECT = '3f2b8c1e-9d4a-4f6b-8e2a-1c3d5e7f9a0b';
export const ACCESS_TOKEN = 'eyJhbGciOiJSUzI1NiJ9.access-token-canary.sig';
export const REFRESH_TOKEN = 'eyJhbGciOiJIUzI1NiJ9.refresh-token-canary.sig';

/** The phone authenticator's answer to a code request that went out. */
export const CODE_SENT: GrantOutcome = {
  kind: 'refused',
  error: 'code_sent',
  status: 401,
  description: 'CODE_SENT',
  seconds: { expires_in: 300, resend_after: 60 },
};

export interface Fakes {
  calls: string[];
  /** The deviceRef of every session create, in order. */
  createdDevices: string[];
  /** The body of every session grant, in order. */
  grantBodies: unknown[];
  grant: GrantOutcome;
  /** The employee grant instead of `grant`: a fake Keycloak asking a real HR. */
  employeeGrant?: (employeeId: string, citizenId: string) => Promise<GrantOutcome>;
  phoneGrant?: (fields: { phone: string; code?: string }) => Promise<GrantOutcome>;
  /** The voucher grant instead of `grant`: gets the code as the portal sent it. */
  voucherGrant?: (code: string, clientAddress?: string) => Promise<GrantOutcome>;
  refresh: GrantOutcome;
  account: CreateAccountOutcome;
  evaluate: PeerAnswer;
  create: PeerAnswer;
  grantSession: PeerAnswer;
  /** What the session service answers for the allowance left (asked only when the entitlement has an allowance). */
  allowanceLeft: PeerAnswer;
  sessionState: string;
  /** What the session read answers instead of the session in `sessionState` (null: the session). */
  read: PeerAnswer | null;
  /** The gateway service's answers. */
  credential: PeerAnswer;
  /** The gateway service's answers to the openNDS authorisation and to a relayed authmon poll. */
  opennds: PeerAnswer;
  authmon: PeerAnswer;
  /** Whether the openNDS gateway polls (its authmon reached the gateway service lately). */
  openndsGateway: PeerAnswer;
  connection: PeerAnswer;
  /** The session service's and the gateway service's parts of a person's copy of their data. */
  subjectSessions: (subjectId: string) => PeerAnswer;
  connectionHistory: (sessionId: string) => PeerAnswer;
  /** Keycloak's account of a subject (undefined: Keycloak did not answer) and the entitlement service's entitlements of it. */
  keycloakAccount: (subjectId: string) => AccountRecord | undefined;
  subjectEntitlements: (subjectId: string) => PeerAnswer;
  /** An erasure's steps: Keycloak's hold and removal, and each service's erase answer. */
  hold: HoldOutcome;
  removed: boolean;
  eraseConnections: PeerAnswer;
  eraseSessions: PeerAnswer;
  eraseEntitlements: PeerAnswer;
  /** The user_type claim of every sign-in. */
  userType: string;
  /** The terms version in force as svc-admin answers it (none published by default). */
  terms: CurrentTerms;
  /** The gateway service's device credentials (the real client when absent). */
  devices?: DeviceGateway;
}

export const answer = (status: number, body: Record<string, unknown>): PeerAnswer => ({ kind: 'answer', status, body });

/** The gateway service's connection view (contract GatewayConnection), before any accounting unless changed. */
export const connectionBody = (changes: Record<string, unknown> = {}): Record<string, unknown> => ({
  sessionId: 'sess-11111111-1111-4111-8111-111111111111',
  state: 'NONE',
  connected: false,
  nasId: null,
  startedAt: null,
  updatedAt: null,
  stoppedAt: null,
  inputOctets: 0,
  outputOctets: 0,
  sessionTime: 0,
  disconnect: null,
  ...changes,
});

export function entitlementBody(): Record<string, unknown> {
  return {
    entitlementId: `ent-${randomUUID()}`,
    subjectId: SUBJECT,
    sessionId: null,
    eligible: true,
    entitlementType: 'WIFI_CUSTOMER_BASIC',
    status: 'ACTIVE',
    validFrom: new Date().toISOString(),
    validUntil: new Date(Date.now() + 3_600_000).toISOString(),
    permission: { tier: 'BASIC', qosClass: 'STANDARD', deviceSlots: 1, sourceType: 'IDP_ID_LOGIN', sourceRef: null },
    issuedAt: new Date().toISOString(),
    replayed: false,
  };
}

/** A whole spec 2.7 Session, as the session service answers it. */
export function sessionBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const at = new Date().toISOString();
  return {
    sessionId: 'sess-11111111-1111-4111-8111-111111111111',
    subjectId: SUBJECT,
    deviceRef: 'dev-portal',
    state: 'GRANTED',
    entitlementId: 'ent-11111111-1111-4111-8111-111111111111',
    entitlementType: 'WIFI_CUSTOMER_BASIC',
    tier: 'BASIC',
    qosClass: 'STANDARD',
    grantedAt: at,
    expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    revokedAt: null,
    createdAt: at,
    updatedAt: at,
    replayed: false,
    ...overrides,
  };
}

export function defaultFakes(): Fakes {
  return {
    calls: [],
    createdDevices: [],
    grantBodies: [],
    grant: { kind: 'tokens', tokens: { accessToken: ACCESS_TOKEN, refreshToken: REFRESH_TOKEN } },
    refresh: { kind: 'tokens', tokens: { accessToken: `${ACCESS_TOKEN}2`, refreshToken: `${REFRESH_TOKEN}2` } },
    account: { kind: 'created', verifyMail: 'sent' },
    evaluate: answer(201, entitlementBody()),
    create: answer(201, sessionBody({ state: 'CREATED', entitlementId: null, grantedAt: null, expiresAt: null })),
    grantSession: answer(200, sessionBody()),
    allowanceLeft: answer(200, { bytesRemaining: null, secondsRemaining: null, renewsAt: '2026-11-28T00:00:00.000Z' }),
    sessionState: 'GRANTED',
    read: null,
    credential: answer(201, {
      username: 'wifi-one-time-user',
      password: 'one-time-password',
      chapResponse: '0123456789abcdef0123456789abcdef',
      nasId: 'demo-nas',
      expiresAt: new Date(Date.now() + 120_000).toISOString(),
    }),
    connection: answer(200, connectionBody()),
    opennds: answer(201, { nasId: 'nds-1', state: 'PENDING', sessionSeconds: 3600 }),
    authmon: answer(200, { text: '*' }),
    openndsGateway: answer(200, { nasId: 'nds-1', polling: true, polledAt: new Date().toISOString() }),
    subjectSessions: (subjectId) => answer(200, { subjectId, sessions: [] }),
    connectionHistory: (sessionId) => answer(200, { sessionId, connections: [] }),
    keycloakAccount: () => ({
      username: 'bob@example.com',
      email: 'bob@example.com',
      emailVerified: true,
      firstName: 'Bob',
      lastName: null,
      createdMs: Date.parse('2026-11-01T09:00:00.000Z'),
      enabled: true,
      attributes: {},
    }),
    subjectEntitlements: (subjectId) => answer(200, { subjectId, entitlements: [] }),
    hold: { kind: 'held' },
    removed: true,
    eraseConnections: answer(200, { sessions: 0, disconnectsPending: 0 }),
    eraseSessions: answer(200, { subjectId: SUBJECT, revoked: [], anonymised: [] }),
    eraseEntitlements: answer(200, { subjectId: SUBJECT, entitlements: 0, requests: 0 }),
    userType: 'CUSTOMER',
    terms: { kind: 'none' },
  };
}

/** The test registry: coovachilli venue-1 (10.1.0.1, UAM secret `venue-1-uam-secret`), venue-2 (10.2.0.1, `venue-2-uam-secret`), venue-md (10.3.0.1, UAM secret `venue-md-uam-secret`); cisco-wlc wlc-1 (https://192.0.2.1/login.html), wlc-2; mikrotik hotspot-1 (http://10.5.50.1/login); pfsense fw-1 (zone guest); opnsense opn-1 (https://cp.example.net:8000). */
export const TEST_GATEWAYS = 'test/services/portal/fixtures/gateways.json';

export interface PortalUnderTest extends Booted {
  fakes: Fakes;
  db: Database;
  lines: string[];
  post(path: string, json?: unknown, headers?: Record<string, string>): Promise<Answer>;
  get(path: string, headers?: Record<string, string>): Promise<Answer>;
  /** A page outside the API document (`/gateway`, `/`), asked as a browser would, redirects not followed. */
  page(path: string, headers?: Record<string, string>, form?: Record<string, string>): Promise<Answer>;
}

// One in-memory database per test file (opening PGlite takes seconds); tests tell their rows
// apart by the cookie each one holds.
let shared: Promise<Database> | undefined;
const sharedDb = () => (shared ??= openTestDatabase('memory', { service: 'portal', migrations: MIGRATIONS }));

export async function bootPortal(t: ExecutionContext, fakes = defaultFakes(), env: Record<string, string> = {}, now?: () => Date): Promise<PortalUnderTest> {
  const db = await sharedDb();
  const { calls } = fakes;
  const idp: IdpClient = {
    passwordGrant: async (username) => (calls.push(`idp.password ${username}`), fakes.grant),
    employeeGrant: async (employeeId, citizenId) => (
      calls.push(`idp.employee ${employeeId}`), fakes.employeeGrant === undefined ? fakes.grant : fakes.employeeGrant(employeeId, citizenId)
    ),
    phoneGrant: async (fields) => (
      calls.push(`idp.phone ${fields.code === undefined ? 'code-request' : 'sign-in'}`),
      fakes.phoneGrant !== undefined ? fakes.phoneGrant(fields) : fields.code === undefined ? CODE_SENT : fakes.grant
    ),
    voucherGrant: async (code, _correlationId, clientAddress) => (
      calls.push('idp.voucher'), fakes.voucherGrant !== undefined ? fakes.voucherGrant(code, clientAddress) : fakes.grant
    ),
    refresh: async () => (calls.push('idp.refresh'), fakes.refresh),
    logout: async () => (calls.push('idp.logout'), true),
  };
  const upstreams: Upstreams = {
    evaluate: async () => (calls.push('entitlement.evaluate'), fakes.evaluate),
    createSession: async (_subject, deviceRef) => (calls.push('session.create'), fakes.createdDevices.push(String(deviceRef)), fakes.create),
    grantSession: async (_sessionId, body) => (calls.push('session.grant'), fakes.grantBodies.push(body), fakes.grantSession),
    allowanceLeft: async () => (calls.push('session.allowance-left'), fakes.allowanceLeft),
    revokeSession: async () => (calls.push('session.revoke'), answer(200, { state: 'REVOKED' })),
    issueCredential: async (request) => (calls.push(`gateway.credential ${request.nasId}`), fakes.credential),
    authoriseOpennds: async (request) => (calls.push(`gateway.opennds ${request.nasId} ${request.hid}`), fakes.opennds),
    relayAuthmon: async (nasId, request) => (
      calls.push(
        `gateway.authmon ${nasId} ${request.auth_get} ${request.callerAddress}${request.sig === undefined ? '' : ` signed ${request.ts} ${request.nonce} ${request.sig}`}`,
      ),
      fakes.authmon
    ),
    openndsGateway: async (nasId) => (calls.push(`gateway.opennds-polling ${nasId}`), fakes.openndsGateway),
    readConnection: async () => (calls.push('gateway.connection'), fakes.connection),
    subjectSessions: async (subjectId) => (calls.push(`session.subject-sessions ${subjectId}`), fakes.subjectSessions(subjectId)),
    connectionHistory: async (sessionId) => (calls.push(`gateway.connection-history ${sessionId}`), fakes.connectionHistory(sessionId)),
    subjectEntitlements: async (subjectId) => (calls.push(`entitlement.subject-entitlements ${subjectId}`), fakes.subjectEntitlements(subjectId)),
    eraseConnections: async (sessionIds) => (calls.push(`gateway.erase ${sessionIds.join(',')}`), fakes.eraseConnections),
    eraseSessions: async (subjectId) => (calls.push(`session.erase ${subjectId}`), fakes.eraseSessions),
    eraseEntitlements: async (subjectId) => (calls.push(`entitlement.erase ${subjectId}`), fakes.eraseEntitlements),
    readSession: async (id) => (
      calls.push('session.read'),
      fakes.read ??
        answer(
          200,
          sessionBody({
            sessionId: id,
            state: fakes.sessionState,
            expiresAt: new Date(Date.now() + 600_000).toISOString(),
            updatedAt: new Date().toISOString(),
          }),
        )
    ),
  };
  const accounts: AccountAdmin = {
    createAccount: async (email) => (calls.push(`accounts.create ${email}`), fakes.account),
    holdForErasure: async (subjectId) => (calls.push(`accounts.hold ${subjectId}`), fakes.hold),
    removeAccount: async (subjectId) => (calls.push(`accounts.remove ${subjectId}`), fakes.removed),
    readAccount: async (subjectId) => (calls.push(`accounts.read ${subjectId}`), fakes.keycloakAccount(subjectId)),
  };
  const { logger, lines } = capturingLogger('portal');
  const config = PortalConfig.parse({ LOGIN_FAILURE_FLOOR_MS: '0', GATEWAYS_FILE: TEST_GATEWAYS, ...env });
  const { app } = await createApp(config, logger, {
    db,
    idp,
    upstreams,
    accounts,
    terms: { current: async () => fakes.terms },
    ...(fakes.devices === undefined ? {} : { devices: fakes.devices }),
    ...(now === undefined ? {} : { now }),
    readClaims: async () => ({ sub: SUBJECT, aud: ['account'], azp: 'wifi-portal-api', preferred_username: 'bob@example.com', user_type: fakes.userType }),
  });
  const booted = await boot(t, app);
  return {
    ...booted,
    fakes,
    db,
    lines,
    post: (path, json = {}, headers = {}) => booted.request('POST', path, { json, headers }),
    get: (path, headers = {}) => booted.request('GET', path, { headers }),
    page: async (path, headers = {}, form) => {
      const init =
        form === undefined
          ? {}
          : { method: 'POST', body: new URLSearchParams(form).toString(), headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' } };
      const response = await fetch(`${booted.url}${path}`, { headers, redirect: 'manual', ...init });
      return { status: response.status, headers: response.headers, text: await response.text(), body: {} };
    },
  };
}

/** The `sid=...` pair of a response's Set-Cookie, to send back as a Cookie header. */
export function cookieOf(answer: Answer, name = 'sid'): string {
  const set = answer.headers.getSetCookie().find((cookie) => cookie.startsWith(`${name}=`)) ?? '';
  return set.split(';')[0] ?? '';
}
