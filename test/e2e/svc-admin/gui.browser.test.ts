import { mkdirSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import test from 'ava';
import { putCompany, uniqueCode } from '../../kc-extension/svc-admin/contract/companies-contract.js';
import { launchBrowser, SCREENSHOT_DIR } from '../../helpers/browser.js';
import { signInOperator, watchedPage } from './gui-page.js';
import { kcDriver } from './kc-driver.js';

// GUI (spec 4.7): sign in with PKCE, import a small CSV (preview, then commit), edit a rule in the
// dmn-js decision-table modeler, save, evaluate and see the change; every request stays on
// Keycloak's origin and the page's CSP is never violated. Debian's chromium (make debian-packages).
const SHOTS = join(SCREENSHOT_DIR, 'svc-admin');
const MODEL = '/api/dmn/models/WifiEntitlement';
const TTL_CELL = '[data-element-id="WifiEntitlementRule1TtlSeconds"]';

test('an operator signs in, imports a CSV with preview then commit, edits a rule in the table modeler, saves and evaluates', async (t) => {
  mkdirSync(SHOTS, { recursive: true });
  const d = await kcDriver();
  t.teardown(() => d.close());
  // The test changes the shared model: put the original bytes back whatever happens.
  const saved = await d.send({ method: 'GET', path: MODEL, token: d.tokens.operator });
  const original = (saved.body as { xml: string }).xml;
  // The DMN contract changes the same model: e2e files run one at a time (scripts/test-run.ts).
  if (!original.includes('<outputEntry id="WifiEntitlementRule1TtlSeconds"><text>14400</text>')) {
    t.fail('WifiEntitlement.dmn is not the checked-in model (another test is changing it?): run the e2e files with --concurrency=1');
    return;
  }
  t.teardown(async () => {
    const back = await d.send({
      method: 'PUT',
      path: MODEL,
      token: d.tokens.operator,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ xml: original }),
    });
    if (back.status !== 200) throw new Error(`could not restore WifiEntitlement.dmn: ${back.status}`);
  });
  const code = uniqueCode('GUI');
  await putCompany(d, code, { name: 'GUI company' });
  mkdirSync('test-output', { recursive: true });
  const csv = join('test-output', `import-${code}.csv`);
  writeFileSync(
    csv,
    `employeeId,citizenId,email,fullName\nG-${randomUUID().slice(0, 6)},${Math.floor(1e11 + Math.random() * 8e11)},,Gui One\nG-${randomUUID().slice(0, 6)},,g-${randomUUID().slice(0, 6)}@example.com,Gui Two\n`,
  );

  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const { page, foreign, problems } = await watchedPage(context);
  const message = page.getByRole('alert');

  await signInOperator(page);
  await page.screenshot({ path: join(SHOTS, 'companies.png'), fullPage: true });

  await page.getByRole('button', { name: 'Import' }).click();
  await page.locator('#import-company').selectOption(code);
  await page.locator('#import-file').setInputFiles(csv);
  await page.getByRole('button', { name: 'Preview' }).click();
  await page.getByText('PREVIEW: 2 rows').waitFor();
  await page.screenshot({ path: join(SHOTS, 'import-preview.png'), fullPage: true });
  await page.getByRole('button', { name: 'Commit' }).click();
  await page.getByText('COMMIT: 2 rows').waitFor();
  t.is(await page.locator('#import-company').inputValue(), code);
  t.regex(await page.locator('#import-counts').innerText(), /CREATE 2/);
  await page.screenshot({ path: join(SHOTS, 'import-commit.png'), fullPage: true });

  // The modeler lists every decision table of the DRD as a view; open WifiEntitlement's.
  await page.getByRole('button', { name: 'Decision tables' }).click();
  const views = page.getByLabel('Decision table');
  await page.locator('#dmn-view option', { hasText: 'LoyaltyTier' }).waitFor({ state: 'attached' });
  t.deepEqual(await views.locator('option').allInnerTexts(), ['WifiEntitlement', 'LoyaltyTier', 'Entitlement']);
  await views.selectOption({ label: 'LoyaltyTier' });
  await page.locator('[data-element-id^="LoyaltyTier"]').first().waitFor();
  await views.selectOption({ label: 'WifiEntitlement' });
  const ttl = page.locator(TTL_CELL);
  await ttl.waitFor();
  t.is((await ttl.innerText()).trim(), '14400');

  // Edit the output cell of rule 1 with the keyboard: focus, select all, type, leave.
  await ttl.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('14460');
  await page.keyboard.press('Tab');
  await page.getByText('Unsaved changes.').waitFor();
  await page.screenshot({ path: join(SHOTS, 'dmn-edited.png'), fullPage: true });
  await page.getByRole('button', { name: 'Save and reload' }).click();
  await message.getByText(/Saved WifiEntitlement\.dmn; the decision service reloaded/).waitFor();

  await page.locator('#dmn-decision').selectOption('WifiEntitlement');
  await page.locator('#dmn-inputs').fill('{"userType":"EMPLOYEE","employeeVerified":true,"company":"MEMBER_A"}');
  await page.getByRole('button', { name: 'Evaluate' }).focus();
  await page.keyboard.press('Enter');
  await page.getByText('"ttlSeconds": 14460').waitFor();
  await page.screenshot({ path: join(SHOTS, 'dmn-evaluate.png'), fullPage: true });

  // Failures read as the module's `code: message`: a document that does not compile is refused.
  await page.getByRole('tab', { name: 'Source (XML)' }).click();
  const source = page.locator('#dmn-xml');
  await source.fill((await source.inputValue()).replace('hitPolicy="FIRST"', 'hitPolicy="NOT_A_POLICY"'));
  await page.getByRole('button', { name: 'Save and reload' }).click();
  await message.getByText(/^DMN_EVALUATION_ERROR: /).waitFor();
  await page.locator('#dmn-inputs').fill('{"userType":');
  await page.getByRole('button', { name: 'Evaluate' }).click();
  await message.getByText(/^INVALID_INPUTS: /).waitFor();
  await page.screenshot({ path: join(SHOTS, 'dmn-error.png'), fullPage: true });

  t.deepEqual(foreign, [], "no request left Keycloak's origin");
  t.deepEqual(problems, [], 'no CSP violation or script error');
});
