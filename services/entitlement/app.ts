import { createServiceApp, healthRoute, type Logger, type ServiceInstance } from '../kit/index.js';
import { openDatabase, startPurgeJob, storeReadiness, type Database } from '../kit/store/index.js';
import type { EntitlementConfig } from './config.js';
import { createDecisionClient, type DecisionClient } from './decision-client.js';
import { createEntitlementStore } from './entitlement-store.js';
import { createLoyaltyClient, type LoyaltyClient } from './loyalty-client.js';
import { eraseRoutes } from './erase-routes.js';
import { entitlementRetention } from './retention.js';
import { entitlementRoutes } from './routes.js';
import { createTokenVerifier, type TokenVerifier } from './token-verifier.js';

export interface EntitlementDeps {
  db?: Database;
  verify?: TokenVerifier;
  loyalty?: LoyaltyClient;
  decisions?: DecisionClient;
  now?: () => Date;
}

export const MIGRATIONS = new URL('./migrations/', import.meta.url);

/** Entitlement service (spec 4.3): decides, never enforces; every grant traces to one of its records. */
export async function createApp(config: EntitlementConfig, logger: Logger, deps: EntitlementDeps = {}): Promise<ServiceInstance> {
  const db = deps.db ?? (await openDatabase('entitlement', config, MIGRATIONS));
  const now = deps.now ?? (() => new Date());
  const store = createEntitlementStore(db, now);
  const loyalty = deps.loyalty ?? createLoyaltyClient(config, logger);
  const evaluateDeps = { store, loyalty, decisions: deps.decisions ?? createDecisionClient(config), now };
  const health = healthRoute(
    'entitlement',
    storeReadiness(db, 'entitlement', () => ({ loyaltyBreaker: loyalty.breakerState(), policyFallback: config.POLICY_FALLBACK })),
  );
  const routes = [
    health,
    ...entitlementRoutes(deps.verify ?? createTokenVerifier(config), evaluateDeps, store),
    ...eraseRoutes(db, config.ENTITLEMENT_API_KEYS),
  ];
  const app = createServiceApp({ service: 'entitlement', logger, routes });
  const purge = startPurgeJob({ db, service: 'entitlement', rules: entitlementRetention(config), settings: config, now, logger });
  return {
    app,
    async close() {
      await purge.stop();
      if (!deps.db) await db.close();
    },
  };
}
