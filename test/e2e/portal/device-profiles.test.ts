import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import anyTest, { type TestFn } from 'ava';
import type { Browser, Page } from 'playwright-core';
import { parse as parsePlist } from 'plist';
import en from '../../../services/portal/ui/i18n/en.json' with { type: 'json' };
import vi from '../../../services/portal/ui/i18n/vi.json' with { type: 'json' };
import { appleProfileProblems, readAndroidWifiConfig } from '../../edge/profile-readers.js';
import { parseWithElementTree, windowsProfileProblems } from '../../edge/windows-profile-schema.js';
import { launchBrowser, openPhone } from '../../helpers/browser.js';
import { eapolTest } from '../../services/gateway/eapol.js';
import { URLS } from '../platform-urls.js';

// "Connect automatically next time" on the signed-in page of the running platform, in a
// phone-sized Chromium: the person picks their kind of device, downloads its Wi-Fi profile (the
// portal issues a credential inside it), sees the device in their list and removes it; each file
// is read back by the parser of its format, and the wpa_supplicant file connects through the
// platform's own FreeRADIUS with a real supplicant until the person signs out.
const test = anyTest as TestFn<{ browser: Browser }>;
const AUTH_PORT = Number(process.env.RADIUS_AUTH_PORT ?? 1812);
const NAS_SECRET = 'demo-nas-secret';
/** fixtures/gateways.json's own Wi-Fi identifiers: a sign-in through no gateway is offered these. */
const SSID = 'Wifi Platform Secure';

test.before(async (t) => {
  t.context.browser = await launchBrowser();
});
test.after.always(async (t) => {
  await t.context.browser?.close();
});

/** Picks the kind, follows the link, and gives the downloaded file's name and text. */
async function download(page: Page, kind: 'apple' | 'android' | 'windows' | 'linux'): Promise<{ name: string; text: string }> {
  await page.getByLabel(en['devices.kind']).selectOption(kind);
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: en['devices.add'] }).click()]);
  const path = await file.path();
  return { name: file.suggestedFilename(), text: readFileSync(path, 'utf8') };
}

async function removeOnly(page: Page): Promise<void> {
  const list = page.getByRole('list', { name: en['devices.listTitle'] });
  await list.getByRole('listitem').first().waitFor();
  await list.getByRole('button', { name: en['devices.remove'] }).click();
  await page.getByText(en['devices.none']).waitFor();
}

test.serial(
  'a customer downloads the Apple, Android, Windows and wpa_supplicant profiles one after another; each parses, the list shows and removes the device; the wpa_supplicant one connects until sign-out',
  async (t) => {
    const phone = await openPhone(t, t.context.browser, URLS.portal);
    const { page } = phone;
    await page.goto('/#register');
    const form = page.getByRole('region', { name: en['register.title'] });
    await form.getByLabel(en['register.email']).fill(`ui-devices-${randomUUID().slice(0, 8)}@example.com`);
    await form.getByLabel(en['register.password']).fill('a-long-enough-pass');
    await form.getByRole('button', { name: en['register.submit'] }).click();
    await page.getByRole('heading', { name: en['signedIn.title'] }).waitFor();
    await page.getByRole('heading', { name: en['devices.title'] }).waitFor();
    await page.getByText(en['devices.none']).waitFor();
    // The customer baseline holds one device slot (spec 4.5): the page counts against it.
    await page.getByText(en['devices.slots'].replace('{used}', '0').replace('{slots}', '1')).waitFor();

    await page.getByRole('link', { name: 'Tiếng Việt' }).click();
    await page.getByRole('heading', { name: vi['devices.title'] }).waitFor();
    t.is(await page.getByRole('link', { name: vi['devices.add'] }).count(), 1);
    await phone.finish('devices-vi');
    await page.getByRole('link', { name: 'English' }).click();
    await page.getByRole('heading', { name: en['devices.title'] }).waitFor();

    const apple = await download(page, 'apple');
    t.is(apple.name, 'Wifi-Platform-Secure.mobileconfig');
    const profile = parsePlist(apple.text) as Record<string, unknown>;
    t.deepEqual(appleProfileProblems(profile), []);
    const [, wifi] = profile['PayloadContent'] as Record<string, unknown>[];
    t.is(wifi?.['SSID_STR'], SSID);
    t.regex(String((wifi?.['EAPClientConfiguration'] as Record<string, unknown> | undefined)?.['UserName']), /^[0-9a-f]{32}@wifi\.example\.net$/);
    await page.getByRole('list', { name: en['devices.listTitle'] }).getByRole('listitem').first().waitFor();
    await page.getByText(en['devices.full']).waitFor();
    t.is(await page.getByRole('link', { name: en['devices.add'] }).getAttribute('aria-disabled'), 'true');
    await phone.finish('devices-one-en');
    await removeOnly(page);

    const android = await download(page, 'android');
    const read = readAndroidWifiConfig(android.text);
    t.deepEqual(read.problems, []);
    t.like(read.homeSp, { FQDN: 'wifi.example.net', RoamingConsortiumOI: 'F4F5E8F5F4' });
    await removeOnly(page);

    const windows = await download(page, 'windows');
    t.is(windows.name, 'Wifi-Platform-Secure.xml');
    t.deepEqual(windowsProfileProblems(parseWithElementTree(windows.text)), []);
    await removeOnly(page);

    const linux = await download(page, 'linux');
    t.is(linux.name, 'Wifi-Platform-Secure.conf');
    const connect = () =>
      eapolTest(AUTH_PORT, NAS_SECRET, { identity: 'unused', password: 'unused', caFile: 'unused', serverName: 'unused', profile: linux.text });
    const accepted = await connect();
    t.true(accepted.success, accepted.output.slice(-2000));
    await page.getByRole('button', { name: en['signedIn.signOut'] }).click();
    await page.getByRole('heading', { name: en['signin.title'] }).waitFor();
    t.false((await connect()).success, 'signing out ends the device credential at its next authentication');
    await phone.finish('devices-signed-out-en');
  },
);
