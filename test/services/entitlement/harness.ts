import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { ExecutionContext, TestFn } from 'ava';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { createApp as createDecisionApp } from '../../../services/decision/app.js';
import { DecisionConfig } from '../../../services/decision/config.js';
import { createApp, MIGRATIONS } from '../../../services/entitlement/app.js';
import { EntitlementConfig } from '../../../services/entitlement/config.js';
import { listen } from '../../../services/kit/index.js';
import type { Database } from '../../../services/kit/store/index.js';
import { openTestDatabase, type Backend } from '../../helpers/databases.js';
import { boot, capturingLogger, type Answer, type Booted } from '../../helpers/service.js';

export const ISSUER = 'http://idp.test/realms/wifi';

/** A small HTTP server answering with a handler the test can swap; closed when the test ends. */
export async function stubServer(t: ExecutionContext | undefined, handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const state = { handler, hits: 0, correlationIds: [] as string[] };
  const server: Server = createServer((req, res) => {
    state.hits += 1;
    state.correlationIds.push(String(req.headers['x-correlation-id']));
    state.handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  t?.teardown(close);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, state, close };
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

/** An RS256 key pair with a key id, and a key set server publishing the keys the test chooses. */
export class KeySet {
  private keys: { kid: string; privateKey: CryptoKey; jwk: JWK }[] = [];
  published: JWK[] = [];
  url = '';

  static async start(t: ExecutionContext | undefined): Promise<KeySet> {
    const set = new KeySet();
    await set.rotate();
    const server = await stubServer(t, (_req, res) => json(res, 200, { keys: set.published }));
    set.url = server.url;
    set.server = server;
    return set;
  }

  server: Awaited<ReturnType<typeof stubServer>> | undefined;

  /** A new signing key, published alongside the old ones. */
  async rotate(): Promise<string> {
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    const kid = `kid-${randomUUID().slice(0, 8)}`;
    const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
    this.keys.push({ kid, privateKey, jwk });
    this.published.push(jwk);
    return kid;
  }

  get current() {
    const key = this.keys.at(-1);
    if (key === undefined) throw new Error('no key');
    return key;
  }

  async token(
    claims: Record<string, unknown>,
    options: { kid?: string; issuer?: string; audience?: string | string[]; expiresIn?: string | number } = {},
  ): Promise<string> {
    const key = this.keys.find((k) => k.kid === (options.kid ?? this.current.kid)) ?? this.current;
    const { sub = randomUUID(), ...rest } = claims;
    return new SignJWT(rest)
      .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
      .setSubject(String(sub))
      .setIssuer(options.issuer ?? ISSUER)
      .setAudience(options.audience ?? ['account', 'wifi-portal-api', 'wifi-portal-employee-api'])
      .setIssuedAt()
      .setExpirationTime(options.expiresIn ?? '5m')
      .sign(key.privateKey);
  }
}

export const customerClaims = (email = 'guest@example.com', emailVerified = true) => ({
  sub: randomUUID(),
  azp: 'wifi-portal-api',
  user_type: 'CUSTOMER',
  email,
  email_verified: emailVerified,
  preferred_username: email,
});
export const employeeClaims = (company: string, verified = true) => ({
  sub: randomUUID(),
  azp: 'wifi-portal-employee-api',
  user_type: 'EMPLOYEE',
  employee_verified: verified,
  company,
  employee_ref: 'HR-A-0001',
  wifi_eligible: true,
});

/** Loyalty as a stub whose behaviour the test sets: members by email, or a fault. */
export async function loyaltyStub(t: ExecutionContext | undefined) {
  const members: Record<string, unknown> = {
    'gold@demo.example': { found: true, memberRef: 'LOY-GOLD-1', tier: 'GOLD', status: 'ACTIVE', wifiBenefit: true },
    'silver@demo.example': { found: true, memberRef: 'LOY-SILVER-1', tier: 'SILVER', status: 'ACTIVE', wifiBenefit: false },
    '+84900000001': { found: true, memberRef: 'LOY-GOLD-PHONE', tier: 'GOLD', status: 'ACTIVE', wifiBenefit: true },
  };
  const control = { mode: 'normal' as 'normal' | 'hang' | 'unavailable' | 'garbage' };
  const server = await stubServer(t, (req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (control.mode === 'hang') return; // never answers
      if (control.mode === 'unavailable') return json(res, 503, { code: 'LOYALTY_SERVICE_UNAVAILABLE' });
      if (control.mode === 'garbage') return json(res, 200, { found: 'maybe' });
      const asked = JSON.parse(body || '{}') as { email?: string; phone?: string };
      json(res, 200, members[String(asked.email ?? asked.phone)] ?? { found: false });
    });
  });
  return {
    url: server.url,
    control,
    get hits() {
      return server.state.hits;
    },
    /** Whether a call carrying this correlation id reached loyalty. */
    asked: (correlationId: string) => server.state.correlationIds.includes(correlationId),
  };
}

/** The real decision service, in process on a free port. */
export async function decisionService(env: Record<string, string> = {}): Promise<{ url: string; close(): Promise<void> }> {
  const app = await createDecisionApp(DecisionConfig.parse(env), capturingLogger('decision').logger);
  const server = await listen(app, 0);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface EntitlementUnderTest extends Booted {
  lines: string[];
  evaluate(token: string | undefined, body?: unknown, headers?: Record<string, string>): Promise<Answer>;
  read(token: string, id: string): Promise<Answer>;
}

export const openEntitlementDb = (backend: Backend, postgresUrl?: string): Promise<Database> =>
  openTestDatabase(backend, { service: 'entitlement', migrations: MIGRATIONS, postgresUrl });

export async function bootEntitlement(t: ExecutionContext, db: Database, env: Record<string, string>): Promise<EntitlementUnderTest> {
  const { logger, lines } = capturingLogger('entitlement');
  // Generous budgets: a busy two-core machine must not turn a slow key fetch into a 401.
  const config = EntitlementConfig.parse({ IDP_ISSUER: ISSUER, JWKS_COOLDOWN_MS: '0', JWKS_TIMEOUT_MS: '20000', DECISION_TIMEOUT_MS: '15000', ...env });
  const { app } = await createApp(config, logger, { db });
  const booted = await boot(t, app);
  const auth = (token: string | undefined): Record<string, string> => (token === undefined ? {} : { authorization: `Bearer ${token}` });
  return {
    ...booted,
    lines,
    evaluate: (token, body, headers = {}) =>
      booted.request('POST', '/api/v1/entitlements/evaluate', { ...(body === undefined ? {} : { json: body }), headers: { ...auth(token), ...headers } }),
    read: (token, id) => booted.request('GET', `/api/v1/entitlements/${id}`, { headers: auth(token) }),
  };
}

export interface Shared {
  db: Database;
  keys: KeySet;
  decision: { url: string; close(): Promise<void> };
}

/** One in-memory database, one key set and one decision service for a whole test file. */
export function sharedPeers(test: TestFn): Shared {
  const shared = {} as Shared;
  test.before(async () => {
    shared.db = await openEntitlementDb('memory');
    shared.keys = await KeySet.start(undefined);
    shared.decision = await decisionService();
  });
  test.after.always(async () => {
    await shared.db?.close();
    await shared.keys?.server?.close();
    await shared.decision?.close();
  });
  return shared;
}
