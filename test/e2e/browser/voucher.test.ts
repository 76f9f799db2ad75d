import en from '../../../services/portal/ui/i18n/en.json' with { type: 'json' };
import vi from '../../../services/portal/ui/i18n/vi.json' with { type: 'json' };
import { browserTest, openPhone, region } from '../../helpers/browser.js';
import { batchBody, createBatch } from '../../kc-extension/svc-admin/contract/vouchers-contract.js';
import { CreatedBatch } from '../../kc-extension/svc-admin/contract/response-schemas.js';
import { URLS } from '../platform-urls.js';
import { kcDriver } from '../svc-admin/kc-driver.js';

// The portal's voucher tab in a phone-sized Chromium against the running platform, with a
// voucher made by svc-admin.
const test = browserTest();

async function oneCode(): Promise<string> {
  const d = await kcDriver();
  try {
    return CreatedBatch.parse((await createBatch(d, batchBody(d, { count: 1 }))).body).codes[0]!;
  } finally {
    await d.close();
  }
}

test.serial(
  'a guest signs in with a voucher typed in lower case with spaces; a typo is named, a wrong code gets the one text; the code is kept nowhere',
  async (t) => {
    const code = await oneCode();
    const phone = await openPhone(t, t.context.browser, URLS.portal);
    const { page } = phone;
    await page.goto('/');
    await page.getByRole('link', { name: en['nav.voucher'] }).click();
    const form = region(page, en['voucher.title']);
    const input = form.getByLabel(en['voucher.code']);
    t.is(await input.getAttribute('autocapitalize'), 'characters');
    t.is(await input.getAttribute('autocomplete'), 'off');

    await input.fill('ABCD-0000-EFGH');
    await form.getByRole('button', { name: en['voucher.submit'] }).click();
    await form.getByText(en['invalid.voucherCode']).waitFor();
    t.is(await input.getAttribute('aria-invalid'), 'true');
    t.true(await input.evaluate((element) => element === document.activeElement), 'focus is on the bad field');
    await phone.finish('voucher-invalid-en');

    await input.fill('ZZZZ-ZZZZ-ZZZZ');
    await form.getByRole('button', { name: en['voucher.submit'] }).click();
    await form.getByRole('alert').getByText(en['error.voucherCredentials']).waitFor();
    t.is(await input.inputValue(), '', 'a code is not kept in the form after a try');
    await phone.finish('voucher-wrong-en');

    await input.fill(code.toLowerCase().replace(/-/g, ' '));
    await form.getByRole('button', { name: en['voucher.submit'] }).click();
    await page.getByRole('heading', { name: en['signedIn.title'] }).waitFor();
    await region(page, en['signedIn.title']).getByText(en['package.WIFI_CUSTOMER_BASIC']).waitFor();
    await phone.finish('voucher-signed-in-en');

    const bare = code.replace(/-/g, '');
    const seen = await page.evaluate(() => JSON.stringify([{ ...localStorage }, { ...sessionStorage }, document.cookie, location.href]));
    for (const shape of [code, bare, bare.toLowerCase(), code.toLowerCase().replace(/-/g, ' ')]) {
      t.false(seen.includes(shape));
      t.false((await page.content()).includes(shape));
    }
  },
);

test.serial('the voucher tab in Vietnamese, reached with the keyboard', async (t) => {
  const phone = await openPhone(t, t.context.browser, URLS.portal, 'vi-VN');
  const { page } = phone;
  await page.goto('/');
  await page.getByRole('link', { name: vi['nav.voucher'] }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: vi['voucher.title'] }).waitFor();
  t.true(
    await page.getByRole('heading', { name: vi['voucher.title'] }).evaluate((element) => element === document.activeElement),
    'focus moves to the heading',
  );
  await page.keyboard.press('Tab');
  t.is(await page.evaluate(() => document.activeElement?.id), 'voucher-code');
  await page.keyboard.press('Enter');
  await region(page, vi['voucher.title']).getByText(vi['invalid.voucherCode']).waitFor();
  await phone.finish('voucher-invalid-vi');
});
