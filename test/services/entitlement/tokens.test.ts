import test, { type ExecutionContext } from 'ava';
import { base64url, SignJWT } from 'jose';
import type { Database } from '../../../services/kit/store/index.js';
import { assertError } from '../../helpers/error-shape.js';
import { freePort } from '../../helpers/postgres-server.js';
import { bootEntitlement, customerClaims, decisionService, KeySet, openEntitlementDb } from './harness.js';

// Spec 5: signature (keys from the key set), issuer, audience, expiry; every failure is a 401,
// never a grant; an unknown key id forces one key-set refresh.
let db: Database;
let decision: { url: string; close(): Promise<void> };
test.before(async () => {
  db = await openEntitlementDb('memory');
  decision = await decisionService();
});
test.after.always(async () => {
  await db?.close();
  await decision?.close();
});

async function setup(t: ExecutionContext, env: Record<string, string> = {}) {
  const keys = await KeySet.start(t);
  const service = await bootEntitlement(t, db, { IDP_JWKS_URL: keys.url, DECISION_URL: decision.url, LOYALTY_URL: '', ...env });
  return { keys, service };
}

test('a valid token is accepted (positive control)', async (t) => {
  const { keys, service } = await setup(t);
  t.is((await service.evaluate(await keys.token(customerClaims()))).status, 201);
});

test('no token, a malformed header and garbage are 401 UNAUTHORIZED', async (t) => {
  const { service } = await setup(t);
  assertError(t, await service.evaluate(undefined), 401, 'UNAUTHORIZED');
  assertError(t, await service.evaluate(undefined, undefined, { authorization: 'Basic abc' }), 401, 'UNAUTHORIZED');
  assertError(t, await service.evaluate('not.a.jwt'), 401, 'UNAUTHORIZED');
});

test('wrong issuer, wrong audience and an expired token are 401', async (t) => {
  const { keys, service } = await setup(t);
  assertError(t, await service.evaluate(await keys.token(customerClaims(), { issuer: 'http://evil.test/realms/wifi' })), 401, 'UNAUTHORIZED');
  assertError(t, await service.evaluate(await keys.token(customerClaims(), { audience: 'some-other-client' })), 401, 'UNAUTHORIZED');
  assertError(t, await service.evaluate(await keys.token(customerClaims(), { expiresIn: Math.floor(Date.now() / 1000) - 60 })), 401, 'UNAUTHORIZED');
});

test('alg none and HS256 signed with the public key as secret are 401', async (t) => {
  const { keys, service } = await setup(t);
  const genuine = await keys.token(customerClaims());
  const [, payload] = genuine.split('.');
  const none = `${base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${payload}.`;
  assertError(t, await service.evaluate(none), 401, 'UNAUTHORIZED');
  const publicJwk = JSON.stringify(keys.current.jwk);
  const hs256 = await new SignJWT(JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as Record<string, unknown>)
    .setProtectedHeader({ alg: 'HS256', kid: keys.current.kid })
    .sign(new TextEncoder().encode(publicJwk));
  assertError(t, await service.evaluate(hs256), 401, 'UNAUTHORIZED');
});

test('a token signed with a rotated-in key is accepted after one forced key-set refresh', async (t) => {
  const { keys, service } = await setup(t);
  t.is((await service.evaluate(await keys.token(customerClaims()))).status, 201);
  const fetchesBefore = keys.server?.state.hits ?? 0;
  await keys.rotate();
  t.is((await service.evaluate(await keys.token(customerClaims()))).status, 201);
  t.is((keys.server?.state.hits ?? 0) - fetchesBefore, 1, 'exactly one refresh');
});

test('a token whose key id nobody published is 401 after one refresh', async (t) => {
  const { keys, service } = await setup(t);
  t.is((await service.evaluate(await keys.token(customerClaims()))).status, 201);
  const stranger = await KeySet.start(t);
  const fetchesBefore = keys.server?.state.hits ?? 0;
  assertError(t, await service.evaluate(await stranger.token(customerClaims())), 401, 'UNAUTHORIZED');
  t.is((keys.server?.state.hits ?? 0) - fetchesBefore, 1);
});

test('an unreachable key set is 401, never a grant', async (t) => {
  const keys = await KeySet.start(t);
  const service = await bootEntitlement(t, db, { IDP_JWKS_URL: `http://127.0.0.1:${await freePort()}/certs`, DECISION_URL: decision.url, LOYALTY_URL: '' });
  assertError(t, await service.evaluate(await keys.token(customerClaims())), 401, 'UNAUTHORIZED');
});
