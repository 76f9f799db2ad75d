import { randomUUID } from 'node:crypto';
import test from 'ava';
import { launchBrowser } from '../../helpers/browser.js';
import { freshEmail, PortalBrowser } from '../portal/portal-client.js';
import { signInOperator, watchedPage } from './gui-page.js';

// The GUI's Persons and Audit pages in Debian's chromium: an operator finds a customer by email
// with a reason, reads their records (network sessions, entitlements, terms acceptances), erases
// them after the confirmation, and sees each access in the audit naming them by a keyed reference
// only. Every request stays on Keycloak's origin, no CSP violation.
test('an operator finds, reads and erases a person in the GUI, and the Audit page lists each access without naming them', async (t) => {
  const email = freshEmail('gui-erase');
  const customer = new PortalBrowser();
  t.is((await customer.register(email, 'gui-erase-canary-pass', 'Gui Canary')).status, 200);
  // Letters only: the audit blanks a run of eight or more digits in a reason (a citizen or phone number).
  const reason = `gui request ${randomUUID().replace(/[^a-f]/g, '')}`;

  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const { page, foreign, problems } = await watchedPage(context);
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.accept();
  });
  await signInOperator(page);

  await page.getByRole('button', { name: 'Persons' }).click();
  await page.getByRole('heading', { name: 'Persons' }).waitFor();
  await page.getByLabel('Find by').selectOption('email');
  await page.getByLabel('Value').fill(email);
  await page.getByLabel(/^Reason/).fill(reason);
  await page.getByRole('button', { name: 'Find', exact: true }).click();
  await page.getByRole('alert').getByText('1 found').waitFor();
  await page.getByRole('button', { name: `Read records of ${email}` }).click();
  await page.getByRole('alert').getByText('Records read').waitFor();
  t.regex(await page.locator('#person-account').innerText(), new RegExp(email.replace(/[.]/g, '\\.')));
  t.regex(await page.locator('#person-sessions').innerText(), /sess-/, 'the network session is listed');
  t.regex(await page.locator('#person-entitlements').innerText(), /ACTIVE/, 'the entitlement is listed');
  await page.locator('#person-terms').waitFor({ state: 'attached' });

  await page.getByRole('button', { name: 'Erase this person' }).click();
  await page.getByRole('alert').getByText('The person is erased').waitFor();
  t.is(dialogs.length, 1, 'the erasure asks to confirm first');

  await page.getByRole('button', { name: 'Audit' }).click();
  await page.getByRole('heading', { name: 'Audit' }).waitFor();
  const rows = page.locator('#audit tr', { hasText: reason });
  await rows.nth(2).waitFor();
  const text = await rows.allInnerTexts();
  t.deepEqual(
    text.map((row) => /\b(FIND|READ|ERASE)\b/.exec(row)?.[1]),
    ['ERASE', 'READ', 'FIND'],
  );
  t.false(text.join('\n').includes(email), 'the audit never names the person');
  t.regex(text[0] ?? '', /p-[A-Za-z0-9]{22}/);
  t.deepEqual(foreign, []);
  t.deepEqual(problems, []);
});
