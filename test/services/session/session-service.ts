import { randomUUID } from 'node:crypto';
import type { ExecutionContext } from 'ava';
import { createApp, MIGRATIONS } from '../../../services/session/app.js';
import { SessionConfig } from '../../../services/session/config.js';
import type { Database } from '../../../services/kit/store/index.js';
import { boot, capturingLogger, type Answer, type Booted } from '../../helpers/service.js';
import { openTestDatabase, type Backend } from '../../helpers/databases.js';

// The development keys of each caller: the portal's opens, grants, revokes and reads;
// the gateway service's reads and follows the change feed; Keycloak's revokes a subject's sessions.
export const KEY = { 'X-API-Key': 'dev-session-portal-key' };
export const FEED_KEY = { 'X-API-Key': 'dev-session-gateway-key' };
export const SUBJECT_KEY = { 'X-API-Key': 'dev-session-keycloak-key' };

/** A clock the test moves by hand, so expiry is tested without waiting. */
export class TestClock {
  constructor(public current = new Date('2026-11-23T10:00:00.000Z')) {}
  now = (): Date => new Date(this.current);
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

/** A migrated session database; the caller closes it. */
export const openSessionDb = (backend: Backend, postgresUrl?: string): Promise<Database> =>
  openTestDatabase(backend, { service: 'session', migrations: MIGRATIONS, postgresUrl });

export interface SessionClient extends Booted {
  create(body: unknown, headers?: Record<string, string>): Promise<Answer>;
  grant(sessionId: string, body: unknown): Promise<Answer>;
  revoke(sessionId: string): Promise<Answer>;
  read(sessionId: string): Promise<Answer>;
}

export async function bootSession(t: ExecutionContext, db: Database, clock = new TestClock()): Promise<SessionClient> {
  const { logger } = capturingLogger('session');
  const instance = await createApp(SessionConfig.parse({}), logger, { db, now: clock.now });
  // Registered after the caller's database teardown, so it runs first (ava runs them in reverse).
  t.teardown(() => instance.close());
  const booted = await boot(t, instance.app);
  return {
    ...booted,
    create: (body, headers = {}) => booted.request('POST', '/api/v1/sessions', { json: body, headers: { ...KEY, ...headers } }),
    grant: (sessionId, body) => booted.request('POST', `/api/v1/sessions/${sessionId}/grant`, { json: body, headers: KEY }),
    revoke: (sessionId) => booted.request('POST', `/api/v1/sessions/${sessionId}/revoke`, { headers: KEY }),
    read: (sessionId) => booted.request('GET', `/api/v1/sessions/${sessionId}`, { headers: KEY }),
  };
}

export const subject = (): string => randomUUID();
export const entitlementId = (): string => `ent-${randomUUID()}`;

export function grantBody(clock: TestClock, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    entitlementId: entitlementId(),
    entitlementType: 'WIFI_CUSTOMER_BASIC',
    tier: 'BASIC',
    qosClass: 'STANDARD',
    validUntil: new Date(clock.now().getTime() + 3_600_000).toISOString(),
    deviceSlots: 1,
    ...overrides,
  };
}
