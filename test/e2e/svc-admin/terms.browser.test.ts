import { randomUUID } from 'node:crypto';
import test from 'ava';
import { launchBrowser } from '../../helpers/browser.js';
import { signInOperator, watchedPage } from './gui-page.js';
import { kcDriver, MODULE_URL } from './kc-driver.js';

// The operator's terms page: publish a version in both languages with the keyboard-usable form,
// see it listed as the one in force and served publicly; withdrawn at the end so the run's other
// sign-ins need no acceptance. Every request stays on Keycloak's origin.
// The version in force is the platform's one shared state: with another file publishing at the
// same time (test/e2e/svc-admin/terms.browser.test.ts, test/e2e/portal/terms.test.ts) the text read
// is the other's, so these files run one at a time (scripts/test-run.ts; --concurrency=1 in a selection).
test('an operator publishes a version of the terms in the GUI; it is in force and served publicly at once', async (t) => {
  const d = await kcDriver();
  t.teardown(() => d.close());
  const version = `gui-${randomUUID().slice(0, 8)}`;
  t.teardown(async () => void (await d.send({ method: 'DELETE', path: `/api/terms/${version}`, token: d.tokens.operator })));
  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const context = await browser.newContext();
  const { page, foreign, problems } = await watchedPage(context);
  await signInOperator(page);

  await page.getByRole('button', { name: 'Terms' }).click();
  await page.getByRole('heading', { name: 'Terms and privacy notice' }).waitFor();
  await page.getByLabel('Version').fill(version);
  await page.getByLabel('Vietnamese text').fill('Điều khoản sử dụng Wi-Fi của địa điểm.');
  await page.getByLabel('English text').fill("The venue's Wi-Fi terms of use.");
  await page.getByRole('button', { name: 'Publish version' }).click();
  await page.getByRole('alert').getByText(`Version ${version} published`).waitFor();
  const row = page.locator('#terms tr', { hasText: version });
  t.regex(await row.innerText(), /yes/, 'listed as the version in force');

  const served = (await (await fetch(`${MODULE_URL}/terms/current`)).json()) as { current: { version: string; textVi: string } };
  t.like(served.current, { version, textVi: 'Điều khoản sử dụng Wi-Fi của địa điểm.' });
  t.deepEqual(foreign, []);
  t.deepEqual(problems, []);
});
