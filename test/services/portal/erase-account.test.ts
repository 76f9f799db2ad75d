import test from 'ava';
import { assertError } from '../../helpers/error-shape.js';
import { answer, bootPortal, cookieOf, defaultFakes, SUBJECT } from './portal-fakes.js';

// A person deletes their account from the signed-in page. Every test here erases the one test
// subject's portal sessions, which the file's tests share a database for: they run one at a time.
const BOB = { username: 'bob@example.com', password: 'bob-demo-pass' };
const CONFIRM = { confirm: true };
const ERASE_STEPS = /^(accounts\.(hold|remove)|gateway\.erase|session\.(erase|subject-sessions)|entitlement\.erase)/;

function withSessions() {
  const fakes = defaultFakes();
  const session = (sessionId: string) => ({
    sessionId,
    state: 'REVOKED',
    entitlementId: null,
    entitlementType: null,
    tier: null,
    qosClass: null,
    grantedAt: null,
    expiresAt: null,
    revokedAt: null,
    revokeReason: null,
    createdAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-20T10:00:00.000Z',
    events: [],
  });
  fakes.subjectSessions = (subjectId) => answer(200, { subjectId, sessions: [session('sess-one'), session('sess-two')] });
  return fakes;
}

test.serial('a confirmed deletion holds the account, erases every service part, removes the user and ends the sign-in in every browser', async (t) => {
  const portal = await bootPortal(t, withSessions());
  const cookie = cookieOf(await portal.post('/api/v1/auth/login', BOB));
  const elsewhere = cookieOf(await portal.post('/api/v1/auth/login', BOB));

  const reply = await portal.post('/api/v1/me/erase', CONFIRM, { cookie });

  t.is(reply.status, 200, reply.text);
  t.true(reply.body['erased']);
  t.deepEqual(
    portal.fakes.calls.filter((call) => ERASE_STEPS.test(call)),
    [
      `accounts.hold ${SUBJECT}`,
      `session.subject-sessions ${SUBJECT}`,
      'gateway.erase sess-one,sess-two',
      `session.erase ${SUBJECT}`,
      `entitlement.erase ${SUBJECT}`,
      `accounts.remove ${SUBJECT}`,
    ],
  );
  t.regex(reply.headers.getSetCookie().join(' '), /sid=;/, 'the cookie is cleared');
  t.is((await portal.db.query('SELECT 1 AS left FROM portal_sessions WHERE subject_id = $1', [SUBJECT])).length, 0, 'no portal session names the person');
  t.false((await portal.get('/api/v1/auth/session', { cookie: elsewhere })).body['authenticated'], 'the other browser is signed out too');
});

test.serial('a deletion must be confirmed and signed in, and comes from the portal page only', async (t) => {
  const portal = await bootPortal(t, withSessions());
  assertError(t, await portal.post('/api/v1/me/erase', CONFIRM), 401, 'UNAUTHORIZED');
  const cookie = cookieOf(await portal.post('/api/v1/auth/login', BOB));
  assertError(t, await portal.post('/api/v1/me/erase', {}, { cookie }), 400, 'INVALID_REQUEST');
  assertError(t, await portal.post('/api/v1/me/erase', { confirm: 'yes' }, { cookie }), 400, 'INVALID_REQUEST');
  assertError(t, await portal.post('/api/v1/me/erase', CONFIRM, { cookie, origin: 'https://evil.example' }), 403, 'FORBIDDEN');
  t.deepEqual(
    portal.fakes.calls.filter((call) => ERASE_STEPS.test(call)),
    [],
    'nothing was erased',
  );
  t.true((await portal.get('/api/v1/auth/session', { cookie })).body['authenticated']);
});

test.serial("an imported employee's account is left to its company's HR, whether the sign-in or Keycloak says so", async (t) => {
  const byClaims = defaultFakes();
  byClaims.userType = 'EMPLOYEE';
  const portal = await bootPortal(t, byClaims);
  const cookie = cookieOf(await portal.post('/api/v1/auth/login', BOB));
  assertError(t, await portal.post('/api/v1/me/erase', CONFIRM, { cookie }), 403, 'ACCOUNT_MANAGED_BY_EMPLOYER');
  t.deepEqual(
    portal.fakes.calls.filter((call) => ERASE_STEPS.test(call)),
    [],
  );

  const byAttributes = defaultFakes();
  byAttributes.hold = { kind: 'employee' };
  const second = await bootPortal(t, byAttributes);
  const other = cookieOf(await second.post('/api/v1/auth/login', BOB));
  assertError(t, await second.post('/api/v1/me/erase', CONFIRM, { cookie: other }), 403, 'ACCOUNT_MANAGED_BY_EMPLOYER');
  t.deepEqual(
    second.fakes.calls.filter((call) => ERASE_STEPS.test(call)),
    [`accounts.hold ${SUBJECT}`],
    'nothing erased, the account not held',
  );
  t.true((await second.get('/api/v1/auth/session', { cookie: other })).body['authenticated']);
});

test.serial('a step that fails leaves the account held and the sign-in open, and the same request then completes the deletion', async (t) => {
  const fakes = withSessions();
  const portal = await bootPortal(t, fakes);
  const cookie = cookieOf(await portal.post('/api/v1/auth/login', BOB));
  for (const step of ['eraseConnections', 'eraseSessions', 'eraseEntitlements'] as const) {
    fakes[step] = { kind: 'unreachable' };
    assertError(t, await portal.post('/api/v1/me/erase', CONFIRM, { cookie }), 502, 'UPSTREAM_UNAVAILABLE');
    t.false(fakes.calls.includes(`accounts.remove ${SUBJECT}`), `${step}: the user stays until every service erased`);
    fakes[step] = answer(200, {});
  }
  fakes.removed = false;
  assertError(t, await portal.post('/api/v1/me/erase', CONFIRM, { cookie }), 502, 'UPSTREAM_UNAVAILABLE');
  t.true((await portal.get('/api/v1/auth/session', { cookie })).body['authenticated'], 'the person can retry');

  // An earlier attempt removed the Keycloak user already: the rest still completes.
  fakes.removed = true;
  fakes.hold = { kind: 'gone' };
  const done = await portal.post('/api/v1/me/erase', CONFIRM, { cookie });
  t.is(done.status, 200, done.text);
  t.is((await portal.db.query('SELECT 1 AS left FROM portal_sessions WHERE subject_id = $1', [SUBJECT])).length, 0);
});

test.serial('Keycloak unreachable before anything is erased is a 502 and erases nothing', async (t) => {
  const fakes = withSessions();
  fakes.hold = { kind: 'unreachable' };
  const portal = await bootPortal(t, fakes);
  const cookie = cookieOf(await portal.post('/api/v1/auth/login', BOB));
  assertError(t, await portal.post('/api/v1/me/erase', CONFIRM, { cookie }), 502, 'UPSTREAM_UNAVAILABLE');
  t.deepEqual(
    fakes.calls.filter((call) => ERASE_STEPS.test(call)),
    [`accounts.hold ${SUBJECT}`],
  );
});

test.serial("a voucher's account is the venue's: its guest cannot delete it, whether the sign-in or Keycloak says so", async (t) => {
  const byClaims = defaultFakes();
  byClaims.userType = 'VOUCHER';
  const portal = await bootPortal(t, byClaims);
  const cookie = cookieOf(await portal.post('/api/v1/auth/login', BOB));
  assertError(t, await portal.post('/api/v1/me/erase', CONFIRM, { cookie }), 403, 'ACCOUNT_MANAGED_BY_VENUE');
  t.deepEqual(
    portal.fakes.calls.filter((call) => ERASE_STEPS.test(call)),
    [],
  );

  const byAttributes = defaultFakes();
  byAttributes.hold = { kind: 'voucher' };
  const second = await bootPortal(t, byAttributes);
  const other = cookieOf(await second.post('/api/v1/auth/login', BOB));
  assertError(t, await second.post('/api/v1/me/erase', CONFIRM, { cookie: other }), 403, 'ACCOUNT_MANAGED_BY_VENUE');
  t.deepEqual(
    second.fakes.calls.filter((call) => ERASE_STEPS.test(call)),
    [`accounts.hold ${SUBJECT}`],
    'nothing erased',
  );
});
