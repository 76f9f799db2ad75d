import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import test from 'ava';
import { chromium } from 'playwright-core';
import { putCompany, uniqueCode } from '../../kc-extension/svc-admin/contract/companies-contract.js';
import { IDP_URL } from '../keycloak/kc-client.js';
import { kcDriver, MODULE_URL } from './kc-driver.js';

// GUI (spec 4.7): sign in with PKCE, import a small CSV (preview, then commit), edit a rule of
// the decision table, save, evaluate. Debian's chromium: `apt-get install -y chromium`.
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const SHOTS = 'test-artifacts/screenshots';

test('an operator signs in, imports a CSV with preview then commit, edits and evaluates a decision table', async (t) => {
  if (!existsSync(CHROMIUM)) t.fail(`chromium not found at ${CHROMIUM}: run apt-get install -y chromium (or set CHROMIUM_PATH)`);
  mkdirSync(SHOTS, { recursive: true });
  const d = await kcDriver();
  t.teardown(() => d.close());
  const code = uniqueCode('GUI');
  await putCompany(d, code, { name: 'GUI company' });
  const csv = `test-artifacts/import-${code}.csv`;
  writeFileSync(csv, `employeeId,citizenId,email,fullName\nG-${randomUUID().slice(0, 6)},${Math.floor(1e11 + Math.random() * 8e11)},,Gui One\nG-${randomUUID().slice(0, 6)},,g-${randomUUID().slice(0, 6)}@example.com,Gui Two\n`);

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  t.teardown(() => browser.close());
  const page = await browser.newPage();
  const origin = new URL(IDP_URL).origin;
  const foreign: string[] = [];
  page.on('request', (request) => { if (!request.url().startsWith(origin) && !request.url().startsWith('data:')) foreign.push(request.url()); });

  await page.goto(`${MODULE_URL}/`);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('#username').fill('svc-operator');
  await page.locator('#password').fill(process.env['SVC_OPERATOR_PASSWORD'] ?? 'operator-demo-pass');
  await page.locator('#kc-login').click();
  await page.getByRole('heading', { name: 'Companies' }).waitFor();
  await page.screenshot({ path: `${SHOTS}/companies.png`, fullPage: true });

  await page.getByRole('button', { name: 'Import' }).click();
  await page.locator('#import-company').selectOption(code);
  await page.locator('#import-file').setInputFiles(csv);
  t.is(await page.locator('#import-company').inputValue(), code);
  await page.getByRole('button', { name: 'Preview' }).click();
  await page.getByText('PREVIEW: 2 rows').waitFor();
  await page.screenshot({ path: `${SHOTS}/import-preview.png`, fullPage: true });
  await page.getByRole('button', { name: 'Commit' }).click();
  await page.getByText('COMMIT: 2 rows').waitFor();
  t.is(await page.locator('#import-company').inputValue(), code);
  t.regex(await page.locator('#import-counts').innerText(), /CREATE 2/);
  await page.screenshot({ path: `${SHOTS}/import-commit.png`, fullPage: true });

  await page.getByRole('button', { name: 'Decision tables' }).click();
  const xml = page.locator('#dmn-xml');
  await page.waitForFunction("document.getElementById('dmn-xml').value.includes('<definitions')");
  const original = await xml.inputValue();
  await xml.fill(original.replace('<text>14400</text>', '<text>14460</text>'));
  await page.getByRole('button', { name: 'Save and reload' }).click();
  await page.getByText(/Saved WifiEntitlement\.dmn/).waitFor();
  await page.getByRole('button', { name: 'Evaluate' }).click();
  await page.getByText('"ttlSeconds": 14460').waitFor();
  await page.screenshot({ path: `${SHOTS}/dmn-evaluate.png`, fullPage: true });
  await xml.fill(original);
  await page.getByRole('button', { name: 'Save and reload' }).click();
  await page.getByText(/Saved WifiEntitlement\.dmn/).waitFor();

  t.deepEqual(foreign, []);
});
