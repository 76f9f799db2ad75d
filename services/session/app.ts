import { createServiceApp, healthRoute, type Logger, type ServiceInstance } from '../kit/index.js';
import { openDatabase, startPurgeJob, storeReadiness, type Database } from '../kit/store/index.js';
import type { SessionConfig } from './config.js';
import { copyRoutes } from './copy-routes.js';
import { eraseRoutes } from './erase-routes.js';
import { createFeedWake } from './feed-wake.js';
import { sessionRetention } from './retention.js';
import { sessionRoutes } from './routes.js';
import { createSessionStore } from './session-store.js';
import { createUsageCounters } from './usage-counters.js';
import { usageRoutes } from './usage-routes.js';

export interface SessionDeps {
  /** An open, migrated database; opened from the configuration when absent. */
  db?: Database;
  now?: () => Date;
}

export const MIGRATIONS = new URL('./migrations/', import.meta.url);

/** Session service (spec 4.4): opens, grants, revokes and reads network sessions; never decides. */
export async function createApp(config: SessionConfig, logger: Logger, deps: SessionDeps = {}): Promise<ServiceInstance> {
  const db = deps.db ?? (await openDatabase('session', config, MIGRATIONS));
  const now = deps.now ?? (() => new Date());
  const store = createSessionStore(db, now);
  const wake = await createFeedWake(db);
  const usage = createUsageCounters(db, config.VENUE_TIME_ZONE);
  const purge = startPurgeJob({ db, service: 'session', rules: sessionRetention(config), settings: config, now, logger });
  const app = createServiceApp({
    service: 'session',
    logger,
    routes: [
      healthRoute('session', storeReadiness(db, 'session')),
      ...sessionRoutes(store, db, wake, config.SESSION_API_KEYS, now, usage),
      ...usageRoutes(db, usage, config.SESSION_API_KEYS, now),
      ...copyRoutes(db, config.SESSION_API_KEYS, now),
      ...eraseRoutes(db, store, config.SESSION_API_KEYS),
    ],
    // The gateway service follows the change feed, asking again after each answer.
    quietPaths: ['/api/v1/sessions/changes', '/api/v1/usage'],
  });
  return {
    app,
    drain: () => wake.drain(),
    async close() {
      await purge.stop();
      await wake.close();
      if (!deps.db) await db.close();
    },
  };
}
