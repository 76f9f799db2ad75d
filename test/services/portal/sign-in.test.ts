import test from 'ava';

// Serial: tests count rows of the one shared portal database.
import { assertError } from '../../helpers/error-shape.js';
import { ACCESS_TOKEN, answer, bootPortal, cookieOf, defaultFakes, entitlementBody, REFRESH_TOKEN, SUBJECT } from './portal-fakes.js';

const BOB = { username: 'bob@example.com', password: 'bob-demo-pass' };

test.serial('login answers one PortalSession with claims, entitlement and a GRANTED session, in that order of calls', async (t) => {
  const portal = await bootPortal(t);
  const reply = await portal.post('/api/v1/auth/login', BOB);
  t.is(reply.status, 200, reply.text);
  t.like(reply.body, { authenticated: true, client: 'wifi-portal-api', correlationId: reply.headers.get('x-correlation-id') });
  t.like(reply.body['session'] as object, { state: 'GRANTED' });
  t.like(reply.body['entitlement'] as object, { entitlementType: 'WIFI_CUSTOMER_BASIC' });
  t.deepEqual(portal.fakes.calls, ['idp.password bob@example.com', 'entitlement.evaluate', 'session.create', 'session.grant']);
  t.false('rawAccessToken' in reply.body, 'no token without the demo flag');
  t.false(reply.text.includes(ACCESS_TOKEN));
});

test.serial(
  'the browser keeps one device handle: the did cookie (HttpOnly, SameSite=Strict, a year) names the deviceRef of every sign-in from it',
  async (t) => {
    const portal = await bootPortal(t);
    const first = await portal.post('/api/v1/auth/login', BOB);
    const did = cookieOf(first, 'did');
    t.regex(did, /^did=[0-9a-f-]{36}$/);
    t.regex(first.headers.getSetCookie().find((cookie) => cookie.startsWith('did=')) ?? '', /Max-Age=31536000;.*HttpOnly; SameSite=Strict/);
    portal.fakes.calls.length = 0;
    const again = await portal.post('/api/v1/auth/login', BOB, { cookie: `${cookieOf(first)}; ${did}` });
    t.is(cookieOf(again, 'did'), did, 'the same browser is the same device');
    t.deepEqual(portal.fakes.createdDevices.slice(-2), [`dev-${did.slice(4)}`, `dev-${did.slice(4)}`]);
    const elsewhere = await portal.post('/api/v1/auth/login', BOB, { cookie: 'did=not-a-handle' });
    t.not(cookieOf(elsewhere, 'did'), did);
    t.regex(cookieOf(elsewhere, 'did'), /^did=[0-9a-f-]{36}$/, 'a malformed handle is replaced');
  },
);

test.serial('the sid cookie is HttpOnly, SameSite=Strict, Path=/ and lives one hour; a new one on every sign-in', async (t) => {
  const portal = await bootPortal(t);
  const first = await portal.post('/api/v1/auth/login', BOB);
  const setCookie = first.headers.getSetCookie().find((cookie) => cookie.startsWith('sid=')) ?? '';
  t.regex(setCookie, /^sid=[A-Za-z0-9_-]{43};/);
  t.regex(setCookie, /Max-Age=3600/);
  t.regex(setCookie, /HttpOnly/);
  t.regex(setCookie, /SameSite=Strict/);
  t.regex(setCookie, /Path=\//);
  t.notRegex(setCookie, /Secure/, 'plain http on a laptop');
  const second = await portal.post('/api/v1/auth/login', BOB, { cookie: cookieOf(first) });
  t.not(cookieOf(second), cookieOf(first));
  t.is((await portal.get('/api/v1/auth/session', { cookie: cookieOf(first) })).body['authenticated'], false, 'the old sid no longer works');
});

test.serial('tokens are stored encrypted and the cookie only as a hash', async (t) => {
  const portal = await bootPortal(t);
  const reply = await portal.post('/api/v1/auth/login', BOB);
  const sid = cookieOf(reply).slice('sid='.length);
  const dump = JSON.stringify(await portal.db.query('SELECT * FROM portal_sessions'));
  t.true(dump.includes(SUBJECT), "the table holds this test's session");
  t.false(dump.includes(ACCESS_TOKEN));
  t.false(dump.includes(REFRESH_TOKEN));
  t.false(dump.includes(sid));
  t.true(dump.includes('v1.'), 'ciphertexts are there');
});

test.serial('the demo token-exposure flag adds rawAccessToken', async (t) => {
  const portal = await bootPortal(t, defaultFakes(), { EXPOSE_TOKEN: 'true' });
  const reply = await portal.post('/api/v1/auth/login', BOB);
  t.is(reply.body['rawAccessToken'], ACCESS_TOKEN);
  t.true((await portal.get('/api/v1/meta')).body['exposeToken'] as boolean);
});

test.serial('wrong password, unknown account and lockout answer one identical 401 body', async (t) => {
  const bodies: string[] = [];
  // Keycloak's refusals as its token endpoint words them: wrong password 401; unknown account
  // 400; a brute-force hold and a permanent lockout 400 with their own descriptions.
  const refusals = [
    { kind: 'refused', error: 'invalid_grant', status: 401, description: 'Invalid user credentials' },
    { kind: 'refused', error: 'invalid_grant', status: 400, description: 'Invalid user credentials' },
    { kind: 'refused', error: 'invalid_grant', status: 400, description: 'Account temporarily disabled' },
    { kind: 'refused', error: 'invalid_grant', status: 400, description: 'Account disabled' },
  ] as const;
  t.is(new Set(refusals.map((refusal) => JSON.stringify(refusal))).size, refusals.length, 'four different refusals');
  for (const refusal of refusals) {
    const fakes = defaultFakes();
    fakes.grant = refusal;
    const portal = await bootPortal(t, fakes);
    const reply = await portal.post('/api/v1/auth/login', BOB);
    assertError(t, reply, 401, 'INVALID_CREDENTIALS');
    t.deepEqual(portal.fakes.calls, ['idp.password bob@example.com'], 'nothing after a refusal');
    const { correlationId: _c, timestamp: _ts, ...rest } = reply.body;
    bodies.push(JSON.stringify(rest));
  }
  t.is(new Set(bodies).size, 1);
});

test.serial('a refused sign-in takes at least the configured floor', async (t) => {
  const fakes = defaultFakes();
  fakes.grant = { kind: 'refused', error: 'invalid_grant', status: 400 };
  const portal = await bootPortal(t, fakes, { LOGIN_FAILURE_FLOOR_MS: '300' });
  const started = performance.now();
  assertError(t, await portal.post('/api/v1/auth/login', BOB), 401, 'INVALID_CREDENTIALS');
  t.true(performance.now() - started >= 290);
});

test.serial('an identity provider answering 503 or 504 is 502 for a customer, never a wrong password', async (t) => {
  for (const status of [503, 504]) {
    const fakes = defaultFakes();
    fakes.grant = { kind: 'refused', error: 'temporarily_unavailable', status };
    const portal = await bootPortal(t, fakes);
    assertError(t, await portal.post('/api/v1/auth/login', BOB), 502, 'UPSTREAM_UNAVAILABLE');
    t.deepEqual(portal.fakes.calls, ['idp.password bob@example.com']);
  }
});

test.serial('an unreachable identity provider is 502 and nothing else is called', async (t) => {
  const fakes = defaultFakes();
  fakes.grant = { kind: 'unreachable' };
  const portal = await bootPortal(t, fakes);
  assertError(t, await portal.post('/api/v1/auth/login', BOB), 502, 'UPSTREAM_UNAVAILABLE');
  t.deepEqual(portal.fakes.calls, ['idp.password bob@example.com']);
});

test.serial('an entitlement denial is 403 with eligible:false and reason, and nothing is opened', async (t) => {
  const fakes = defaultFakes();
  fakes.evaluate = { kind: 'answer', status: 403, body: { code: 'ENTITLEMENT_DENIED', reason: 'UNKNOWN_USER_TYPE', eligible: false } };
  const portal = await bootPortal(t, fakes);
  const reply = await portal.post('/api/v1/auth/login', BOB);
  assertError(t, reply, 403, 'ENTITLEMENT_DENIED');
  t.like(reply.body, { reason: 'UNKNOWN_USER_TYPE', eligible: false });
  t.deepEqual(portal.fakes.calls, ['idp.password bob@example.com', 'entitlement.evaluate', 'idp.logout']);
  t.is(reply.headers.get('set-cookie'), null);
});

for (const [name, break_] of [
  [
    'entitlement unreachable',
    (f: ReturnType<typeof defaultFakes>) => {
      f.evaluate = { kind: 'unreachable' };
    },
  ],
  [
    'entitlement 503 DMN_UNAVAILABLE',
    (f: ReturnType<typeof defaultFakes>) => {
      f.evaluate = { kind: 'answer', status: 503, body: { code: 'DMN_UNAVAILABLE' } };
    },
  ],
] as const) {
  test.serial(`${name}: 502, the identity-provider session is logged out, no portal session`, async (t) => {
    const fakes = defaultFakes();
    break_(fakes);
    const portal = await bootPortal(t, fakes);
    const before = await portal.db.query('SELECT count(*)::int AS n FROM portal_sessions');
    const reply = await portal.post('/api/v1/auth/login', BOB);
    assertError(t, reply, 502, 'UPSTREAM_UNAVAILABLE');
    t.deepEqual(portal.fakes.calls, ['idp.password bob@example.com', 'entitlement.evaluate', 'idp.logout']);
    t.deepEqual(await portal.db.query('SELECT count(*)::int AS n FROM portal_sessions'), before);
  });
}

test.serial('session grant failing after the create: 502, the created session is revoked, the IdP session logged out', async (t) => {
  const fakes = defaultFakes();
  fakes.grantSession = { kind: 'unreachable' };
  const portal = await bootPortal(t, fakes);
  const before = await portal.db.query('SELECT count(*)::int AS n FROM portal_sessions');
  assertError(t, await portal.post('/api/v1/auth/login', BOB), 502, 'UPSTREAM_UNAVAILABLE');
  t.deepEqual(portal.fakes.calls, ['idp.password bob@example.com', 'entitlement.evaluate', 'session.create', 'session.grant', 'session.revoke', 'idp.logout']);
  t.deepEqual(await portal.db.query('SELECT count(*)::int AS n FROM portal_sessions'), before);
});

test.serial('session create unreachable: 502 and nothing to revoke', async (t) => {
  const fakes = defaultFakes();
  fakes.create = { kind: 'unreachable' };
  const portal = await bootPortal(t, fakes);
  assertError(t, await portal.post('/api/v1/auth/login', BOB), 502, 'UPSTREAM_UNAVAILABLE');
  t.deepEqual(portal.fakes.calls, ['idp.password bob@example.com', 'entitlement.evaluate', 'session.create', 'idp.logout']);
});

// Every 502 of a sign-in names, in the portal's log, the hop that failed and how (502s
// under load once could not be traced to a hop), with no person or token on the line.
const failedHop = (lines: string[]) =>
  lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line['msg'] === 'sign-in failed at an upstream; no access was granted');
for (const [name, break_, expected] of [
  [
    'identity provider timing out',
    (f: ReturnType<typeof defaultFakes>) => {
      f.grant = { kind: 'unreachable', failure: 'timeout' };
    },
    { upstream: 'identity provider', failure: 'timeout' },
  ],
  [
    'identity provider answering 500',
    (f: ReturnType<typeof defaultFakes>) => {
      f.grant = { kind: 'unreachable', status: 500 };
    },
    { upstream: 'identity provider', failure: 'unexpected-answer', status: 500 },
  ],
  [
    'entitlement unreachable',
    (f: ReturnType<typeof defaultFakes>) => {
      f.evaluate = { kind: 'unreachable', failure: 'unreachable' };
    },
    { upstream: 'entitlement service', failure: 'unreachable' },
  ],
  [
    'entitlement 503 DMN_UNAVAILABLE',
    (f: ReturnType<typeof defaultFakes>) => {
      f.evaluate = { kind: 'answer', status: 503, body: { code: 'DMN_UNAVAILABLE', message: 'bob@example.com' } };
    },
    { upstream: 'entitlement service', failure: 'unexpected-answer', status: 503, code: 'DMN_UNAVAILABLE' },
  ],
  [
    'session create answering what does not parse',
    (f: ReturnType<typeof defaultFakes>) => {
      f.create = { kind: 'answer', status: 201, body: { sessionId: 42 } };
    },
    { upstream: 'session service', failure: 'unexpected-answer', status: 201 },
  ],
  [
    'session grant timing out',
    (f: ReturnType<typeof defaultFakes>) => {
      f.grantSession = { kind: 'unreachable', failure: 'timeout' };
    },
    { upstream: 'session service', failure: 'timeout' },
  ],
  [
    'session grant answering 409 SESSION_EXPIRED',
    (f: ReturnType<typeof defaultFakes>) => {
      f.grantSession = { kind: 'answer', status: 409, body: { code: 'SESSION_EXPIRED' } };
    },
    { upstream: 'session service', failure: 'unexpected-answer', status: 409, code: 'SESSION_EXPIRED' },
  ],
] as const) {
  test.serial(`${name}: the 502 leaves one warn line naming the hop and how it failed`, async (t) => {
    const fakes = defaultFakes();
    break_(fakes);
    const portal = await bootPortal(t, fakes);
    const reply = await portal.post('/api/v1/auth/login', BOB);
    assertError(t, reply, 502, 'UPSTREAM_UNAVAILABLE');
    const lines = failedHop(portal.lines);
    t.is(lines.length, 1, portal.lines.join('\n'));
    const line = lines[0] ?? {};
    t.is(line['level'], 40, 'warn');
    t.is(line['correlationId'], reply.headers.get('x-correlation-id'));
    t.deepEqual(
      { upstream: line['upstream'], failure: line['failure'], status: line['status'], code: line['code'] },
      { status: undefined, code: undefined, ...expected },
    );
    t.false(JSON.stringify(line).includes('bob@example.com'), 'no user name, nor any free text of the answer');
    t.false(JSON.stringify(line).includes(ACCESS_TOKEN));
  });
}

test("the session is granted under the entitlement's allowance, or none when the entitlement has none", async (t) => {
  const allowance = { dataBytes: 2 ** 30, timeSeconds: 7200, period: 'DAY' };
  const fakes = defaultFakes();
  const entitlement = entitlementBody();
  fakes.evaluate = answer(201, { ...entitlement, permission: { ...(entitlement['permission'] as object), allowance } });
  const portal = await bootPortal(t, fakes);
  t.is((await portal.post('/api/v1/auth/login', BOB)).status, 200);
  t.like(fakes.grantBodies[0], { allowance });
  const without = defaultFakes();
  const other = await bootPortal(t, without);
  t.is((await other.post('/api/v1/auth/login', BOB)).status, 200);
  t.like(without.grantBodies[0], { allowance: null });
});
