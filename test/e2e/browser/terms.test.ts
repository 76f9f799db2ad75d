import { randomUUID } from 'node:crypto';
import test from 'ava';
import en from '../../../services/portal/ui/i18n/en.json' with { type: 'json' };
import vi from '../../../services/portal/ui/i18n/vi.json' with { type: 'json' };
import { launchBrowser, openPhone } from '../../helpers/browser.js';
import { freshEmail } from '../portal/portal-client.js';
import { MODULE_URL, operatorToken } from '../svc-admin/kc-driver.js';
import { URLS } from '../platform-urls.js';

// The terms on the portal's forms, in a phone-sized Chromium against the running platform: while
// a version is in force every form shows its link and a required tick box. The version is
// withdrawn at the end so the run's other sign-ins need no tick.
// The version in force is the platform's one shared state: with another file publishing at the
// same time (test/e2e/svc-admin/terms.browser.test.ts, test/e2e/portal/terms.test.ts) the text read
// is the other's, so these files run one at a time (scripts/test-run.ts; --concurrency=1 in a selection).
test('while a version is in force the form asks for the tick, shows the terms in the page, and the signed-in page lists the acceptance', async (t) => {
  const operator = await operatorToken();
  const version = `ui-${randomUUID().slice(0, 8)}`;
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${MODULE_URL}${path}`, {
      method,
      headers: { authorization: `Bearer ${operator}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  t.is((await call('POST', '/api/terms', { version, textVi: 'Điều khoản của địa điểm.', textEn: "The venue's terms." })).status, 201);
  t.teardown(async () => void (await call('DELETE', `/api/terms/${version}`)));

  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const phone = await openPhone(t, browser, URLS.portal);
  const { page } = phone;
  await page.goto('/#register');
  const form = page.getByRole('region', { name: en['register.title'] });
  const tick = form.getByLabel(en['terms.accept']);
  await tick.waitFor();
  await form.getByLabel(en['register.email']).fill(freshEmail('terms'));
  await form.getByLabel(en['register.password']).fill('a long enough password');
  await form.getByRole('button', { name: en['register.submit'] }).click();
  await form.getByText(en['terms.required']).waitFor();
  t.is(await tick.getAttribute('aria-invalid'), 'true', 'the box is marked, and focused for the keyboard');
  t.true(await tick.evaluate((element) => element === document.activeElement));

  // The link opens the text in the page (no pop-up), in the page's language.
  await form.getByRole('link', { name: en['terms.read'] }).click();
  await page.getByRole('heading', { name: en['terms.title'] }).waitFor();
  t.is(await page.locator('#terms-text').innerText(), "The venue's terms.");
  await page.getByRole('link', { name: 'Tiếng Việt' }).click();
  await page.getByRole('heading', { name: vi['terms.title'] }).waitFor();
  t.is(await page.locator('#terms-text').innerText(), 'Điều khoản của địa điểm.');
  await page.getByRole('link', { name: 'English' }).click();
  await page.goto('/#register');

  await form.getByLabel(en['register.email']).fill(freshEmail('terms'));
  await form.getByLabel(en['register.password']).fill('a long enough password');
  await form.getByLabel(en['terms.accept']).check();
  await form.getByRole('button', { name: en['register.submit'] }).click();
  await page.getByRole('heading', { name: en['signedIn.title'] }).waitFor();
  await page.locator('#terms-accepted-list', { hasText: version }).waitFor();
  await page.getByRole('button', { name: en['signedIn.signOut'] }).click();
  await phone.finish('terms-register');
});
