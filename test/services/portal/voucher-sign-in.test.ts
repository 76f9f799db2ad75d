import test from 'ava';
import type { GrantOutcome } from '../../../services/portal/idp-client.js';
import { assertError } from '../../helpers/error-shape.js';
import { bootPortal, defaultFakes } from './portal-fakes.js';

// Serial: the portal's fakes share one database per boot and count calls.
const CODE = 'ABCD-2345-EFGH';
const refused = (error: string, status: number): GrantOutcome => ({ kind: 'refused', error, status, description: error.toUpperCase() });

function voucherPortal(t: Parameters<typeof bootPortal>[0], voucherGrant: (code: string) => GrantOutcome) {
  const fakes = defaultFakes();
  const seen: Array<{ code: string; clientAddress: string | undefined }> = [];
  fakes.voucherGrant = async (code, clientAddress) => {
    seen.push({ code, clientAddress });
    return voucherGrant(code);
  };
  return bootPortal(t, fakes).then((portal) => ({ portal, seen }));
}

test.serial('the right code signs in exactly as a password sign-in: entitlement, network session, one PortalSession, a sid cookie', async (t) => {
  const { portal, seen } = await voucherPortal(t, () => defaultFakes().grant);
  const reply = await portal.post('/api/v1/auth/voucher', { code: 'abcd 2345 efgh' });
  t.is(reply.status, 200, reply.text);
  t.like(reply.body, { authenticated: true, client: 'wifi-portal-voucher-api' });
  t.like(reply.body['session'] as object, { state: 'GRANTED' });
  t.deepEqual(portal.fakes.calls, ['idp.voucher', 'entitlement.evaluate', 'session.create', 'session.grant']);
  t.is(seen[0]?.code, 'abcd 2345 efgh', 'the code goes as typed: Keycloak normalises it');
  t.truthy(seen[0]?.clientAddress, "the client's address goes along for Keycloak's per-address limit");
  t.regex(reply.headers.getSetCookie().join(';'), /sid=/);
});

test.serial('wrong, expired, revoked and used-up codes are one identical 401, nothing granted', async (t) => {
  const { portal } = await voucherPortal(t, () => refused('invalid_grant', 401));
  const bodies = [];
  for (const code of [CODE, 'ZZZZ-2345-EFGH', 'not a code at all']) {
    const reply = await portal.post('/api/v1/auth/voucher', { code });
    assertError(t, reply, 401, 'INVALID_CREDENTIALS');
    const { correlationId: _c, timestamp: _t, ...rest } = reply.body;
    bodies.push(rest);
  }
  t.deepEqual(bodies[0], bodies[1]);
  t.deepEqual(bodies[1], bodies[2]);
  t.false(portal.fakes.calls.includes('entitlement.evaluate'));
});

test.serial("Keycloak's per-address limit is 429 RATE_LIMITED; a misconfigured authenticator or an outage 502", async (t) => {
  for (const [outcome, status, code] of [
    [refused('rate_limited', 429), 429, 'RATE_LIMITED'],
    [refused('authenticator_misconfigured', 503), 502, 'UPSTREAM_UNAVAILABLE'],
    [{ kind: 'unreachable', failure: 'timeout' } as GrantOutcome, 502, 'UPSTREAM_UNAVAILABLE'],
  ] as const) {
    const { portal } = await voucherPortal(t, () => outcome);
    assertError(t, await portal.post('/api/v1/auth/voucher', { code: CODE }), status, code);
  }
});

test.serial('no code, an empty or overlong one, a number or an extra field is 400 before any call', async (t) => {
  const { portal } = await voucherPortal(t, () => defaultFakes().grant);
  for (const body of [{}, { code: '' }, { code: '   ' }, { code: 'A'.repeat(65) }, { code: 123456789012 }, { code: CODE, extra: 1 }]) {
    assertError(t, await portal.post('/api/v1/auth/voucher', body), 400, 'INVALID_REQUEST');
  }
  t.deepEqual(portal.fakes.calls, []);
});

test.serial('the portal log never holds the code', async (t) => {
  const { portal } = await voucherPortal(t, () => refused('invalid_grant', 401));
  await portal.post('/api/v1/auth/voucher', { code: CODE });
  await portal.post('/api/v1/auth/voucher', { code: 'abcd2345efgh' });
  const log = portal.lines.join('\n');
  t.true(log.length > 0);
  for (const secret of [CODE, 'ABCD2345EFGH', 'abcd2345efgh']) t.false(log.includes(secret), secret);
});
