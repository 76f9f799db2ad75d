import type { Readiness } from '../health.js';
import type { Database } from './database.js';

/** Health of a service that keeps state: ready while its database answers (503 otherwise). */
export function storeReadiness(db: Database, service: string, detail: () => Record<string, unknown> = () => ({})): () => Promise<Readiness> {
  return async () => {
    try {
      await db.query('SELECT 1');
      return { ready: true, detail: { store: db.kind, ...detail() } };
    } catch {
      return { ready: false, code: 'SERVICE_UNAVAILABLE', message: `The ${service} store is unreachable.` };
    }
  };
}
