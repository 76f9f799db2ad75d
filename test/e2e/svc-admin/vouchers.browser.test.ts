import { readFile } from 'node:fs/promises';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { launchBrowser, SCREENSHOT_DIR } from '../../helpers/browser.js';
import { signInOperator, watchedPage } from './gui-page.js';

// The GUI's Vouchers page in Debian's chromium: create a batch and see its codes once, create one
// as a CSV download, revoke a batch; every request stays on Keycloak's origin, no CSP violation.
const SHOTS = join(SCREENSHOT_DIR, 'svc-admin');
const CODE = /^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/;

test('an operator creates a voucher batch, sees its codes once, downloads another as CSV and revokes a batch', async (t) => {
  mkdirSync(SHOTS, { recursive: true });
  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true });
  const { page, foreign, problems } = await watchedPage(context, { blobs: true });
  page.on('dialog', (dialog) => void dialog.accept());

  await signInOperator(page);
  await page.getByRole('button', { name: 'Vouchers' }).click();
  await page.getByRole('heading', { name: 'Vouchers' }).waitFor();

  const until = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 16);
  await page.getByLabel('Count').fill('3');
  await page.getByLabel('Valid until').fill(until);
  await page.getByLabel('Note').fill('GUI batch');
  await page.getByRole('button', { name: 'Create and show codes' }).click();
  const codes = page.getByRole('list', { name: 'Codes of the batch just created' }).getByRole('listitem');
  await codes.nth(2).waitFor();
  const shown = await codes.allInnerTexts();
  t.is(shown.length, 3);
  for (const code of shown) t.regex(code, CODE);
  await page.getByRole('cell', { name: 'GUI batch' }).first().waitFor();
  await page.screenshot({ path: join(SHOTS, 'vouchers.png'), fullPage: true });

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Create as CSV' }).click()]);
  const csv = await readFile((await download.path()) ?? '', 'utf8');
  t.regex(csv.split('\r\n')[1] ?? '', /^"[A-HJ-NP-Z2-9]{4}-/);
  t.is(csv.trim().split('\r\n').length, 4, 'a header and three codes');

  const table = await page.locator('#voucher-batches').innerText();
  for (const code of shown) t.false(table.includes(code), 'the list never shows a code');
  await page.getByRole('button', { name: 'Revoke batch' }).first().click();
  await page
    .getByRole('alert')
    .getByText(/voucher\(s\) revoked/)
    .waitFor();
  t.deepEqual(foreign, []);
  t.deepEqual(problems, []);
});
