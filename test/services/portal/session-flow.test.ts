import test from 'ava';
import { assertError } from '../../helpers/error-shape.js';
import { sidHash } from '../../../services/portal/token-crypto.js';
import { bootPortal, cookieOf, defaultFakes, sessionBody } from './portal-fakes.js';

const BOB = { username: 'bob@example.com', password: 'bob-demo-pass' };

test('without a cookie the session read is {authenticated:false} with 200', async (t) => {
  const portal = await bootPortal(t);
  const reply = await portal.get('/api/v1/auth/session');
  t.is(reply.status, 200);
  t.deepEqual(reply.body, { authenticated: false, correlationId: reply.headers.get('x-correlation-id') });
  t.deepEqual(portal.fakes.calls, []);
});

test('the session read re-reads the network session, so a revocation elsewhere shows', async (t) => {
  const portal = await bootPortal(t);
  const cookie = cookieOf(await portal.post('/api/v1/auth/login', BOB));
  portal.fakes.sessionState = 'REVOKED';
  const reply = await portal.get('/api/v1/auth/session', { cookie });
  t.is(reply.status, 200);
  t.like(reply.body, { authenticated: true, session: { state: 'REVOKED' } });
  t.is(portal.fakes.calls.at(-1), 'session.read');
});

test('refresh uses the refresh token, re-reads the session and renews the cookie', async (t) => {
  const portal = await bootPortal(t);
  const cookie = cookieOf(await portal.post('/api/v1/auth/login', BOB));
  portal.fakes.calls.length = 0;
  const reply = await portal.post('/api/v1/auth/refresh', {}, { cookie });
  t.is(reply.status, 200, reply.text);
  t.like(reply.body, { authenticated: true });
  t.deepEqual(portal.fakes.calls, ['session.read', 'idp.refresh']);
  const renewed = cookieOf(reply);
  t.not(renewed, cookie);
  t.like((await portal.get('/api/v1/auth/session', { cookie: renewed })).body, { authenticated: true });
  t.like((await portal.get('/api/v1/auth/session', { cookie })).body, { authenticated: false });
});

test('refresh without a portal session is 401 UNAUTHORIZED', async (t) => {
  const portal = await bootPortal(t);
  assertError(t, await portal.post('/api/v1/auth/refresh', {}), 401, 'UNAUTHORIZED');
  assertError(t, await portal.post('/api/v1/auth/refresh', {}, { cookie: 'sid=forged' }), 401, 'UNAUTHORIZED');
});

test('a refresh the identity provider refuses ends the network session and the portal session', async (t) => {
  const fakes = defaultFakes();
  fakes.refresh = { kind: 'refused', error: 'invalid_grant', status: 400 };
  const portal = await bootPortal(t, fakes);
  const cookie = cookieOf(await portal.post('/api/v1/auth/login', BOB));
  portal.fakes.calls.length = 0;
  assertError(t, await portal.post('/api/v1/auth/refresh', {}, { cookie }), 401, 'UNAUTHORIZED');
  t.deepEqual(portal.fakes.calls, ['session.read', 'idp.refresh', 'session.revoke']);
  t.like((await portal.get('/api/v1/auth/session', { cookie })).body, { authenticated: false });
});

test('logout revokes the network session, then logs out at the IdP, then drops the portal session and the cookie', async (t) => {
  const portal = await bootPortal(t);
  const cookie = cookieOf(await portal.post('/api/v1/auth/login', BOB));
  portal.fakes.calls.length = 0;
  const reply = await portal.post('/api/v1/auth/logout', {}, { cookie });
  t.is(reply.status, 200);
  t.deepEqual(reply.body, { ok: true, correlationId: reply.headers.get('x-correlation-id') });
  t.deepEqual(portal.fakes.calls, ['session.revoke', 'idp.logout']);
  t.regex(reply.headers.get('set-cookie') ?? '', /^sid=;.*Expires=Thu, 01 Jan 1970/);
  t.like((await portal.get('/api/v1/auth/session', { cookie })).body, { authenticated: false });
});

test('a second sign-in in the same browser ends the first as a logout would: network session revoked, then IdP logout, old cookie signed out', async (t) => {
  const portal = await bootPortal(t);
  const first = cookieOf(await portal.post('/api/v1/auth/login', BOB));
  portal.fakes.calls.length = 0;
  const reply = await portal.post('/api/v1/auth/login', BOB, { cookie: first });
  t.is(reply.status, 200, reply.text);
  t.deepEqual(portal.fakes.calls, ['idp.password bob@example.com', 'entitlement.evaluate', 'session.create', 'session.grant', 'session.revoke', 'idp.logout']);
  t.like((await portal.get('/api/v1/auth/session', { cookie: first })).body, { authenticated: false });
  t.like((await portal.get('/api/v1/auth/session', { cookie: cookieOf(reply) })).body, { authenticated: true });
});

test('a second sign-in in the same browser ends the first also after the one-hour sid cookie expired (the psid cookie names it)', async (t) => {
  let clock = Date.now();
  const portal = await bootPortal(t, defaultFakes(), {}, () => new Date(clock));
  const first = await portal.post('/api/v1/auth/login', BOB);
  const [sid, previous] = [cookieOf(first), cookieOf(first, 'psid')];
  t.regex(first.headers.getSetCookie().find((cookie) => cookie.startsWith('psid=')) ?? '', /HttpOnly.*SameSite=Strict|SameSite=Strict.*HttpOnly/);
  clock += 61 * 60_000; // the browser has dropped `sid`; `psid` lives a day
  t.like((await portal.get('/api/v1/auth/session', { cookie: sid })).body, { authenticated: false }, 'an expired sid is no sign-in');
  t.like(
    (await portal.get('/api/v1/auth/session', { cookie: `sid=${previous.slice('psid='.length)}` })).body,
    { authenticated: false },
    'psid never acts as a sid',
  );
  portal.fakes.calls.length = 0;
  const second = await portal.post('/api/v1/auth/login', BOB, { cookie: previous });
  t.is(second.status, 200, second.text);
  t.deepEqual(portal.fakes.calls, ['idp.password bob@example.com', 'entitlement.evaluate', 'session.create', 'session.grant', 'session.revoke', 'idp.logout']);
  portal.fakes.calls.length = 0;
  t.is((await portal.post('/api/v1/auth/login', BOB, { cookie: previous })).status, 200);
  t.false(portal.fakes.calls.includes('session.revoke'), 'an ended sign-in is ended once');
});

test('a refused second sign-in leaves the first one as it was', async (t) => {
  const portal = await bootPortal(t);
  const first = cookieOf(await portal.post('/api/v1/auth/login', BOB));
  portal.fakes.grant = { kind: 'refused', error: 'invalid_grant', status: 401 };
  portal.fakes.calls.length = 0;
  assertError(t, await portal.post('/api/v1/auth/login', { ...BOB, password: 'wrong' }, { cookie: first }), 401, 'INVALID_CREDENTIALS');
  t.false(portal.fakes.calls.includes('session.revoke'));
  t.like((await portal.get('/api/v1/auth/session', { cookie: first })).body, { authenticated: true });
});

test('logout without a session, or from another site, is still 200 with ok:false and changes nothing', async (t) => {
  const portal = await bootPortal(t);
  t.like((await portal.post('/api/v1/auth/logout', {})).body, { ok: false });
  const cookie = cookieOf(await portal.post('/api/v1/auth/login', BOB));
  portal.fakes.calls.length = 0;
  const crossSite = await portal.post('/api/v1/auth/logout', {}, { cookie, origin: 'https://evil.example' });
  t.is(crossSite.status, 200);
  t.like(crossSite.body, { ok: false });
  t.deepEqual(portal.fakes.calls, []);
  t.like((await portal.get('/api/v1/auth/session', { cookie })).body, { authenticated: true });
});

test('refresh and logout have no body: a same-origin call without a content type works', async (t) => {
  const portal = await bootPortal(t);
  const cookie = cookieOf(await portal.post('/api/v1/auth/login', BOB));
  portal.fakes.calls.length = 0;
  const refreshed = await portal.request('POST', '/api/v1/auth/refresh', { headers: { cookie, origin: portal.url } });
  t.is(refreshed.status, 200, refreshed.text);
  const renewed = cookieOf(refreshed);
  const out = await portal.request('POST', '/api/v1/auth/logout', { headers: { cookie: renewed, 'sec-fetch-site': 'same-origin' } });
  t.is(out.status, 200);
  t.like(out.body, { ok: true });
  t.deepEqual(portal.fakes.calls, ['session.read', 'idp.refresh', 'session.revoke', 'idp.logout']);
  t.regex(out.headers.get('set-cookie') ?? '', /^sid=;/);
});

test('refresh from another site is 403 FORBIDDEN and changes nothing', async (t) => {
  const portal = await bootPortal(t);
  const cookie = cookieOf(await portal.post('/api/v1/auth/login', BOB));
  portal.fakes.calls.length = 0;
  assertError(t, await portal.request('POST', '/api/v1/auth/refresh', { headers: { cookie, origin: 'https://evil.example' } }), 403, 'FORBIDDEN');
  assertError(t, await portal.request('POST', '/api/v1/auth/refresh', { headers: { cookie, 'sec-fetch-site': 'cross-site' } }), 403, 'FORBIDDEN');
  t.deepEqual(portal.fakes.calls, []);
});

test('when the session service cannot be reached, the session read answers the network session as last read', async (t) => {
  const portal = await bootPortal(t);
  const login = await portal.post('/api/v1/auth/login', BOB);
  const cookie = cookieOf(login);
  portal.fakes.read = { kind: 'unreachable' };
  const offline = await portal.get('/api/v1/auth/session', { cookie });
  t.is(offline.status, 200);
  t.like(offline.body, { authenticated: true });
  t.deepEqual(offline.body['session'], login.body['session'], 'the session the sign-in granted');
  portal.fakes.read = null;
  const online = await portal.get('/api/v1/auth/session', { cookie });
  portal.fakes.read = { kind: 'answer', status: 503, body: { code: 'INTERNAL_ERROR' } };
  const again = await portal.get('/api/v1/auth/session', { cookie });
  t.deepEqual(again.body['session'], online.body['session'], 'the session as last read');
  t.not((online.body['session'] as Record<string, unknown>)['expiresAt'], (login.body['session'] as Record<string, unknown>)['expiresAt']);
});

test('a last-read GRANTED session past its expiry reads EXPIRED while the session service is unreachable', async (t) => {
  const fakes = defaultFakes();
  fakes.grantSession = { kind: 'answer', status: 200, body: sessionBody({ expiresAt: new Date(Date.now() - 1000).toISOString() }) };
  const portal = await bootPortal(t, fakes);
  const cookie = cookieOf(await portal.post('/api/v1/auth/login', BOB));
  portal.fakes.read = { kind: 'unreachable' };
  t.like((await portal.get('/api/v1/auth/session', { cookie })).body, { authenticated: true, session: { state: 'EXPIRED' } });
});

test('a network session the session service does not know ends the sign-in', async (t) => {
  const portal = await bootPortal(t);
  const cookie = cookieOf(await portal.post('/api/v1/auth/login', BOB));
  portal.fakes.read = { kind: 'answer', status: 404, body: { code: 'NOT_FOUND' } };
  t.like((await portal.get('/api/v1/auth/session', { cookie })).body, { authenticated: false });
  portal.fakes.read = null;
  t.like((await portal.get('/api/v1/auth/session', { cookie })).body, { authenticated: false }, 'the portal session was dropped');
});

test('a portal session sealed under another token key reads as signed out and is removed; logout is still 200', async (t) => {
  const before = await bootPortal(t);
  const cookie = cookieOf(await before.post('/api/v1/auth/login', BOB));
  const after = await bootPortal(t, defaultFakes(), { PORTAL_TOKEN_KEY: Buffer.alloc(32, 7).toString('base64') });
  const rowsOfThisSid = async () => (await after.db.query('SELECT 1 FROM portal_sessions WHERE sid_hash = $1', [sidHash(cookie.slice('sid='.length))])).length;
  t.is(await rowsOfThisSid(), 1);
  const read = await after.get('/api/v1/auth/session', { cookie });
  t.is(read.status, 200);
  t.like(read.body, { authenticated: false });
  t.is(await rowsOfThisSid(), 0);
  const out = await after.post('/api/v1/auth/logout', {}, { cookie });
  t.is(out.status, 200);
  t.like(out.body, { ok: false });
});

test('meta answers flight, idp, mode api and exposeToken', async (t) => {
  const portal = await bootPortal(t);
  const reply = await portal.get('/api/v1/meta');
  t.deepEqual(reply.body, { flight: 'poc', idp: 'http://localhost:8080/realms/wifi', mode: 'api', exposeToken: false });
});

test("the captive API says captive until the caller's session is GRANTED, then the seconds remaining", async (t) => {
  const portal = await bootPortal(t);
  const before = await portal.get('/api/captive');
  t.is(before.headers.get('content-type'), 'application/captive+json; charset=utf-8');
  t.is(before.headers.get('cache-control'), 'private');
  t.deepEqual(before.body, { captive: true, 'user-portal-url': 'http://localhost:3000' });
  const cookie = cookieOf(await portal.post('/api/v1/auth/login', BOB));
  const after = await portal.get('/api/captive', { cookie });
  t.like(after.body, { captive: false, 'user-portal-url': 'http://localhost:3000', 'can-extend-session': true });
  t.true((after.body['seconds-remaining'] as number) > 500);
  portal.fakes.sessionState = 'EXPIRED';
  t.like((await portal.get('/api/captive', { cookie })).body, { captive: true });
});
