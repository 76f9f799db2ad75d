import { randomUUID } from 'node:crypto';
import test from 'ava';
import { adminApi, adminToken, userIdOf } from '../keycloak/kc-client.js';
import { freshEmail, networkSession, PortalBrowser, stableError } from './portal-client.js';

// Against the running platform: real Keycloak, entitlement, decision, loyalty and session.
// Serial: Keycloak refused a second password grant for a user while the first was in flight
// (user_temporarily_disabled) when these ran at once; one sign-in at a time, as a person signs in.

test.serial('a customer signs in: one answer with claims, a baseline entitlement and a GRANTED network session', async (t) => {
  const browser = new PortalBrowser();
  const reply = await browser.login('bob@example.com', 'bob-demo-pass');
  t.is(reply.status, 200, reply.text);
  t.like(reply.body, { authenticated: true, client: 'wifi-portal-api' });
  t.like(reply.body['claims'] as object, { user_type: 'CUSTOMER', preferred_username: 'bob@example.com', azp: 'wifi-portal-api' });
  t.like(reply.body['entitlement'] as object, {
    eligible: true,
    status: 'ACTIVE',
    entitlementType: 'WIFI_CUSTOMER_BASIC',
    permission: { tier: 'BASIC', deviceSlots: 1 },
  });
  const session = reply.body['session'] as Record<string, unknown>;
  t.like(session, { state: 'GRANTED', entitlementId: (reply.body['entitlement'] as Record<string, unknown>)['entitlementId'] });
  t.like(await networkSession(String(session['sessionId'])), { state: 'GRANTED' });
  t.false('rawAccessToken' in reply.body);
  t.false(/eyJ[A-Za-z0-9_-]{10,}\./.test(reply.text), 'no token in the answer');
  t.regex(reply.headers.getSetCookie()[0] ?? '', /^sid=[^;]+; Max-Age=3600; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Strict$/);
});

test.serial('session read, refresh and logout: the network session is revoked and the cookie cleared', async (t) => {
  const browser = new PortalBrowser();
  const login = await browser.login('bob@example.com', 'bob-demo-pass');
  const sessionId = String((login.body['session'] as Record<string, unknown>)['sessionId']);
  t.like((await browser.session()).body, { authenticated: true, session: { sessionId, state: 'GRANTED' } });
  const before = browser.cookie;
  const refreshed = await browser.refresh();
  t.is(refreshed.status, 200, refreshed.text);
  t.not(browser.cookie, before, 'a fresh sid on refresh');
  const out = await browser.logout();
  t.is(out.status, 200);
  t.like(out.body, { ok: true });
  t.false(browser.cookie?.includes('sid=') ?? false, 'the sid cookie is cleared (the device handle stays)');
  t.like(await networkSession(sessionId), { state: 'REVOKED' });
  t.like((await browser.session()).body, { authenticated: false });
});

test.serial('two sign-ins sending the same X-Correlation-ID are two sign-ins, not a replay of the first', async (t) => {
  const correlationId = `corr-${randomUUID()}`;
  const browser = new PortalBrowser();
  const first = await browser.call(
    'POST',
    '/api/v1/auth/login',
    { username: 'bob@example.com', password: 'bob-demo-pass' },
    { 'X-Correlation-ID': correlationId },
  );
  t.is(first.status, 200, first.text);
  t.is((await browser.logout()).status, 200);
  const second = await browser.call(
    'POST',
    '/api/v1/auth/login',
    { username: 'bob@example.com', password: 'bob-demo-pass' },
    { 'X-Correlation-ID': correlationId },
  );
  t.is(second.status, 200, second.text);
  t.is(second.body['correlationId'], correlationId, "the caller's id is still carried");
  const sessionOf = (reply: typeof first) => reply.body['session'] as Record<string, unknown>;
  const entitlementOf = (reply: typeof first) => reply.body['entitlement'] as Record<string, unknown>;
  t.not(sessionOf(second)['sessionId'], sessionOf(first)['sessionId']);
  t.not(entitlementOf(second)['entitlementId'], entitlementOf(first)['entitlementId']);
  t.like(await networkSession(String(sessionOf(second)['sessionId'])), { state: 'GRANTED' });
});

test.serial("a revocation at the session service shows in the portal's session read", async (t) => {
  const browser = new PortalBrowser();
  const login = await browser.login('bob@example.com', 'bob-demo-pass');
  const sessionId = String((login.body['session'] as Record<string, unknown>)['sessionId']);
  await fetch(`${process.env['SESSION_URL'] ?? 'http://127.0.0.1:3003'}/api/v1/sessions/${sessionId}/revoke`, {
    method: 'POST',
    headers: { 'X-API-Key': 'dev-session-tools-key' },
  });
  t.like((await browser.session()).body, { authenticated: true, session: { state: 'REVOKED' } });
});

test.serial('wrong password, unknown account and a locked account answer one identical 401', async (t) => {
  const email = freshEmail('locked');
  const owner = new PortalBrowser();
  t.is((await owner.register(email, 'right-password-1')).status, 200);
  const wrong = await new PortalBrowser().login(email, 'wrong-password');
  const unknown = await new PortalBrowser().login(freshEmail('nobody'), 'wrong-password');
  // Five failures lock the account (spec 8); the right password is then refused alike.
  for (let i = 0; i < 5; i++) await new PortalBrowser().login(email, `wrong-${i}`);
  const locked = await new PortalBrowser().login(email, 'right-password-1');
  for (const reply of [wrong, unknown, locked]) {
    t.is(reply.status, 401, reply.text);
    t.is(reply.body['code'], 'INVALID_CREDENTIALS');
  }
  t.is(stableError(unknown), stableError(wrong));
  t.is(stableError(locked), stableError(wrong));
});

test.serial('a second sign-in in the same browser ends the first: its network session REVOKED and its Keycloak session gone', async (t) => {
  const browser = new PortalBrowser();
  const first = await browser.login('alice@example.com', 'alice-demo-pass');
  t.is(first.status, 200, first.text);
  const firstSession = String((first.body['session'] as Record<string, unknown>)['sessionId']);
  const admin = await adminToken();
  const alice = await userIdOf(admin, 'alice@example.com');
  t.true(((await adminApi(admin, 'GET', `/users/${alice}/sessions`)) as unknown[]).length > 0);
  const second = await browser.login('bob@example.com', 'bob-demo-pass');
  t.is(second.status, 200, second.text);
  t.like(await networkSession(firstSession), { state: 'REVOKED' });
  t.deepEqual(await adminApi(admin, 'GET', `/users/${alice}/sessions`), []);
  t.like((await browser.session()).body, { authenticated: true, claims: { preferred_username: 'bob@example.com' } });
  await browser.logout();
});

test.serial('register creates an account and signs in with the baseline; the same email again is 409', async (t) => {
  const email = freshEmail('new');
  const reply = await new PortalBrowser().register(email, 'a-long-password', 'Tran Thi Mai');
  t.is(reply.status, 200, reply.text);
  t.like(reply.body['claims'] as object, { preferred_username: email });
  t.like(reply.body['entitlement'] as object, { entitlementType: 'WIFI_CUSTOMER_BASIC' });
  // Spec 2.3: displayName split on whitespace into first and last name, in Keycloak's account.
  const admin = await adminToken();
  t.like(await adminApi(admin, 'GET', `/users/${await userIdOf(admin, email)}`), { email, firstName: 'Tran', lastName: 'Thi Mai', enabled: true });
  const again = await new PortalBrowser().register(email, 'another-password');
  t.is(again.status, 409);
  t.is(again.body['code'], 'ACCOUNT_EXISTS');
  const short = await new PortalBrowser().register(freshEmail('short'), 'short');
  t.is(short.status, 400);
});

test.serial("registering a GOLD member's email without verifying it gives the baseline, not the member's package", async (t) => {
  // gold.unclaimed@demo.example is a GOLD member with the Wi-Fi benefit and no account: anyone
  // can register the address, and the realm does not verify it, so loyalty is never asked.
  const reply = await new PortalBrowser().register('gold.unclaimed@demo.example', 'a-long-password');
  t.is(reply.status, 200, reply.text);
  t.like(reply.body['claims'] as object, { preferred_username: 'gold.unclaimed@demo.example' });
  t.like(reply.body['entitlement'] as object, {
    entitlementType: 'WIFI_CUSTOMER_BASIC',
    permission: { tier: 'BASIC', sourceType: 'IDP_ID_LOGIN', sourceRef: null },
  });
});

test.serial('with the demo flag off, meta says so and mode is api', async (t) => {
  const meta = await new PortalBrowser().call('GET', '/api/v1/meta');
  t.like(meta.body, { mode: 'api', exposeToken: false });
});

test.serial("the entitlement is the signed-in subject's", async (t) => {
  const reply = await new PortalBrowser().login('alice@example.com', 'alice-demo-pass');
  t.is(reply.status, 200, reply.text);
  const entitlement = reply.body['entitlement'] as Record<string, unknown>;
  t.is(entitlement['subjectId'], (reply.body['claims'] as Record<string, unknown>)['sub']);
});
