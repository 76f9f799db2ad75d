import test from 'ava';
import type { OpenApiDocument } from '../../helpers/openapi-check.js';
import { responseProblem } from '../../helpers/openapi-check.js';
import { assertError } from '../../helpers/error-shape.js';
import { answer, bootPortal, defaultFakes, entitlementBody } from './portal-fakes.js';

// A sign-in whose person has nothing left of the period's allowance is refused by the portal
// itself, before any network session or gateway hand-off: 403 ALLOWANCE_USED_UP naming the
// renewal, the Keycloak session just made ended, nothing granted, no portal session.
const RENEWS = '2026-11-28T00:00:00.000Z';
const DAILY = { dataBytes: 1_000_000_000, timeSeconds: 7200, period: 'DAY' };

function withAllowance(left: { bytesRemaining: number | null; secondsRemaining: number | null }) {
  const fakes = defaultFakes();
  const entitlement = entitlementBody();
  fakes.evaluate = answer(201, { ...entitlement, permission: { ...(entitlement['permission'] as object), allowance: DAILY } });
  fakes.allowanceLeft = answer(200, { ...left, renewsAt: RENEWS });
  return fakes;
}

const SIGN_INS: Array<[string, string, Record<string, unknown>]> = [
  ['password', '/api/v1/auth/login', { username: 'bob@example.com', password: 'bob-demo-pass' }],
  ['register', '/api/v1/auth/register', { email: 'new@example.com', password: 'a-long-password' }],
  ['employee', '/api/v1/auth/employee', { employeeId: 'A-1001', citizenId: '079201001234' }],
  ['phone', '/api/v1/auth/phone', { phone: '0912345678', code: '482913' }],
  ['voucher', '/api/v1/auth/voucher', { code: 'ABCD-2345-EFGH' }],
];

for (const [kind, path, body] of SIGN_INS) {
  test.serial(
    `a ${kind} sign-in with no data left is 403 ALLOWANCE_USED_UP naming the renewal, as the OpenAPI document declares; nothing is created`,
    async (t) => {
      const portal = await bootPortal(t, withAllowance({ bytesRemaining: 0, secondsRemaining: 3600 }));
      const reply = await portal.post(path, body);
      assertError(t, reply, 403, 'ALLOWANCE_USED_UP');
      t.is(reply.body['renewsAt'], RENEWS);
      const document = (await portal.get('/openapi.json')).body as unknown as OpenApiDocument;
      t.is(responseProblem(document, 'POST', path, 403, reply.body), undefined);
      t.true(portal.fakes.calls.includes('session.allowance-left'));
      t.false(portal.fakes.calls.includes('session.create'), 'no network session is made');
      t.false(
        portal.fakes.calls.some((call) => call.startsWith('gateway.')),
        'no device is handed to a controller',
      );
      t.true(portal.fakes.calls.includes('idp.logout'), 'the Keycloak session just made is ended');
      t.false(reply.headers.getSetCookie().join(';').includes('sid='), 'no portal session');
    },
  );
}

test.serial('no time left is refused the same way', async (t) => {
  const portal = await bootPortal(t, withAllowance({ bytesRemaining: null, secondsRemaining: 0 }));
  const reply = await portal.post('/api/v1/auth/login', { username: 'bob@example.com', password: 'bob-demo-pass' });
  assertError(t, reply, 403, 'ALLOWANCE_USED_UP');
  t.is(reply.body['renewsAt'], RENEWS);
});

test.serial('something left (or no limit on the part used up) signs in as before', async (t) => {
  for (const left of [
    { bytesRemaining: 1, secondsRemaining: 1 },
    { bytesRemaining: null, secondsRemaining: 60 },
  ]) {
    const portal = await bootPortal(t, withAllowance(left));
    const reply = await portal.post('/api/v1/auth/login', { username: 'bob@example.com', password: 'bob-demo-pass' });
    t.is(reply.status, 200, reply.text);
    t.deepEqual(portal.fakes.calls, ['idp.password bob@example.com', 'entitlement.evaluate', 'session.allowance-left', 'session.create', 'session.grant']);
  }
});

test.serial('an entitlement without an allowance asks nothing of the counters', async (t) => {
  const portal = await bootPortal(t);
  const reply = await portal.post('/api/v1/auth/login', { username: 'bob@example.com', password: 'bob-demo-pass' });
  t.is(reply.status, 200, reply.text);
  t.false(portal.fakes.calls.includes('session.allowance-left'));
});

test.serial('counters that cannot be read are 502 and nothing granted (fail closed)', async (t) => {
  for (const failed of [
    { kind: 'unreachable', failure: 'timeout' } as const,
    answer(500, { code: 'INTERNAL_ERROR' }),
    answer(200, { bytesRemaining: 'lots' }),
  ]) {
    const fakes = withAllowance({ bytesRemaining: 1, secondsRemaining: 1 });
    fakes.allowanceLeft = failed;
    const portal = await bootPortal(t, fakes);
    assertError(t, await portal.post('/api/v1/auth/login', { username: 'bob@example.com', password: 'bob-demo-pass' }), 502, 'UPSTREAM_UNAVAILABLE');
    t.false(portal.fakes.calls.includes('session.create'));
    t.true(portal.fakes.calls.includes('idp.logout'));
  }
});
