// `npm run bench:overhead`: each service's CPU per request at saturation within
// 1.5x of a bare Express route doing the same I/O. For each service's hot sign-in route, the
// service (compiled, SERVICE_NODE_FLAGS, LOG_LEVEL info, PGlite in a temp folder: as `make up`
// runs it) and its bare twin (bench/servers/twins.ts) are driven alike by autocannon at 8
// keep-alive connections; the CPU each one's process spent (from /proc) is divided by the
// requests it answered. Their peers are stub servers in this process answering fixed valid
// bodies, the same for both sides (the portal's: Keycloak's token endpoint and key set, the
// entitlement and session services); only the measured process's CPU counts. Rounds alternate
// between the two sides and each side keeps its lowest figure (the least disturbed round).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { evaluate } from '../dmn/engine/index.js';
import { loadDirectory } from '../dmn/model-directory.js';
import { createSealer } from '../services/kit/index.js';
import { deviceRefFor } from '../edge/index.js';
import { GatewayConfig } from '../services/gateway/config.js';
import { cpuMeter } from './lib/cpu.js';
import { machine, startServer, writeResult, type ServerProcess } from './lib/load.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONNECTIONS = 8;
const TARGET = 1.5;
const ONLY = (process.env.BENCH_ONLY ?? '').split(',').filter(Boolean);
// Ports off the spec's 3000-3006/8080 and off the other benches'.
const PORTS = { stubs: 3940, service: 3941, twin: 3942 };
const STUBS = `http://127.0.0.1:${PORTS.stubs}`;
const ISSUER = 'http://idp.bench/realms/wifi';
const MEMBER = 'gold@demo.example';
const NAS = 'bench-nas';
const MAC = '02-00-00-00-be-01';

const tmp = mkdtempSync(join(tmpdir(), 'wifi-bench-overhead-'));
delete process.env.DATABASE_URL;

// --- The peers' fixed answers. ---
const { publicKey, privateKey } = await generateKeyPair('RS256');
const kid = `bench-${randomUUID().slice(0, 8)}`;
const keySet = { keys: [{ ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' }] };
const subjectId = randomUUID();
const token = await new SignJWT({ user_type: 'CUSTOMER', email: MEMBER, email_verified: true, preferred_username: MEMBER })
  .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
  .setSubject(subjectId)
  .setIssuer(ISSUER)
  .setAudience(['account', 'wifi-portal-api'])
  .setIssuedAt()
  .setExpirationTime('2h')
  .sign(privateKey);
const member = { found: true, memberRef: 'LOY-G-0001', tier: 'GOLD', status: 'ACTIVE', wifiBenefit: true };
// What the entitlement service sends the decision service for that member, and the real answer.
const decisionBody = {
  decision: 'Entitlement',
  inputs: { userType: 'CUSTOMER', employeeVerified: null, company: null, memberTier: 'GOLD', wifiBenefit: true, wifiEligible: null },
};
const runtime = await loadDirectory('dmn/models');
if (!runtime.ok) throw new Error(runtime.message);
const decided = evaluate(runtime.runtime.models.get('WifiEntitlement')!.model, decisionBody.inputs, decisionBody.decision);
if (!decided.ok) throw new Error('the decision model did not evaluate');
const decisionAnswer = {
  model: 'WifiEntitlement',
  results: decided.results,
  correlationId: 'corr-00000000-0000-4000-8000-000000000000',
  timestamp: new Date().toISOString(),
};

// --- The gateway's world: one NAS, one device, one granted session (answered by the stub). ---
const gatewayDefaults = GatewayConfig.parse({});
const gatewaysFile = join(tmp, 'gateways.json');
writeFileSync(
  gatewaysFile,
  JSON.stringify({
    gateways: [
      {
        nasId: NAS,
        profile: 'coovachilli',
        address: '127.0.0.1',
        secret: createSealer(gatewayDefaults.GATEWAY_SEAL_KEY).seal('bench-nas-secret'),
        coaPort: 3799,
        uamSecret: createSealer(gatewayDefaults.GATEWAY_SEAL_KEY).seal('bench-uam-secret'),
        macAuthentication: true,
        loginUrls: ['http://10.1.0.1:3990/logon'],
      },
    ],
  }),
);
const deviceRef = deviceRefFor(gatewayDefaults.DEVICE_REF_KEY, NAS, MAC)!;
const sessionView = (sessionId: string) => ({
  sessionId,
  subjectId: randomUUID(),
  deviceRef,
  state: 'GRANTED',
  entitlementId: `ent-${randomUUID()}`,
  entitlementType: 'LOYALTY',
  tier: 'BASIC',
  qosClass: 'STANDARD',
  grantedAt: new Date().toISOString(),
  expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
  revokedAt: null,
  createdAt: new Date().toISOString(),
  updatedAt: new Date().toISOString(),
  replayed: false,
});

// The portal's peers: Keycloak's token endpoint answering that customer's token, the entitlement
// service its entitlement, the session service a created and then a granted session.
const tokenAnswer = { access_token: token, refresh_token: `refresh-${randomUUID()}`, token_type: 'Bearer', expires_in: 7200, scope: 'openid email profile' };
const entitlementAnswer = () => {
  const at = new Date();
  return {
    entitlementId: `ent-${randomUUID()}`,
    subjectId,
    sessionId: null,
    eligible: true,
    entitlementType: 'LOYALTY',
    status: 'ACTIVE',
    validFrom: at.toISOString(),
    validUntil: new Date(at.getTime() + 3_600_000).toISOString(),
    permission: { tier: 'BOOST', qosClass: 'HIGH', deviceSlots: 3, sourceType: 'LOYALTY_TIER', sourceRef: member.memberRef },
    issuedAt: at.toISOString(),
    replayed: false,
  };
};
const createdView = () => ({
  ...sessionView(`sess-${randomUUID()}`),
  subjectId,
  deviceRef: null,
  state: 'CREATED',
  entitlementId: null,
  entitlementType: null,
  tier: null,
  qosClass: null,
  grantedAt: null,
  expiresAt: null,
});

/** Every peer of every case, on one port: key set, token endpoint, loyalty, decision, entitlement, session. */
const held = new Set<ServerResponse>();
const stubs: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
  const send = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  req.resume();
  req.on('end', () => {
    const path = req.url ?? '';
    if (path === '/certs' || path === '/realms/wifi/protocol/openid-connect/certs') return send(200, keySet);
    if (path === '/realms/wifi/protocol/openid-connect/token') return send(200, tokenAnswer);
    if (path === '/api/v1/entitlements/evaluate') return send(201, entitlementAnswer());
    if (req.method === 'POST' && path === '/api/v1/sessions') return send(201, createdView());
    const grant = /^\/api\/v1\/sessions\/([^/]+)\/grant$/.exec(path);
    if (grant !== null) return send(200, { ...sessionView(grant[1]!), subjectId, deviceRef: null });
    if (path === '/api/v1/members/lookup') return send(200, member);
    if (path.startsWith('/api/v1/decisions/')) return send(200, decisionAnswer);
    // The gateway's change-feed follower: held, as the session service holds a read with nothing to tell.
    if (path.startsWith('/api/v1/sessions/changes')) return void held.add(res);
    const revoke = /^\/api\/v1\/sessions\/([^/]+)\/revoke$/.exec(path);
    if (revoke !== null) return send(200, { ...sessionView(revoke[1]!), state: 'REVOKED' });
    const read = /^\/api\/v1\/sessions\/([^/?]+)$/.exec(path);
    if (read !== null) return send(200, sessionView(read[1]!));
    send(404, { code: 'NOT_FOUND' });
  });
});
await new Promise<void>((resolve) => stubs.listen(PORTS.stubs, '127.0.0.1', () => resolve()));

// --- The load. ---
interface Step {
  method: 'POST' | 'GET';
  path: string;
  headers?: Record<string, string>;
  /** A fixed body, or one built per request from what the connection's earlier answers left in `context`. */
  body?: unknown;
  build?: (context: Record<string, unknown>) => { path?: string; headers?: Record<string, string>; body: unknown };
  /** Keeps what a later step needs from this answer. */
  keep?: (body: unknown, context: Record<string, unknown>) => void;
  status: number;
}

interface Drive {
  requests: number;
  requestsPerSecond: number;
  /** Answers with another status than the step expects (must be 0). */
  unexpected: number;
  firstUnexpected: string | undefined;
  errors: number;
}

/** Autocannon at CONNECTIONS keep-alive connections for `seconds`, each connection going through the steps in turn. */
async function drive(base: string, steps: readonly Step[], seconds: number): Promise<Drive> {
  let unexpected = 0;
  let firstUnexpected: string | undefined;
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: seconds,
    requests: steps.map((step) => ({
      method: step.method,
      path: step.path,
      headers: { 'content-type': 'application/json', ...step.headers },
      body: step.body === undefined ? undefined : JSON.stringify(step.body),
      // autocannon calls a setupRequest key even when it holds undefined.
      ...(step.build === undefined
        ? {}
        : {
            setupRequest: (request: autocannon.Request, context: object) => {
              const built = step.build!(context as Record<string, unknown>);
              return { ...request, path: built.path ?? request.path, headers: { ...request.headers, ...built.headers }, body: JSON.stringify(built.body) };
            },
          }),
      onResponse: (status: number, body: string, context: object) => {
        if (status !== step.status) {
          unexpected += 1;
          firstUnexpected ??= `${step.method} ${step.path}: ${status} ${body.slice(0, 200)}`;
        } else step.keep?.(body === '' ? undefined : JSON.parse(body), context as Record<string, unknown>);
      },
    })),
  });
  return {
    requests: result.requests.total,
    requestsPerSecond: Math.round(result.requests.average),
    unexpected,
    firstUnexpected,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

interface Case {
  name: string;
  /** The service's entry and its settings; the twin gets the same settings with TWIN=<twin>. */
  service: string;
  twin: string;
  env: Record<string, string>;
  what: string;
  /** Set-up against one side (its base URL), before any load: what the steps need to exist. */
  prepare?: (base: string) => Promise<Record<string, string>>;
  steps: (prepared: Record<string, string>) => Step[];
  stateful?: boolean;
}

async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

const radiusKey = { 'X-API-Key': gatewayDefaults.RADIUS_API_KEY };
const attribute = (value: string | number, type = 'string') => ({ type, value: [value] });
const gatewayEnv = { GATEWAYS_FILE: gatewaysFile, SESSION_URL: STUBS };
/** A credential used once by the device, so the session is live at the NAS (both sides alike). */
async function usedCredential(base: string): Promise<Record<string, string>> {
  const sessionId = `sess-${randomUUID()}`;
  const issued = await postJson(`${base}/api/v1/credentials`, { sessionId, deviceRef, nasId: NAS }, { 'X-API-Key': 'dev-gateway-tools-key' });
  if (issued.status !== 201) throw new Error(`credential not issued: ${issued.status} ${JSON.stringify(issued.body)}`);
  const accepted = await postJson(
    `${base}/radius/authorize?nas=${NAS}`,
    {
      'User-Name': attribute(String(issued.body['username'])),
      'User-Password': attribute(String(issued.body['password'])),
      'Calling-Station-Id': attribute(MAC),
    },
    radiusKey,
  );
  if (accepted.status !== 200) throw new Error(`credential not accepted: ${accepted.status} ${JSON.stringify(accepted.body)}`);
  return { sessionId };
}
const classOf = (sessionId: string) => attribute(`0x${Buffer.from(sessionId).toString('hex')}`, 'octets');
const accounting = (status: string, sessionId: string, acctSessionId: string, octetsIn: number) => ({
  'Acct-Status-Type': attribute(status, 'integer'),
  'Acct-Session-Id': attribute(acctSessionId),
  'User-Name': attribute(MAC),
  'Calling-Station-Id': attribute(MAC),
  'Framed-IP-Address': attribute('10.1.0.20', 'ipaddr'),
  Class: classOf(sessionId),
  'Acct-Input-Octets': attribute(octetsIn, 'integer'),
  'Acct-Output-Octets': attribute(octetsIn * 3, 'integer'),
  'Acct-Session-Time': attribute(60, 'integer'),
});

/** A live session whose connection started and stopped: its device may come back by MAC authentication (within the window after that Stop). */
async function stoppedConnection(base: string): Promise<Record<string, string>> {
  const { sessionId } = await usedCredential(base);
  for (const status of ['Start', 'Stop']) {
    const recorded = await postJson(`${base}/radius/accounting?nas=${NAS}`, accounting(status, sessionId!, 'bench-returning', 0), radiusKey);
    if (recorded.status !== 204) throw new Error(`accounting ${status} not recorded: ${recorded.status}`);
  }
  return { sessionId: sessionId! };
}

const cases: Case[] = [
  {
    name: 'decision',
    service: 'services/decision/main.ts',
    twin: 'decision',
    env: { DMN_DIR: 'dmn/models' },
    what: 'POST /api/v1/decisions/WifiEntitlement/evaluate {decision: Entitlement}, the inputs entitlement sends for a GOLD member',
    steps: () => [{ method: 'POST', path: '/api/v1/decisions/WifiEntitlement/evaluate', body: decisionBody, status: 200 }],
  },
  {
    name: 'loyalty',
    service: 'services/loyalty/main.ts',
    twin: 'loyalty',
    env: { LOYALTY_GLOBAL_LIMIT: '100000000' },
    what: "POST /api/v1/members/lookup (entitlement's key), a GOLD member",
    steps: () => [{ method: 'POST', path: '/api/v1/members/lookup', headers: { 'X-API-Key': 'dev-loyalty-key' }, body: { email: MEMBER }, status: 200 }],
  },
  {
    name: 'hr',
    service: 'services/hr/main.ts',
    twin: 'hr',
    env: { HR_GLOBAL_LIMIT: '100000000' },
    what: "POST /api/v1/employees/verify (Keycloak's key), an active eligible employee",
    steps: () => [
      {
        method: 'POST',
        path: '/api/v1/employees/verify',
        headers: { 'X-API-Key': 'dev-hr-key' },
        body: { employeeId: 'A-1001', citizenId: '079201001234' },
        status: 200,
      },
    ],
  },
  {
    name: 'entitlement',
    service: 'services/entitlement/main.ts',
    twin: 'entitlement',
    env: { IDP_ISSUER: ISSUER, IDP_JWKS_URL: `${STUBS}/certs`, DECISION_URL: STUBS, LOYALTY_URL: STUBS },
    what: 'POST /api/v1/entitlements/evaluate as the portal calls it per sign-in (RS256 customer token, {subjectId}, a new Idempotency-Key): token verify + key claimed + loyalty call + decision call + one stored entitlement settling the key',
    steps: () => [
      {
        method: 'POST',
        path: '/api/v1/entitlements/evaluate',
        headers: { authorization: `Bearer ${token}` },
        build: () => ({ headers: { 'Idempotency-Key': randomUUID() }, body: { subjectId } }),
        status: 201,
      },
    ],
    stateful: true,
  },
  {
    name: 'session',
    service: 'services/session/main.ts',
    twin: 'session',
    env: {},
    what: 'POST /api/v1/sessions (a new Idempotency-Key) then POST /api/v1/sessions/{id}/grant, as the portal calls them per sign-in (figures per request, the two averaged)',
    steps: () => [
      {
        method: 'POST',
        path: '/api/v1/sessions',
        headers: { 'X-API-Key': 'dev-session-tools-key' },
        build: () => ({ headers: { 'Idempotency-Key': randomUUID() }, body: { subjectId: randomUUID(), deviceRef: `dev-${randomUUID()}` } }),
        keep: (body, context) => void (context['sessionId'] = (body as { sessionId: string }).sessionId),
        status: 201,
      },
      {
        method: 'POST',
        path: '/api/v1/sessions',
        headers: { 'X-API-Key': 'dev-session-tools-key' },
        build: (context) => ({
          path: `/api/v1/sessions/${String(context['sessionId'])}/grant`,
          body: {
            entitlementId: `ent-${randomUUID()}`,
            entitlementType: 'LOYALTY',
            tier: 'BOOST',
            qosClass: 'HIGH',
            validUntil: new Date(Date.now() + 3_600_000).toISOString(),
            deviceSlots: 3,
          },
        }),
        status: 200,
      },
    ],
    stateful: true,
  },
  {
    name: 'portal',
    service: 'services/portal/main.ts',
    twin: 'portal',
    env: { IDP_URL: STUBS, IDP_PUBLIC_URL: ISSUER.replace(/\/realms\/wifi$/, ''), ENTITLEMENT_URL: STUBS, SESSION_URL: STUBS },
    what: 'POST /api/v1/auth/login, a customer sign-in without a gateway: password grant at the token endpoint, token check (RS256, key set fetched once), entitlement, session create and grant, the portal session row with its sealed tokens, cookie sid',
    // The sign-in must come from the portal's own origin: each side is asked at its own address.
    prepare: async (base) => ({ origin: base }),
    steps: ({ origin }) => [
      { method: 'POST', path: '/api/v1/auth/login', headers: { origin: origin! }, body: { username: MEMBER, password: 'bench-pass-word' }, status: 200 },
    ],
    stateful: true,
  },
  {
    name: 'gateway-accounting',
    service: 'services/gateway/main.ts',
    twin: 'gateway',
    env: gatewayEnv,
    what: "POST /radius/accounting?nas=..., Interim-Update of a running connection (FreeRADIUS's rest call; the service answers it on its fast path)",
    async prepare(base) {
      const { sessionId } = await usedCredential(base);
      const acctSessionId = `acct-${randomUUID().slice(0, 8)}`;
      const start = await postJson(`${base}/radius/accounting?nas=${NAS}`, accounting('Start', sessionId!, acctSessionId, 0), radiusKey);
      if (start.status !== 204) throw new Error(`accounting Start: ${start.status}`);
      return { sessionId: sessionId!, acctSessionId };
    },
    steps: ({ sessionId, acctSessionId }) => {
      let octets = 0;
      return [
        {
          method: 'POST',
          path: `/radius/accounting?nas=${NAS}`,
          headers: radiusKey,
          build: () => ({ body: accounting('Interim-Update', sessionId!, acctSessionId!, (octets += 1000)) }),
          status: 204,
        },
      ];
    },
    stateful: true,
  },
  {
    name: 'gateway-authorize',
    service: 'services/gateway/main.ts',
    twin: 'gateway',
    env: gatewayEnv,
    what: 'POST /radius/authorize?nas=..., MAC authentication of a device with a live session (the Access-Request that repeats: one session read at the session service stub, one credential lookup)',
    prepare: stoppedConnection,
    steps: () => [
      {
        method: 'POST',
        path: `/radius/authorize?nas=${NAS}`,
        headers: radiusKey,
        body: { 'User-Name': attribute(MAC), 'User-Password': attribute(MAC), 'Calling-Station-Id': attribute(MAC) },
        status: 200,
      },
    ],
    stateful: true,
  },
];

interface Side {
  cpuUsPerRequest: number;
  rounds: { cpuUsPerRequest: number; requests: number; requestsPerSecond: number }[];
}

async function measure(server: ServerProcess, steps: Step[]): Promise<Side['rounds'][number]> {
  const meter = cpuMeter({ server: server.child.pid! });
  const driven = await drive(server.url, steps, SECONDS);
  if (driven.unexpected > 0 || driven.errors > 0)
    throw new Error(`${server.name}: ${driven.unexpected} unexpected answers (first: ${driven.firstUnexpected}), ${driven.errors} errors`);
  return {
    cpuUsPerRequest: Math.round(meter.perOperation(driven.requests).server! * 1000),
    requests: driven.requests,
    requestsPerSecond: driven.requestsPerSecond,
  };
}

const results: Record<string, unknown>[] = [];
const load = { before: loadavg().map((value) => Math.round(value * 100) / 100) };
try {
  for (const which of cases) {
    if (ONLY.length > 0 && !ONLY.includes(which.name)) continue;
    const dirs = [mkdtempSync(join(tmp, 'service-')), mkdtempSync(join(tmp, 'twin-'))];
    const service = await startServer(which.service, PORTS.service, { ...which.env, DATA_DIR: dirs[0]! }, 120_000);
    const twin = await startServer('bench/servers/twins.ts', PORTS.twin, { ...which.env, TWIN: which.twin, DATA_DIR: dirs[1]! }, 120_000);
    try {
      const steps = { service: which.steps((await which.prepare?.(service.url)) ?? {}), twin: which.steps((await which.prepare?.(twin.url)) ?? {}) };
      // Warm: the JIT, the connection pools, the store's first pages.
      await drive(service.url, steps.service, 2);
      await drive(twin.url, steps.twin, 2);
      const sides = { service: [] as Side['rounds'], twin: [] as Side['rounds'] };
      for (let round = 0; round < ROUNDS; round++) {
        sides.service.push(await measure(service, steps.service));
        sides.twin.push(await measure(twin, steps.twin));
      }
      const best = (rounds: Side['rounds']) => Math.min(...rounds.map((r) => r.cpuUsPerRequest));
      const ratio = Math.round((best(sides.service) / best(sides.twin)) * 100) / 100;
      const row = {
        route: which.name,
        what: which.what,
        service: { cpuUsPerRequest: best(sides.service), rounds: sides.service },
        twin: { cpuUsPerRequest: best(sides.twin), rounds: sides.twin },
        ratio,
        met: ratio <= TARGET,
      };
      process.stdout.write(`${which.name}: service ${row.service.cpuUsPerRequest} us, twin ${row.twin.cpuUsPerRequest} us per request, ratio ${ratio}\n`);
      results.push(row);
    } finally {
      await Promise.all([service.stop(), twin.stop()]);
    }
  }
  const result = {
    benchmark: 'overhead',
    at: new Date().toISOString(),
    machine: machine(),
    loadAverage: { ...load, after: loadavg().map((value) => Math.round(value * 100) / 100) },
    method: `autocannon, ${CONNECTIONS} keep-alive connections, ${SECONDS} s per round after a 2 s warm-up, ${ROUNDS} alternating rounds per side, the lowest CPU per request of each side kept; CPU of the measured process from /proc; peers are stubs in the bench process answering fixed valid bodies; services compiled with SERVICE_NODE_FLAGS and LOG_LEVEL info, on PGlite in temp folders; twins: bench/servers/twins.ts (Express 5, express.json(), the same store statements, undici to the same stubs)`,
    target: { serviceToTwinAtMost: TARGET },
    routes: results,
    met: results.length > 0 && results.every((row) => row['met'] === true),
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n${writeResult('overhead', result)}\n`);
} finally {
  for (const res of held) res.destroy();
  stubs.closeAllConnections();
  await new Promise<void>((resolve) => stubs.close(() => resolve()));
  rmSync(tmp, { recursive: true, force: true });
}
