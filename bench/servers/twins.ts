// The bare twins of `npm run bench:overhead`: for each service's hot sign-in
// route, a bare Express 5 app with `express.json()` doing the same job with the same I/O: the
// same SQL statements on the same kind of store (PGlite with the service's migrations, through
// the service's own store module), the same outbound calls through undici to the same peers, and
// the same unavoidable computation (token signature, HMACs, the DMN evaluation, the portal's
// token sealing). What a twin leaves out is what the service adds around the job: the kit
// (correlation id, request log and metrics, schema validation, API keys, rate ceilings, outbound
// policies and breakers, the error object) and the service's own logging. TWIN=<service> picks one; PORT as the services.
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express, { type Express, type Request, type Response } from 'express';
import { pino } from 'pino';
import { request } from 'undici';
import { evaluate } from '../../dmn/engine/index.js';
import { loadDirectory } from '../../dmn/model-directory.js';
import { createSealer } from '../../services/kit/index.js';
import { loadGatewayRegistry } from '../../edge/index.js';
import { openDatabase, type Database } from '../../services/kit/store/index.js';
import { createDirectory, loadFixture } from '../../services/hr/directory.js';
import { HrConfig } from '../../services/hr/config.js';
import { createMemberLookup, loadMembers } from '../../services/loyalty/members.js';
import { LoyaltyConfig } from '../../services/loyalty/config.js';
import { EntitlementConfig } from '../../services/entitlement/config.js';
import { createEntitlementStore } from '../../services/entitlement/entitlement-store.js';
import { evaluateEntitlement } from '../../services/entitlement/evaluate-entitlement.js';
import { createTokenVerifier } from '../../services/entitlement/token-verifier.js';
import type { LoyaltyClient } from '../../services/entitlement/loyalty-client.js';
import type { DecisionClient, DecisionOutputs } from '../../services/entitlement/decision-client.js';
import { MIGRATIONS as ENTITLEMENT_MIGRATIONS } from '../../services/entitlement/app.js';
import { MIGRATIONS as SESSION_MIGRATIONS } from '../../services/session/app.js';
import { createSessionStore } from '../../services/session/session-store.js';
import { createFeedWake } from '../../services/session/feed-wake.js';
import { GatewayConfig } from '../../services/gateway/config.js';
import { MIGRATIONS as GATEWAY_MIGRATIONS } from '../../services/gateway/app.js';
import { createCredentialStore } from '../../services/gateway/credential-store.js';
import { createConnectionStore } from '../../services/gateway/connection-store.js';
import { decideAccess } from '../../services/gateway/access.js';
import { recordAccounting } from '../../services/gateway/accounting.js';
import { newUsername, passwordFor, usernameHash } from '../../services/gateway/credentials.js';
import type { SessionPeer, SessionView } from '../../services/gateway/session-client.js';
import type { Entitlement } from '../../contract/entitlement.js';
import type { Session } from '../../contract/session.js';
import { PortalConfig } from '../../services/portal/config.js';
import { MIGRATIONS as PORTAL_MIGRATIONS } from '../../services/portal/app.js';
import { createPortalSessionStore } from '../../services/portal/portal-session-store.js';
import { createClaimsReader } from '../../services/portal/claims.js';
import { CUSTOMER_CLIENT } from '../../services/portal/idp-client.js';
import { SID_LIFETIME_MS } from '../../services/portal/cookies.js';
import { newSid } from '../../services/portal/token-crypto.js';

// The twins read the same settings (and defaults) the services do.
const env = process.env;
const silent = pino({ level: 'silent' });
const correlationId = 'corr-00000000-0000-4000-8000-000000000000';

/** One outbound JSON call, plain undici: no policy, no metric, no correlation header. */
async function call(url: string, method: 'GET' | 'POST', body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown }> {
  const response = await request(url, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.statusCode, body: await response.body.json() };
}

/** A folder of its own per twin, like the service's DATA_DIR. */
const database = (service: string, migrations: URL): Promise<Database> =>
  openDatabase(service, { DATA_DIR: env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'wifi-twin-')), DATABASE_POOL_SIZE: 1 }, migrations);

type Handler = (req: Request, res: Response) => Promise<void> | void;
const twins: Record<string, () => Promise<Record<string, Handler>>> = {
  async decision() {
    const loaded = await loadDirectory(env.DMN_DIR ?? 'dmn/models');
    if (!loaded.ok) throw new Error(loaded.message);
    const runtime = loaded.runtime;
    return {
      'post /api/v1/decisions/:model/evaluate': (req, res) => {
        const model = runtime.models.get(String(req.params['model']))!.model;
        const outcome = evaluate(model, req.body.inputs, req.body.decision);
        res.json(outcome.ok ? { model: model.name, results: outcome.results, timestamp: new Date().toISOString() } : { error: true });
      },
    };
  },

  async loyalty() {
    const lookup = createMemberLookup(loadMembers(LoyaltyConfig.parse(env).LOYALTY_FIXTURE));
    return { 'post /api/v1/members/lookup': (req, res) => void res.json(lookup(req.body.email)) };
  },

  async hr() {
    const config = HrConfig.parse(env);
    const directory = createDirectory(loadFixture(config.HR_FIXTURE), config.HR_CITIZEN_HASH_KEY);
    return { 'post /api/v1/employees/verify': (req, res) => void res.json(directory.verify(req.body.employeeId, req.body.citizenId).response) };
  },

  async entitlement() {
    const config = EntitlementConfig.parse(env);
    const store = createEntitlementStore(await database('entitlement', ENTITLEMENT_MIGRATIONS), () => new Date());
    const verify = createTokenVerifier(config);
    const loyalty: LoyaltyClient = {
      async lookup(email) {
        if (email === null) return { source: 'skipped', memberTier: null, wifiBenefit: null, memberRef: null };
        const member = (await call(`${config.LOYALTY_URL}/api/v1/members/lookup`, 'POST', { email }, { 'X-API-Key': config.LOYALTY_API_KEY })).body as {
          tier: string;
          wifiBenefit: boolean;
          memberRef: string;
        };
        return { source: 'loyalty', memberTier: member.tier, wifiBenefit: member.wifiBenefit, memberRef: member.memberRef };
      },
      breakerState: () => 'closed',
    };
    const decisions: DecisionClient = {
      async decide(inputs) {
        const answer = await call(`${config.DECISION_URL}/api/v1/decisions/${config.DECISION_MODEL}/evaluate`, 'POST', {
          inputs,
          decision: config.DECISION_NAME,
        });
        return { kind: 'evaluated', outputs: (answer.body as { results: Record<string, DecisionOutputs> }).results[config.DECISION_NAME]!, by: 'service' };
      },
    };
    const deps = { store, loyalty, decisions, now: () => new Date() };
    return {
      'post /api/v1/entitlements/evaluate': async (req, res) => {
        const facts = await verify(req.get('authorization'));
        const outcome = await evaluateEntitlement(deps, facts, req.body ?? {}, req.get('idempotency-key'), correlationId, silent);
        res.status(outcome.status).json({ ...outcome.entitlement, replayed: outcome.replayed });
      },
    };
  },

  async session() {
    const db = await database('session', SESSION_MIGRATIONS);
    const store = createSessionStore(db);
    // The service's process listens for the feed's notifications too (each write notifies).
    await createFeedWake(db);
    return {
      'post /api/v1/sessions': async (req, res) => {
        const outcome = await store.create(
          { subjectId: req.body.subjectId, deviceRef: req.body.deviceRef, idempotencyKey: req.get('idempotency-key') },
          correlationId,
        );
        res.status(201).json(outcome.kind === 'key-reused' ? {} : outcome.session);
      },
      'post /api/v1/sessions/:sessionId/grant': async (req, res) => {
        const outcome = await store.grant(String(req.params['sessionId']), { ...req.body, validUntil: new Date(req.body.validUntil) }, correlationId);
        res.json('session' in outcome ? outcome.session : {});
      },
    };
  },

  async portal() {
    const config = PortalConfig.parse(env);
    const store = createPortalSessionStore(await database('portal', PORTAL_MIGRATIONS), createSealer(config.PORTAL_TOKEN_KEY), () => new Date());
    const readClaims = createClaimsReader(config);
    const tokenUrl = `${config.IDP_URL}/realms/${config.IDP_REALM}/protocol/openid-connect/token`;
    const sessionKey = { 'X-API-Key': config.PORTAL_SESSION_KEY };
    return {
      'post /api/v1/auth/login': async (req, res) => {
        const form = new URLSearchParams({
          client_id: CUSTOMER_CLIENT,
          client_secret: config.PORTAL_API_CLIENT_SECRET,
          grant_type: 'password',
          username: req.body.username,
          password: req.body.password,
          scope: 'openid',
        });
        const granted = await request(tokenUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
        const tokens = (await granted.body.json()) as { access_token: string; refresh_token: string };
        const claims = await readClaims(tokens.access_token);
        const subjectId = String(claims['sub']);
        const key = `portal-${randomUUID()}`;
        const entitlement = (
          await call(
            `${config.ENTITLEMENT_URL}/api/v1/entitlements/evaluate`,
            'POST',
            { subjectId, sessionId: null },
            { authorization: `Bearer ${tokens.access_token}`, 'Idempotency-Key': key },
          )
        ).body as Entitlement;
        const handle = randomUUID();
        const created = (
          await call(`${config.SESSION_URL}/api/v1/sessions`, 'POST', { subjectId, deviceRef: `dev-${handle}` }, { ...sessionKey, 'Idempotency-Key': key })
        ).body as Session;
        const { permission } = entitlement;
        const grant = {
          entitlementId: entitlement.entitlementId,
          entitlementType: entitlement.entitlementType,
          tier: permission.tier,
          qosClass: permission.qosClass,
          validUntil: entitlement.validUntil,
          deviceSlots: permission.deviceSlots,
        };
        const session = (await call(`${config.SESSION_URL}/api/v1/sessions/${created.sessionId}/grant`, 'POST', grant, sessionKey)).body as Session;
        const sid = newSid();
        await store.put(
          sid,
          {
            subjectId,
            client: CUSTOMER_CLIENT,
            accessToken: tokens.access_token,
            refreshToken: tokens.refresh_token,
            claims,
            entitlement,
            networkSessionId: created.sessionId,
            networkSession: session,
            gateway: null,
          },
          new Date(Date.now() + SID_LIFETIME_MS),
        );
        res.setHeader('set-cookie', [
          `sid=${sid}; Max-Age=3600; Path=/; HttpOnly; SameSite=Lax`,
          `did=${handle}; Max-Age=31536000; Path=/; HttpOnly; SameSite=Lax`,
        ]);
        res.json({ authenticated: true, correlationId, client: CUSTOMER_CLIENT, claims, entitlement, session });
      },
    };
  },

  async gateway() {
    const config = GatewayConfig.parse(env);
    const sealer = createSealer(config.GATEWAY_SEAL_KEY);
    const gateways = loadGatewayRegistry(config.GATEWAYS_FILE, sealer);
    const db = await database('gateway', GATEWAY_MIGRATIONS);
    const credentials = createCredentialStore(db);
    const connections = createConnectionStore(db, {
      interimFlushMs: config.INTERIM_FLUSH_MS,
      forgetAfterMs: (config.ACCT_INTERIM_SECONDS * 2 + config.STALE_GRACE_SECONDS) * 1000,
    });
    const headers = { 'X-API-Key': config.GATEWAY_SESSION_KEY };
    const peer: SessionPeer = {
      async read(sessionId) {
        const answer = await call(`${config.SESSION_URL}/api/v1/sessions/${sessionId}`, 'GET', undefined, headers);
        return answer.status === 200 ? { kind: 'found', session: answer.body as SessionView } : { kind: 'not-found' };
      },
      async revoke(sessionId) {
        return (await call(`${config.SESSION_URL}/api/v1/sessions/${sessionId}/revoke`, 'POST', undefined, headers)).status === 200;
      },
      changes: async () => undefined,
    };
    const access = { gateways, credentials, peer, now: () => new Date(), settings: config };
    return {
      // Set-up only (not measured): a one-time credential, as the service's portal route issues it.
      'post /api/v1/credentials': async (req, res) => {
        const username = newUsername();
        const now = new Date();
        await credentials.issue({
          usernameHash: usernameHash(username),
          sessionId: req.body.sessionId,
          deviceRef: req.body.deviceRef,
          nasId: req.body.nasId,
          issuedAt: now,
          expiresAt: new Date(now.getTime() + 120_000),
        });
        res.status(201).json({ username, password: passwordFor(config.CREDENTIAL_KEY, username) });
      },
      'post /radius/authorize': async (req, res) => {
        const reply = await decideAccess(access, String(req.query['nas']), req.body, correlationId);
        res.status(reply.status).json(reply.body);
      },
      'post /radius/accounting': async (req, res) => {
        const outcome = await recordAccounting(
          connections,
          credentials,
          (text) => sealer.seal(text),
          String(req.query['nas']),
          req.body,
          new Date(),
          config.ACCT_DELAY_MAX_SECONDS,
        );
        if (outcome.kind === 'logged-off') await peer.revoke(outcome.sessionId, correlationId);
        res.status(204).end();
      },
    };
  },
};

const name = env.TWIN ?? '';
const build = twins[name];
if (build === undefined) throw new Error(`TWIN must be one of ${Object.keys(twins).join(', ')}`);
const handlers = await build();
const app: Express = express();
// What the service does not send either: no ETag computed per answer, no X-Powered-By.
app.set('etag', false);
app.disable('x-powered-by');
app.use(express.json());
app.get('/health', (_req, res) => void res.json({ status: 'UP' }));
for (const [key, handler] of Object.entries(handlers)) {
  const [method, path] = key.split(' ') as ['post', string];
  app[method](path, (req, res, next) => {
    Promise.resolve(handler(req, res)).catch(next);
  });
}
app.listen(Number(env.PORT ?? 3998), '127.0.0.1');
// A plain exit on SIGTERM, so a --cpu-prof profile (BENCH_PROFILE_DIR) is written.
process.once('SIGTERM', () => process.exit(0));
