import { randomUUID } from 'node:crypto';
import en from '../../../services/portal/ui/i18n/en.json' with { type: 'json' };
import { browserTest, openPhone } from '../../helpers/browser.js';
import { URLS } from '../platform-urls.js';

// "Delete my account" on the signed-in page, by keyboard alone, in a phone-sized Chromium
// against the running platform.
const test = browserTest();

test.serial(
  'a new customer deletes their account with the keyboard: a confirmation step that Escape closes, then the sign-in page says it is done',
  async (t) => {
    const phone = await openPhone(t, t.context.browser, URLS.portal);
    const { page } = phone;
    await page.goto('/#register');
    const form = page.getByRole('region', { name: en['register.title'] });
    await form.getByLabel(en['register.email']).fill(`ui-erase-${randomUUID().slice(0, 8)}@example.com`);
    await form.getByLabel(en['register.password']).fill('a-long-enough-pass');
    await form.getByRole('button', { name: en['register.submit'] }).click();
    await page.getByRole('heading', { name: en['signedIn.title'] }).waitFor();

    const start = page.getByRole('button', { name: en['erase.start'] });
    await start.focus();
    await page.keyboard.press('Enter');
    const text = page.getByText(en['erase.confirmText']);
    await text.waitFor();
    t.true(await text.evaluate((element) => element === document.activeElement), 'focus moves to the confirmation');
    t.is(await start.getAttribute('aria-expanded'), 'true');
    await phone.finish('erase-confirm-en');
    await page.keyboard.press('Escape');
    await text.waitFor({ state: 'hidden' });
    t.true(await start.evaluate((element) => element === document.activeElement), 'Escape returns focus to the button');

    await page.keyboard.press('Enter');
    await text.waitFor();
    await page.keyboard.press('Tab');
    t.is(await page.evaluate(() => document.activeElement?.textContent), en['erase.confirm']);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: en['signin.title'] }).waitFor();
    await page.getByRole('status').getByText(en['status.erased']).waitFor();
    const read = (await (await page.request.get('/api/v1/auth/session')).json()) as Record<string, unknown>;
    t.false(read['authenticated']);
    await phone.finish('erased-en');
  },
);

test.serial("an employee's signed-in page says HR removes the account and offers no delete button", async (t) => {
  const phone = await openPhone(t, t.context.browser, URLS.portal);
  const { page } = phone;
  await page.goto('/#employee');
  const form = page.getByRole('region', { name: en['employee.title'] });
  await form.getByLabel(en['employee.employeeId']).fill('A-1001');
  await form.getByLabel(en['employee.citizenId']).fill('079201001234');
  await form.getByRole('button', { name: en['employee.submit'] }).click();
  await page.getByRole('heading', { name: en['signedIn.title'] }).waitFor();
  await page.getByText(en['erase.employee']).waitFor();
  t.false(await page.getByRole('button', { name: en['erase.start'] }).isVisible());
  await page.getByRole('button', { name: en['signedIn.signOut'] }).click();
  await page.getByRole('heading', { name: en['signin.title'] }).waitFor();
});
