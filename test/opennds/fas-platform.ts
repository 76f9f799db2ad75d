// The platform the openNDS end-to-end tests sign in through: the started one (scripts/test-run.ts
// sets PLATFORM_UP=1: real Keycloak, every service on its spec port), or, without it or when asked
// for (`inProcess`), the portal, session and gateway services in this process on free ports with
// their own in-memory stores, only the identity provider and the entitlement service stood in (a
// fixed customer; an entitlement of one device slot whose validity the test sets). The in-process
// one writes nothing into the started platform's stores, so it runs beside it. Both read
// fixtures/gateways.json, where demo-opennds is registered.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp as createGatewayApp, MIGRATIONS as GATEWAY_MIGRATIONS } from '../../services/gateway/app.js';
import { GatewayConfig } from '../../services/gateway/config.js';
import { createLogger, listen } from '../../services/kit/index.js';
import { createApp as createPortalApp, MIGRATIONS as PORTAL_MIGRATIONS } from '../../services/portal/app.js';
import { PortalConfig } from '../../services/portal/config.js';
import { createUpstreams } from '../../services/portal/upstreams.js';
import { createApp as createSessionApp } from '../../services/session/app.js';
import { SessionConfig } from '../../services/session/config.js';
import { openTestDatabase } from '../helpers/databases.js';
import { ACCESS_TOKEN, entitlementBody, REFRESH_TOKEN, SUBJECT } from '../services/portal/portal-fakes.js';

export interface FasPlatform {
  /** What signs the person in: "the started platform (Keycloak)" or the stand-ins. */
  kind: string;
  /** The download quota (kB) every sign-in gets, when the QoS table has one. */
  downQuotaKB: number;
  portal: string;
  gateway: string;
  session: string;
  /** In-process only: the stood-in customer's subject id (every sign-in is this customer's). */
  subjectId: string;
  /** In-process only: how long the next sign-ins' entitlement is valid, in seconds (3600 unless set). */
  setValiditySeconds(seconds: number): void;
  /**
   * In-process only: moves the session service's and the portal's clocks (an allowance's next
   * period: its reads count from there; the portal's gateway contexts made before have expired).
   * The gateway keeps the real time: openNDS's signed polls are checked against it.
   */
  shift(ms: number): void;
  stop(): Promise<void>;
}

/** What the stood-in entitlement's permission carries as its allowance (none unless given). */
export interface FasAllowance {
  dataBytes: number | null;
  timeSeconds: number | null;
  period: 'DAY' | 'WEEK' | 'MONTH';
}

const SESSION_MIGRATIONS = new URL('../../services/session/migrations/', import.meta.url);
const url = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/**
 * The QoS table of the in-process gateway service: the default rates, and a download quota of
 * QUOTA_KB on every class, so the test can use it up (the started platform's table has none).
 */
export const QUOTA_KB = 300;
const QOS_TABLE = JSON.stringify({ '*': { up: 1_000_000, down: 5_000_000, downQuotaKB: QUOTA_KB } });

function withAllowance(body: Record<string, unknown>, allowance: FasAllowance | undefined): Record<string, unknown> {
  if (allowance === undefined) return body;
  return { ...body, permission: { ...(body['permission'] as Record<string, unknown>), allowance } };
}

/** In-process only: gateway settings a test changes (the running counters' interval; a QoS table without a quota). */
export interface FasGatewaySettings {
  /** OPENNDS_USAGE_SECONDS (60 unless given). */
  usageSeconds?: number;
  /** The QoS rows have no download quota: openNDS's quota is then the data allowance left. */
  noQuota?: boolean;
}

export async function fasPlatform(options: { inProcess?: boolean; allowance?: FasAllowance; gateway?: FasGatewaySettings } = {}): Promise<FasPlatform> {
  if (process.env['PLATFORM_UP'] === '1' && options.inProcess !== true) {
    return {
      kind: 'the started platform (Keycloak sign-in)',
      downQuotaKB: 0,
      portal: process.env['PORTAL_URL'] ?? 'http://127.0.0.1:3000',
      gateway: process.env['GATEWAY_URL'] ?? 'http://127.0.0.1:3004',
      session: process.env['SESSION_URL'] ?? 'http://127.0.0.1:3003',
      subjectId: '',
      setValiditySeconds: () => {
        throw new Error("the started platform's entitlement service decides the validity");
      },
      shift: () => {
        throw new Error("the started platform's services keep their own clock");
      },
      stop: async () => undefined,
    };
  }
  let validitySeconds = 3600;
  let offset = 0;
  const now = () => new Date(Date.now() + offset);
  const logger = createLogger({ service: 'ndst', level: 'warn' });
  const [sessionDb, gatewayDb, portalDb] = await Promise.all([
    openTestDatabase('memory', { service: 'session', migrations: SESSION_MIGRATIONS }),
    openTestDatabase('memory', { service: 'gateway', migrations: GATEWAY_MIGRATIONS }),
    openTestDatabase('memory', { service: 'portal', migrations: PORTAL_MIGRATIONS }),
  ]);
  const servers: Server[] = [];
  const closers: Array<() => Promise<void>> = [];
  const session = await listen((await createSessionApp(SessionConfig.parse({}), logger, { db: sessionDb, now })).app, 0);
  servers.push(session);
  const gatewayService = await createGatewayApp(
    GatewayConfig.parse({
      SESSION_URL: url(session),
      FEED_POLL_MS: '200',
      USAGE_PUSH_MS: '200',
      QOS_TABLE: options.gateway?.noQuota === true ? JSON.stringify({ '*': { up: 1_000_000, down: 5_000_000 } }) : QOS_TABLE,
      ...(options.gateway?.usageSeconds === undefined ? {} : { OPENNDS_USAGE_SECONDS: String(options.gateway.usageSeconds) }),
    }),
    logger,
    { db: gatewayDb },
  );
  closers.push(gatewayService.close);
  const gateway = await listen(gatewayService.app, 0);
  servers.push(gateway);
  const portalConfig = PortalConfig.parse({ SESSION_URL: url(session), GATEWAY_URL: url(gateway), LOGIN_FAILURE_FLOOR_MS: '0' });
  const real = createUpstreams(portalConfig);
  const portalService = await createPortalApp(portalConfig, logger, {
    db: portalDb,
    now,
    upstreams: {
      ...real,
      evaluate: async () => ({
        kind: 'answer',
        status: 201,
        body: withAllowance({ ...entitlementBody(), validUntil: new Date(Date.now() + validitySeconds * 1000).toISOString() }, options.allowance),
      }),
    },
    idp: {
      passwordGrant: async () => ({ kind: 'tokens', tokens: { accessToken: ACCESS_TOKEN, refreshToken: REFRESH_TOKEN } }),
      employeeGrant: async () => ({ kind: 'refused', error: 'invalid_grant', status: 401, description: '' }),
      phoneGrant: async () => ({ kind: 'refused', error: 'invalid_grant', status: 401, description: '' }),
      voucherGrant: async () => ({ kind: 'refused', error: 'invalid_grant', status: 401, description: '' }),
      refresh: async () => ({ kind: 'refused', error: 'invalid_grant', status: 400, description: '' }),
      logout: async () => true,
    },
    // No terms in force: the stood-in platform has no Keycloak to publish them.
    terms: { current: async () => ({ kind: 'none' }) },
    readClaims: async () => ({ sub: SUBJECT, aud: ['account'], azp: 'wifi-portal-api', preferred_username: 'bob@example.com', user_type: 'CUSTOMER' }),
  });
  closers.push(portalService.close);
  const portal = await listen(portalService.app, 0);
  servers.push(portal);
  return {
    kind: 'its services in-process (identity provider and entitlement stood in)',
    downQuotaKB: options.gateway?.noQuota === true ? 0 : QUOTA_KB,
    portal: url(portal),
    gateway: url(gateway),
    session: url(session),
    subjectId: SUBJECT,
    setValiditySeconds(seconds) {
      validitySeconds = seconds;
    },
    shift(ms) {
      offset += ms;
    },
    async stop() {
      for (const server of servers.reverse()) await close(server);
      for (const closer of closers) await closer();
      await Promise.all([sessionDb.close(), gatewayDb.close(), portalDb.close()]);
    },
  };
}
