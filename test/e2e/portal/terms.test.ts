import { randomUUID } from 'node:crypto';
import test from 'ava';
import { MODULE_URL, operatorToken } from '../svc-admin/kc-driver.js';
import { PortalBrowser } from './portal-client.js';

// Against the running platform: an operator publishes a version in svc-admin (inside the real
// Keycloak), the portal requires it at the next sign-in (the test run reads the terms uncached).
// Serial, and the version withdrawn at the end: every other sign-in of the run needs no acceptance.

// The version in force is the platform's one shared state: with another file publishing at the
// same time (test/e2e/svc-admin/terms.browser.test.ts, test/e2e/portal/terms.test.ts) the text read
// is the other's, so these files run one at a time (scripts/test-run.ts; --concurrency=1 in a selection).

async function operatorCall(token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${MODULE_URL}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

test.serial('a version published in svc-admin is required at sign-in, recorded once accepted, and readable by the person', async (t) => {
  const operator = await operatorToken();
  const version = `e2e-${randomUUID().slice(0, 8)}`;
  const published = await operatorCall(operator, 'POST', '/api/terms', { version, textVi: 'Điều khoản thử', textEn: 'Test terms' });
  t.is(published.status, 201, JSON.stringify(published.body));
  t.teardown(async () => void (await operatorCall(operator, 'DELETE', `/api/terms/${version}`)));

  const browser = new PortalBrowser();
  t.like((await browser.call('GET', '/api/v1/terms')).body, { current: { version, textVi: 'Điều khoản thử', textEn: 'Test terms' } });
  const refused = await browser.login('bob@example.com', 'bob-demo-pass');
  t.is(refused.status, 400, refused.text);
  t.like(refused.body, { code: 'INVALID_REQUEST' });
  t.true(String(refused.body['message']).includes(version));
  t.is(refused.cookie, undefined, 'no portal session');

  const accepted = await browser.call('POST', '/api/v1/auth/login', { username: 'bob@example.com', password: 'bob-demo-pass', acceptedTerms: version });
  t.is(accepted.status, 200, accepted.text);
  const mine = await browser.call('GET', '/api/v1/me/terms');
  t.like((mine.body['acceptances'] as unknown[])[0], { version, channel: 'password' });
  const other = new PortalBrowser();
  t.is((await other.login('bob@example.com', 'bob-demo-pass')).status, 200, 'accepted once: the next sign-in needs nothing');
  await other.logout();
  await browser.logout();
});
