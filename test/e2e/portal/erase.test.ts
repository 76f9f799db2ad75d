import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { waitFor } from '../../helpers/wait-for.js';
import { adminApi, adminToken, lastSmsCode, randomPhone } from '../keycloak/kc-client.js';
import { filesContaining, KC_LOG } from '../keycloak/kc-files.js';
import { URLS } from '../platform-urls.js';
import { freshEmail, networkSession, PortalBrowser } from './portal-client.js';

// A person deletes their account through the running platform (real Keycloak, session,
// entitlement and gateway services): afterwards no row any service answers and no log line names
// them. Privacy canaries: an email (a registered customer) and a phone number (a customer who
// signed in by SMS code).
const PORTAL_SESSION_KEY = { 'X-API-Key': process.env['PORTAL_SESSION_KEY'] ?? 'dev-session-portal-key' };

async function subjectOf(browser: PortalBrowser): Promise<{ subjectId: string; sessionId: string }> {
  const state = (await browser.session()).body;
  const claims = state['claims'] as Record<string, unknown>;
  const session = state['session'] as Record<string, unknown>;
  return { subjectId: String(claims['sub']), sessionId: String(session['sessionId']) };
}

async function userGone(subjectId: string): Promise<boolean> {
  const token = await adminToken();
  return adminApi(token, 'GET', `/users/${subjectId}`).then(
    () => false,
    (error: Error) => error.message.endsWith(': 404'),
  );
}

/** The platform's service logs and Keycloak's; the mail and SMS catchers stand for outside providers and are not ours. */
async function platformLogs(): Promise<string[]> {
  const services = (await readdir('.run/logs')).filter((name) => !/catcher/.test(name)).map((name) => join('.run/logs', name));
  return [KC_LOG, ...services];
}

async function eraseAndCheck(t: import('ava').ExecutionContext, browser: PortalBrowser, canary: string): Promise<void> {
  const { subjectId, sessionId } = await subjectOf(browser);
  t.like(await networkSession(sessionId), { state: 'GRANTED', subjectId });
  const before = await fetch(`${URLS.session}/api/v1/subjects/${subjectId}/sessions`, { headers: PORTAL_SESSION_KEY });
  t.true(((await before.json()) as { sessions: unknown[] }).sessions.length > 0, 'positive control: the session service holds their sessions');

  const erased = await browser.call('POST', '/api/v1/me/erase', { confirm: true });

  t.is(erased.status, 200, erased.text);
  t.like(await networkSession(sessionId), { state: 'REVOKED', subjectId: 'erased', deviceRef: null }, 'revoked (the gateways follow the feed) and anonymised');
  const after = await fetch(`${URLS.session}/api/v1/subjects/${subjectId}/sessions`, { headers: PORTAL_SESSION_KEY });
  t.deepEqual(((await after.json()) as { sessions: unknown[] }).sessions, []);
  t.true(await userGone(subjectId), 'the Keycloak user is removed');
  t.false((await browser.session()).body['authenticated'], 'signed out');
  t.is((await browser.call('POST', '/api/v1/me/erase', { confirm: true })).status, 401);
  t.deepEqual(await filesContaining(await platformLogs(), canary), [], 'no log line names the person');
}

test.serial('a customer who deletes their account is gone from Keycloak and every service, and no log line holds their email', async (t) => {
  const email = freshEmail('erase-canary');
  const browser = new PortalBrowser();
  t.is((await browser.register(email, 'erase-canary-pass', 'Erase Canary')).status, 200);
  // Before the erasure, the person's copy holds their real Keycloak account and the entitlement of this sign-in.
  const { sessionId } = await subjectOf(browser);
  const { entitlementId } = (await networkSession(sessionId)) as { entitlementId: string };
  const copy = await browser.call('GET', '/api/v1/me/data');
  t.is(copy.status, 200, copy.text);
  t.like(copy.body['account'], { username: email, email, firstName: 'Erase', lastName: 'Canary', enabled: true });
  t.true(
    (copy.body['entitlements'] as { entitlementId: string }[]).some((each) => each.entitlementId === entitlementId),
    'the copy holds the entitlement of this sign-in',
  );
  await eraseAndCheck(t, browser, email);
  const token = await adminToken();
  t.deepEqual(await adminApi(token, 'GET', `/users?email=${encodeURIComponent(email)}&exact=true`), []);
});

test.serial('a customer who signed in by phone deletes their account and no log line or account holds the number', async (t) => {
  const phone = randomPhone();
  const browser = new PortalBrowser();
  t.is((await browser.call('POST', '/api/v1/auth/phone/code', { phone })).status, 202);
  const code = await waitFor(
    () => lastSmsCode(phone),
    (found) => found !== undefined,
    { timeoutMs: 5000 },
  );
  t.is((await browser.call('POST', '/api/v1/auth/phone', { phone, code })).status, 200);
  await eraseAndCheck(t, browser, phone);
  const token = await adminToken();
  t.deepEqual(await adminApi(token, 'GET', `/users?q=phone_number:${encodeURIComponent(phone)}`), []);
});

test.serial("an imported employee's account is refused and stays whole", async (t) => {
  const browser = new PortalBrowser();
  t.is((await browser.employee('A-1001', '079201001234')).status, 200);
  const refused = await browser.call('POST', '/api/v1/me/erase', { confirm: true });
  t.is(refused.status, 403, refused.text);
  t.is(refused.body['code'], 'ACCOUNT_MANAGED_BY_EMPLOYER');
  const { subjectId } = await subjectOf(browser);
  t.false(await userGone(subjectId));
  t.true((await browser.session()).body['authenticated']);
  await browser.logout();
});
