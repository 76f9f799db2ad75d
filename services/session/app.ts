import { createServiceApp, healthRoute, type Logger, type ServiceInstance } from '../kit/index.js';
import { openDatabase, type Database } from '../kit/store/index.js';
import type { SessionConfig } from './config.js';
import { sessionRoutes } from './routes.js';
import { createSessionStore } from './session-store.js';

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
  const ready = async () => {
    try {
      await db.query('SELECT 1');
      return { ready: true as const, detail: { store: db.kind } };
    } catch {
      return { ready: false as const, code: 'SERVICE_UNAVAILABLE' as const, message: 'The session store is unreachable.' };
    }
  };
  const app = createServiceApp({ service: 'session', logger, routes: [healthRoute('session', ready), ...sessionRoutes(store, config.SESSION_API_KEY, now)] });
  return { app, close: () => (deps.db ? Promise.resolve() : db.close()) };
}
