import { createSealer, createServiceApp, healthRoute, type Logger, type ServiceInstance } from '../kit/index.js';
import { loadDefaultWifi, loadGatewayRegistry } from '../../edge/index.js';
import { deviceProfileRoute } from './device-profiles.js';
import { openDatabase, startPurgeJob, storeReadiness, type Database } from '../kit/store/index.js';
import { createAccountAdmin, type AccountAdmin, type AccountDirectory } from './account-admin.js';
import { accountRetention, type RetentionAudit } from './account-retention.js';
import { createArrivalLimit } from './arrival-limit.js';
import { captiveRoute } from './captive-route.js';
import { createClaimsReader, type ClaimsReader } from './claims.js';
import type { PortalConfig } from './config.js';
import { dataCopyRoutes } from './data-copy.js';
import { createDeviceGateway, deviceRoutes, type DeviceGateway } from './devices.js';
import { readGatewayCookie } from './cookies.js';
import { eraseAccountRoutes } from './erase-account.js';
import { createGatewayContextStore } from './gateway-context-store.js';
import { gatewayArrivalRouter } from './gateway-route.js';
import { createIdpClient, type IdpClient } from './idp-client.js';
import { createPortalSessions } from './portal-session.js';
import { createPortalSessionStore } from './portal-session-store.js';
import { portalRetention } from './retention.js';
import { sessionRoutes } from './session-routes.js';
import { createSignInDays } from './sign-in-days.js';
import { signInRoutes } from './sign-in-routes.js';
import { createTermsAcceptances, createTermsSource, termsRoutes, type TermsSource } from './terms.js';
import { createUiRouter } from './ui-router.js';
import { createUpstreams, type Upstreams } from './upstreams.js';

export interface PortalDeps {
  db?: Database;
  idp?: IdpClient;
  upstreams?: Upstreams;
  accounts?: AccountAdmin;
  /** Keycloak's accounts and svc-admin's audit, for the purge job's account rules; without them (a test's fake accounts) those rules do not run. */
  directory?: AccountDirectory & RetentionAudit;
  readClaims?: ClaimsReader;
  terms?: TermsSource;
  /** The gateway service's 802.1X device credentials. */
  devices?: DeviceGateway;
  now?: () => Date;
}

export const MIGRATIONS = new URL('./migrations/', import.meta.url);

/** Portal (spec 4.1): the only thing the browser calls; tokens stay here, behind cookie `sid`. */
export async function createApp(config: PortalConfig, logger: Logger, deps: PortalDeps = {}): Promise<ServiceInstance> {
  const db = deps.db ?? (await openDatabase('portal', config, MIGRATIONS));
  const now = deps.now ?? (() => new Date());
  const store = createPortalSessionStore(db, createSealer(config.PORTAL_TOKEN_KEY), now);
  const upstreams = deps.upstreams ?? createUpstreams(config);
  const gatewayContexts = createGatewayContextStore(db, config.GATEWAY_CONTEXT_TTL_SECONDS * 1000, now);
  const registry = loadGatewayRegistry(config.GATEWAYS_FILE, createSealer(config.GATEWAY_SEAL_KEY));
  const limit = createArrivalLimit(config.GATEWAY_ARRIVAL_LIMIT, config.GATEWAY_ARRIVAL_WINDOW_SECONDS * 1000, config.GATEWAY_ARRIVAL_GLOBAL_LIMIT);
  const idp = deps.idp ?? createIdpClient(config);
  const sessions = createPortalSessions({ config, store, upstreams, idp, now });
  const keycloak = deps.accounts === undefined ? createAccountAdmin(config) : undefined;
  const accounts = deps.accounts ?? (keycloak as AccountAdmin);
  const directory = deps.directory ?? keycloak;
  const terms = deps.terms ?? createTermsSource(config, now);
  const acceptances = createTermsAcceptances(db, now);
  const devices = deps.devices ?? createDeviceGateway(config);
  const routes = [
    healthRoute('portal', storeReadiness(db, 'portal session')),
    ...signInRoutes({
      config,
      sessions,
      gatewayContexts,
      registry,
      upstreams,
      idp,
      accounts,
      readClaims: deps.readClaims ?? createClaimsReader(config),
      terms,
      acceptances,
      signInDays: createSignInDays(db, now),
    }),
    ...termsRoutes(terms, acceptances, sessions, config.PORTAL_API_KEYS),
    ...sessionRoutes(config, sessions, idp),
    captiveRoute(config, sessions, now),
    ...eraseAccountRoutes({ config, sessions, store, upstreams, accounts }),
    ...dataCopyRoutes(sessions, upstreams, accounts, acceptances, now),
    ...deviceRoutes(config, sessions, devices),
    deviceProfileRoute(config, sessions, devices, { registry, defaultWifi: loadDefaultWifi(config.GATEWAYS_FILE) }),
  ];
  const ui = createUiRouter({
    gatewayLoginUrl: async (req) => {
      const id = readGatewayCookie(req);
      return id === undefined ? undefined : (await gatewayContexts.get(id))?.loginUrl;
    },
  });
  const arrivals = gatewayArrivalRouter({ config, registry, contexts: gatewayContexts, sessions: store, limit, logger, upstreams });
  const app = createServiceApp({ service: 'portal', logger, routes, routers: [ui, arrivals], trustProxy: config.PORTAL_TRUSTED_PROXIES });
  const accountRules =
    directory === undefined
      ? []
      : accountRetention({ config, accounts, directory, audit: directory, upstreams, store, logger: logger.child({ job: 'account-retention' }) });
  const purge = startPurgeJob({ db, service: 'portal', rules: [...portalRetention(config), ...accountRules], settings: config, now, logger });
  return {
    app,
    async close() {
      await purge.stop();
      if (!deps.db) await db.close();
    },
  };
}
