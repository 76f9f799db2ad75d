import type { Page } from 'playwright-core';
import en from '../../../services/portal/ui/i18n/en.json' with { type: 'json' };
import vi from '../../../services/portal/ui/i18n/vi.json' with { type: 'json' };
import { browserTest, openPhone, region } from '../../helpers/browser.js';
import { waitFor } from '../../helpers/wait-for.js';
import { lastSmsCode, randomPhone } from '../keycloak/kc-client.js';
import { URLS } from '../platform-urls.js';

// The portal's phone tab in a phone-sized Chromium against the running platform: the code is
// read from the SMS catcher, as a person reads it from their phone. The portal tells Keycloak the
// browser's address (127.0.0.1), which has 10 code requests an hour: these tests ask for four.
const test = browserTest();
const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id);

/** The national form a person types: 0 and nine digits, grouped. */
const national = (e164: string) => `0${e164.slice(3, 6)} ${e164.slice(6, 9)} ${e164.slice(9)}`;

async function codeFor(phone: string, not?: string): Promise<string> {
  const code = await waitFor(
    () => lastSmsCode(phone),
    (found) => found !== undefined && found !== not,
    { timeoutMs: 10_000 },
  );
  return code ?? '';
}

/** Ticks the terms box when a version is in force (another file may have published one). */
async function tickTermsIfAsked(page: Page): Promise<void> {
  const box = page.locator('#phone-terms');
  if (await box.isVisible()) await box.check();
}

test.serial(
  'a guest signs in with a national-form number and the code from the SMS catcher; a wrong code gets the one text and is cleared; nothing is kept',
  async (t) => {
    const phoneNumber = randomPhone();
    const phone = await openPhone(t, t.context.browser, URLS.portal);
    const { page } = phone;
    await page.goto('/');
    await page.getByRole('link', { name: en['nav.phone'] }).click();
    const view = region(page, en['phone.title']);
    const number = view.getByLabel(en['phone.number']);
    t.is(await number.getAttribute('type'), 'tel');

    await number.fill('0212 345 678');
    await view.getByRole('button', { name: en['phone.send'] }).click();
    await view.getByText(en['invalid.phone']).waitFor();
    t.is(await number.getAttribute('aria-invalid'), 'true');
    t.is(await focusedId(page), 'phone-number', 'focus is on the bad field');

    await number.fill(national(phoneNumber));
    await tickTermsIfAsked(page);
    await view.getByRole('button', { name: en['phone.send'] }).click();
    const step = view.getByRole('status');
    await step.getByText(en['phone.sent'].replace('{number}', phoneNumber)).waitFor();
    t.is(await step.getAttribute('aria-live'), 'polite');
    t.is(await focusedId(page), 'phone-code', 'focus moves to the code field');
    const code = view.getByLabel(en['phone.code']);
    t.is(await code.getAttribute('autocomplete'), 'one-time-code');
    t.true(await view.getByRole('button', { name: en['phone.resend'] }).isDisabled(), 'send again waits for resendAfterSeconds');
    t.regex((await page.locator('#phone-resend-wait').textContent()) ?? '', /\d+ s\.$/);
    await phone.finish('phone-code-step-en');

    const right = await codeFor(phoneNumber);
    await code.fill('12a456');
    await view.getByRole('button', { name: en['phone.submit'] }).click();
    await view.getByText(en['invalid.phoneCode']).waitFor();

    await code.fill(right === '000000' ? '000001' : '000000');
    await view.getByRole('button', { name: en['phone.submit'] }).click();
    await view.getByRole('alert').getByText(en['error.phoneCredentials']).waitFor();
    t.is(await code.inputValue(), '', 'a code is not kept in the form after a try');
    t.is(await focusedId(page), 'phone-code');
    await phone.finish('phone-wrong-code-en');

    await code.fill(right);
    await view.getByRole('button', { name: en['phone.submit'] }).click();
    await page.getByRole('heading', { name: en['signedIn.title'] }).waitFor();
    await region(page, en['signedIn.title']).getByText(en['package.WIFI_CUSTOMER_BASIC']).waitFor();
    await phone.finish('phone-signed-in-en');

    const seen = await page.evaluate(() =>
      JSON.stringify([{ ...localStorage }, { ...sessionStorage }, document.cookie, location.href, (document.getElementById('auth') as HTMLElement).innerText]),
    );
    for (const secret of [right, phoneNumber, phoneNumber.slice(3)]) t.false(seen.includes(secret), 'neither the code nor the number is kept');
    t.is(await page.locator('#phone-code').inputValue(), '');
    t.is(await page.locator('#phone-number').inputValue(), '');
  },
);

test.serial('asking again for the same number inside the resend gap shows the rate-limit text, and the other number goes back to step one', async (t) => {
  const phoneNumber = randomPhone();
  const phone = await openPhone(t, t.context.browser, URLS.portal);
  const { page } = phone;
  await page.goto('/#phone');
  const view = region(page, en['phone.title']);
  await view.getByLabel(en['phone.number']).fill(phoneNumber);
  await tickTermsIfAsked(page);
  await view.getByRole('button', { name: en['phone.send'] }).click();
  await view.getByLabel(en['phone.code']).waitFor();
  await view.getByRole('button', { name: en['phone.change'] }).click();
  t.is(await focusedId(page), 'phone-number');
  t.true(await page.locator('#form-phone-code').isHidden());
  await view.getByLabel(en['phone.number']).fill(phoneNumber);
  await tickTermsIfAsked(page);
  await view.getByRole('button', { name: en['phone.send'] }).click();
  await view.getByRole('alert').getByText(en['error.phoneRateLimited']).waitFor();
  t.true(await page.locator('#form-phone-code').isHidden(), 'a refused request stays on step one');
  await phone.finish('phone-rate-limited-en');
});

test.serial('the phone tab in Vietnamese, end to end with the keyboard only', async (t) => {
  const phoneNumber = randomPhone();
  const phone = await openPhone(t, t.context.browser, URLS.portal, 'vi-VN');
  const { page } = phone;
  await page.goto('/');
  await page.getByRole('link', { name: vi['nav.phone'] }).focus();
  await page.keyboard.press('Enter');
  const heading = page.getByRole('heading', { name: vi['phone.title'] });
  await heading.waitFor();
  t.true(await heading.evaluate((element) => element === document.activeElement), 'focus moves to the heading');
  await page.keyboard.press('Tab');
  t.is(await focusedId(page), 'phone-number');
  await page.keyboard.type(`+84 ${phoneNumber.slice(3)}`);
  if (await page.locator('#phone-terms').isVisible()) {
    await page.keyboard.press('Tab');
    t.is(await focusedId(page), 'phone-terms');
    await page.keyboard.press('Space');
    await page.keyboard.press('Shift+Tab');
  }
  await page.keyboard.press('Enter');
  await region(page, vi['phone.title']).getByRole('status').getByText(vi['phone.sent'].replace('{number}', phoneNumber)).waitFor();
  t.is(await focusedId(page), 'phone-code');
  await page.keyboard.type(await codeFor(phoneNumber));
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: vi['signedIn.title'] }).waitFor();
  await phone.finish('phone-signed-in-vi');
});
