import { randomUUID } from 'node:crypto';
import en from '../../../services/portal/ui/i18n/en.json' with { type: 'json' };
import vi from '../../../services/portal/ui/i18n/vi.json' with { type: 'json' };
import { browserTest, openPhone } from '../../helpers/browser.js';
import { URLS } from '../platform-urls.js';
import { PortalBrowser } from '../portal/portal-client.js';

// A person whose allowance for the period is used up signs in again in the browser: the portal
// refuses before opening anything and the page says when access renews, in both languages.
const test = browserTest();

/** A new customer (the shipped table's baseline: 2 h a day), whose first session reports the 2 h used, as a gateway's accounting would. */
async function customerWithNothingLeft(): Promise<{ email: string; password: string }> {
  const email = `ui-used-up-${randomUUID().slice(0, 8)}@example.com`;
  const password = 'a-long-enough-pass';
  const signedIn = await new PortalBrowser().call('POST', '/api/v1/auth/register', { email, password });
  if (signedIn.status !== 200) throw new Error(`register answered ${signedIn.status}: ${signedIn.text}`);
  const sessionId = String((signedIn.body['session'] as Record<string, unknown>)['sessionId']);
  const reported = await fetch(`${URLS.session}/api/v1/usage`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'dev-session-gateway-key' },
    body: JSON.stringify({ reports: [{ connectionKey: `ui-used-up/${sessionId}`, sessionId, at: new Date().toISOString(), octets: 1000, sessionTime: 7200 }] }),
  });
  const answer = (await reported.json()) as { counted: number; exhausted: string[] };
  if (answer.counted !== 1 || !answer.exhausted.includes(sessionId)) throw new Error(`usage not counted: ${JSON.stringify(answer)}`);
  return { email, password };
}

test.serial('a sign-in with nothing left shows the page saying when access renews, focused, in English then Vietnamese; back leads to sign-in', async (t) => {
  const { email, password } = await customerWithNothingLeft();
  const phone = await openPhone(t, t.context.browser, URLS.portal);
  const { page } = phone;
  await page.goto('/');
  const form = page.getByRole('region', { name: en['signin.title'] });
  await form.getByLabel(en['signin.email']).fill(email);
  await form.getByLabel(en['signin.password']).fill(password);
  const box = page.locator('#signin-terms');
  if (await box.isVisible()) await box.check();
  await form.getByRole('button', { name: en['signin.submit'] }).click();

  const heading = page.getByRole('heading', { name: en['usedUp.title'] });
  await heading.waitFor();
  t.true(await heading.evaluate((element) => element === document.activeElement), 'focus moves to the heading');
  const renews = page.locator('#used-up-renews');
  const datetime = (await renews.getAttribute('datetime')) ?? '';
  t.true(Date.parse(datetime) > Date.now(), 'the renewal is ahead');
  t.true(Date.parse(datetime) - Date.now() <= 86_400_000, 'a daily allowance renews within a day');
  t.true(((await renews.textContent()) ?? '').length > 0);
  await page.getByText(en['usedUp.renews']).waitFor();
  t.false(await page.getByRole('heading', { name: en['signedIn.title'] }).isVisible(), 'not signed in');
  await phone.finish('used-up-en');

  await page.getByRole('link', { name: 'Tiếng Việt' }).click();
  await page.getByRole('heading', { name: vi['usedUp.title'] }).waitFor();
  await page.getByText(vi['usedUp.renews']).waitFor();
  await phone.finish('used-up-vi');

  await page.getByRole('link', { name: vi['usedUp.back'] }).click();
  await page.getByRole('heading', { name: vi['signin.title'] }).waitFor();
  t.false(await page.getByRole('heading', { name: vi['usedUp.title'] }).isVisible());
  const session = await page.evaluate(() => fetch('/api/v1/auth/session').then((reply) => reply.json() as Promise<{ authenticated: boolean }>));
  t.false(session.authenticated, 'no portal session was opened');
});
