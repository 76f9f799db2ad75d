import test from 'ava';
import type { GrantOutcome } from '../../../services/portal/idp-client.js';
import { assertError } from '../../helpers/error-shape.js';
import { bootPortal, defaultFakes } from './portal-fakes.js';

// Serial: the portal's fakes share one database per boot and count calls.
const PHONE = '0912 345 678';
const CODE_SENT: GrantOutcome = { kind: 'refused', error: 'code_sent', status: 401, description: 'CODE_SENT', seconds: { expires_in: 300, resend_after: 60 } };
const refused = (error: string, status: number): GrantOutcome => ({ kind: 'refused', error, status, description: error.toUpperCase() });

function phonePortal(t: Parameters<typeof bootPortal>[0], phoneGrant: (fields: { phone: string; code?: string }) => GrantOutcome) {
  const fakes = defaultFakes();
  const seen: Array<{ phone: string; code?: string }> = [];
  fakes.phoneGrant = async (fields) => {
    seen.push(fields);
    return fields.code === undefined ? phoneGrant(fields) : phoneGrant(fields);
  };
  return bootPortal(t, fakes).then((portal) => ({ portal, seen }));
}

test.serial('a code request answers 202 with the lifetime and the resend gap, the number sent to the identity provider in E.164', async (t) => {
  const { portal, seen } = await phonePortal(t, () => CODE_SENT);
  const reply = await portal.post('/api/v1/auth/phone/code', { phone: PHONE });
  t.is(reply.status, 202, reply.text);
  t.deepEqual(reply.body, { sent: true, expiresInSeconds: 300, resendAfterSeconds: 60, correlationId: reply.headers.get('x-correlation-id') });
  t.deepEqual(seen, [{ phone: '+84912345678' }]);
  t.deepEqual(portal.fakes.calls, ['idp.phone code-request'], 'nothing else is asked');
});

test.serial('a malformed number or code is 400 before any call', async (t) => {
  const { portal } = await phonePortal(t, () => CODE_SENT);
  for (const phone of ['', '12345', '0212345678', '09l2345678', '+84 91234567', 123456789]) {
    assertError(t, await portal.post('/api/v1/auth/phone/code', { phone }), 400, 'INVALID_REQUEST');
  }
  for (const code of ['12345', '12 345', 'abcdef', '1234567', 123456]) {
    assertError(t, await portal.post('/api/v1/auth/phone', { phone: PHONE, code }), 400, 'INVALID_REQUEST');
  }
  assertError(t, await portal.post('/api/v1/auth/phone/code', { phone: PHONE, extra: 1 }), 400, 'INVALID_REQUEST');
  t.deepEqual(portal.fakes.calls, []);
});

test.serial('the identity provider’s limits are 429, a failed SMS is 503, an outage 502', async (t) => {
  for (const [outcome, status, code] of [
    [refused('rate_limited', 429), 429, 'RATE_LIMITED'],
    [refused('sms_unavailable', 503), 503, 'SERVICE_UNAVAILABLE'],
    [refused('authenticator_misconfigured', 503), 502, 'UPSTREAM_UNAVAILABLE'],
    [{ kind: 'unreachable', failure: 'timeout' } as GrantOutcome, 502, 'UPSTREAM_UNAVAILABLE'],
    [refused('invalid_request', 400), 400, 'INVALID_REQUEST'],
  ] as const) {
    const { portal } = await phonePortal(t, () => outcome);
    assertError(t, await portal.post('/api/v1/auth/phone/code', { phone: PHONE }), status, code);
  }
});

test.serial('a grant that hands out tokens without a code is never a sign-in: logged out, 502', async (t) => {
  const { portal } = await phonePortal(t, () => defaultFakes().grant);
  assertError(t, await portal.post('/api/v1/auth/phone/code', { phone: PHONE }), 502, 'UPSTREAM_UNAVAILABLE');
  t.deepEqual(portal.fakes.calls, ['idp.phone code-request', 'idp.logout']);
});

test.serial('the right code signs in exactly as a password sign-in: entitlement, network session, one PortalSession, a sid cookie', async (t) => {
  const { portal, seen } = await phonePortal(t, (fields) => (fields.code === '482913' ? defaultFakes().grant : refused('invalid_grant', 401)));
  const reply = await portal.post('/api/v1/auth/phone', { phone: '+84 912 345 678', code: '482913' });
  t.is(reply.status, 200, reply.text);
  t.like(reply.body, { authenticated: true, client: 'wifi-portal-phone-api' });
  t.like(reply.body['session'] as object, { state: 'GRANTED' });
  t.deepEqual(portal.fakes.calls, ['idp.phone sign-in', 'entitlement.evaluate', 'session.create', 'session.grant']);
  t.deepEqual(seen, [{ phone: '+84912345678', code: '482913' }]);
  t.regex(reply.headers.getSetCookie().join(';'), /sid=/);
});

test.serial('wrong, expired, used and exhausted codes are one identical 401', async (t) => {
  const { portal } = await phonePortal(t, () => refused('invalid_grant', 401));
  const bodies = [];
  for (const code of ['000000', '111111']) {
    const reply = await portal.post('/api/v1/auth/phone', { phone: PHONE, code });
    assertError(t, reply, 401, 'INVALID_CREDENTIALS');
    const { correlationId: _c, timestamp: _t, ...rest } = reply.body;
    bodies.push(rest);
  }
  t.deepEqual(bodies[0], bodies[1]);
  t.false(portal.fakes.calls.includes('entitlement.evaluate'));
});

test.serial('the portal log never holds the number or the code', async (t) => {
  const { portal } = await phonePortal(t, (fields) => (fields.code === undefined ? CODE_SENT : refused('invalid_grant', 401)));
  await portal.post('/api/v1/auth/phone/code', { phone: PHONE });
  await portal.post('/api/v1/auth/phone', { phone: PHONE, code: '482913' });
  await portal.post('/api/v1/auth/phone/code', { phone: '09l2345678' });
  const log = portal.lines.join('\n');
  t.true(log.length > 0);
  for (const secret of ['912 345 678', '912345678', '482913', '09l2345678']) t.false(log.includes(secret), secret);
});
