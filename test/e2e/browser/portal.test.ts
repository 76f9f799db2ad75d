import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import en from '../../../services/portal/ui/i18n/en.json' with { type: 'json' };
import vi from '../../../services/portal/ui/i18n/vi.json' with { type: 'json' };
import { browserTest, openPhone } from '../../helpers/browser.js';
import { URLS } from '../platform-urls.js';
import { coovaArrival, demoNas } from '../gateway/coova-arrival.js';
import { startFakeChilli } from '../gateway/fake-chilli.js';

// The portal's web UI in a phone-sized Chromium against the running platform (spec 4.1).
// Serial: the error case fails bob once, the others sign bob in.
const test = browserTest();

function region(page: Page, name: string) {
  return page.getByRole('region', { name });
}

async function signInAsBob(page: Page): Promise<void> {
  const form = region(page, en['signin.title']);
  await form.getByLabel(en['signin.email']).fill('bob@example.com');
  await form.getByLabel(en['signin.password']).fill('bob-demo-pass');
  await form.getByRole('button', { name: en['signin.submit'] }).click();
  await page.getByRole('heading', { name: en['signedIn.title'] }).waitFor();
}

async function sessionRead(page: Page): Promise<Record<string, unknown>> {
  const answer = await page.request.get('/api/v1/auth/session');
  return (await answer.json()) as Record<string, unknown>;
}

test.serial('a wrong password and an unknown account show the same one text, which never says whether the account exists', async (t) => {
  const phone = await openPhone(t, t.context.browser, URLS.portal);
  const { page } = phone;
  await page.goto('/');
  const form = region(page, en['signin.title']);
  const alert = form.getByRole('alert');

  await form.getByLabel(en['signin.email']).fill('bob@example.com');
  await form.getByLabel(en['signin.password']).fill('not-bobs-password');
  await form.getByRole('button', { name: en['signin.submit'] }).click();
  await alert.getByText(en['error.INVALID_CREDENTIALS']).waitFor();
  const wrongPassword = await page.locator('main').innerText();
  t.is(await form.getByLabel(en['signin.password']).inputValue(), '', 'the password is not kept in the form');

  await form.getByLabel(en['signin.email']).fill(`nobody-${randomUUID()}@example.com`);
  await form.getByLabel(en['signin.password']).fill('whatever-password');
  await form.getByRole('button', { name: en['signin.submit'] }).click();
  await alert.getByText(en['error.INVALID_CREDENTIALS']).waitFor();

  t.is(await page.locator('main').innerText(), wrongPassword);
  t.notRegex(wrongPassword, /exist|not found|unknown|no account|not registered/i);
  await phone.finish('signin-error-en');
});

test.serial('a customer signs in and sees package, tier, speed class, devices and a running countdown; a reload keeps the signed-in page', async (t) => {
  const phone = await openPhone(t, t.context.browser, URLS.portal);
  const { page } = phone;
  await page.goto('/');
  await phone.finish('signin-en');
  await signInAsBob(page);

  const signedIn = region(page, en['signedIn.title']);
  await signedIn.getByText(en['package.WIFI_CUSTOMER_BASIC']).waitFor();
  t.true(await signedIn.getByText('bob@example.com').isVisible());
  const timer = page.getByRole('timer');
  const first = await timer.innerText();
  t.regex(first, /^\d+:\d{2}:\d{2}$/);
  await page.waitForFunction((shown) => document.querySelector('[role="timer"]')?.textContent !== shown, first);
  await phone.finish('signed-in-customer-en');

  await page.reload();
  await page.getByRole('heading', { name: en['signedIn.title'] }).waitFor();
  t.is((await sessionRead(page)).authenticated, true);
});

test.serial('a new customer registers with a fresh email and is signed in', async (t) => {
  const phone = await openPhone(t, t.context.browser, URLS.portal);
  const { page } = phone;
  await page.goto('/');
  await page.getByRole('link', { name: en['nav.register'] }).click();
  const form = region(page, en['register.title']);
  await form.getByLabel(en['register.email']).fill(`ui-${randomUUID().slice(0, 8)}@example.com`);
  await form.getByLabel(en['register.password']).fill('short');
  await form.getByLabel(en['register.displayName']).fill('Ui Tester');
  await form.getByRole('button', { name: en['register.submit'] }).click();
  await form.getByText(en['invalid.passwordShort']).waitFor();
  t.is(await form.getByLabel(en['register.password']).getAttribute('aria-invalid'), 'true');
  await phone.finish('register-invalid-en');

  await form.getByLabel(en['register.password']).fill('a-long-enough-pass');
  await form.getByRole('button', { name: en['register.submit'] }).click();
  await page.getByRole('heading', { name: en['signedIn.title'] }).waitFor();
  await region(page, en['signedIn.title']).getByText(en['package.WIFI_CUSTOMER_BASIC']).waitFor();
  await phone.finish('register-signed-in-en');
});

test.serial('an employee signs in with employee id and citizen number, which is kept nowhere in the page, URL or storage', async (t) => {
  const phone = await openPhone(t, t.context.browser, URLS.portal);
  const { page } = phone;
  await page.goto('/#employee');
  const form = region(page, en['employee.title']);
  const citizen = form.getByLabel(en['employee.citizenId']);
  t.is(await citizen.getAttribute('inputmode'), 'numeric');
  t.is(await citizen.getAttribute('autocomplete'), 'off');
  await form.getByLabel(en['employee.employeeId']).fill('A-1001');
  await citizen.fill('079201001234');
  await phone.finish('employee-form-en');
  await form.getByRole('button', { name: en['employee.submit'] }).click();
  await page.getByRole('heading', { name: en['signedIn.title'] }).waitFor();
  await region(page, en['signedIn.title']).getByText(en['package.WIFI_EMPLOYEE_PACKAGE']).waitFor();

  // The employee form is hidden now; the input, found by its label, must be empty.
  t.is(await page.getByLabel(en['employee.citizenId']).inputValue(), '');
  t.false(page.url().includes('079201001234'));
  const stored = await page.evaluate(() => JSON.stringify([{ ...localStorage }, { ...sessionStorage }, document.cookie, history.length]));
  t.false(stored.includes('079201001234'));
  t.false((await page.content()).includes('079201001234'));
  t.false(JSON.stringify(await phone.context.cookies()).includes('079201001234'));
  await phone.finish('signed-in-employee-en');
});

test.serial('sign-out returns to the sign-in page and the portal session is gone', async (t) => {
  const phone = await openPhone(t, t.context.browser, URLS.portal);
  const { page } = phone;
  await page.goto('/');
  await signInAsBob(page);
  await region(page, en['signedIn.title']).getByRole('button', { name: en['signedIn.signOut'] }).click();
  await page.getByRole('heading', { name: en['signin.title'] }).waitFor();
  await page.getByRole('status').getByText(en['status.signedOut']).waitFor();
  t.is((await sessionRead(page)).authenticated, false);
  await phone.finish('signed-out-en');
});

test.serial('the first paint follows Accept-Language, the switch changes the language in place and the choice is remembered', async (t) => {
  const phone = await openPhone(t, t.context.browser, URLS.portal, 'vi-VN');
  const { page } = phone;
  await page.goto('/');
  t.is(await page.locator('html').getAttribute('lang'), 'vi');
  await page.getByRole('heading', { name: vi['signin.title'] }).waitFor();
  await phone.finish('signin-vi');
  await page.getByRole('link', { name: vi['nav.employee'] }).click();
  await region(page, vi['employee.title']).getByRole('button', { name: vi['employee.submit'] }).click();
  await page.getByText(vi['invalid.employeeId']).waitFor();
  await phone.finish('employee-invalid-vi');

  await page.getByRole('link', { name: 'English' }).click();
  t.is(await page.locator('html').getAttribute('lang'), 'en');
  await page.getByRole('heading', { name: en['employee.title'] }).waitFor();
  await page.getByText(en['invalid.employeeId']).waitFor();
  t.is(await page.getByRole('link', { name: 'English' }).getAttribute('aria-current'), 'true');

  await page.reload();
  t.is(await page.locator('html').getAttribute('lang'), 'en');
  await page.getByRole('heading', { name: en['employee.title'] }).waitFor();
  await phone.finish('employee-en-after-switch');
});

test.serial('the keyboard alone reaches every control in order, and Enter submits', async (t) => {
  const phone = await openPhone(t, t.context.browser, URLS.portal);
  const { page } = phone;
  await page.goto('/');
  await page.getByRole('heading', { name: en['signin.title'] }).waitFor();
  const order: string[] = [];
  for (let i = 0; i < 10; i += 1) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement;
      return { name: element.id || element.textContent || '', outline: getComputedStyle(element).outlineStyle };
    });
    order.push(focused.name);
    t.is(focused.outline, 'solid', `${focused.name} shows where the focus is`);
  }
  t.deepEqual(order, [
    'Tiếng Việt',
    'English',
    en['nav.signin'],
    en['nav.register'],
    en['nav.employee'],
    en['nav.voucher'],
    en['nav.phone'],
    'signin-email',
    'signin-password',
    en['signin.submit'],
  ]);
  await page.keyboard.press('Enter');
  const field = region(page, en['signin.title']).getByLabel(en['signin.email']);
  t.is(await field.getAttribute('aria-invalid'), 'true');
  t.true(await field.evaluate((element) => element === document.activeElement), 'focus moves to the first bad field');
  await phone.finish('keyboard-invalid-en');
});

test.serial("at the countdown's zero the page re-reads the session and, when it has ended, says so and shows sign-in", async (t) => {
  const phone = await openPhone(t, t.context.browser, URLS.portal);
  const { page } = phone;
  // Only the session read is replaced, to reach zero in seconds instead of the real hour.
  const reads: string[] = [];
  await page.route('**/api/v1/auth/session', (route) => {
    const ending = {
      authenticated: true,
      correlationId: `corr-${randomUUID()}`,
      client: 'wifi-portal-api',
      claims: { preferred_username: 'bob@example.com' },
      entitlement: { entitlementType: 'WIFI_CUSTOMER_BASIC', permission: { tier: 'BASIC', qosClass: 'STANDARD', deviceSlots: 1 } },
      session: { state: 'GRANTED', tier: 'BASIC', qosClass: 'STANDARD', expiresAt: new Date(Date.now() + 2000).toISOString() },
    };
    reads.push(new Date().toISOString());
    return route.fulfill({ json: reads.length === 1 ? ending : { authenticated: false, correlationId: `corr-${randomUUID()}` } });
  });
  await page.goto('/');
  await page.getByRole('timer').waitFor();
  await page.getByRole('status').getByText(en['status.ended']).waitFor();
  await page.getByRole('heading', { name: en['signin.title'] }).waitFor();
  t.is(reads.length, 2);
  await phone.finish('session-ended-en');
});

test.serial('a network failure during sign-in shows the connection text', async (t) => {
  const phone = await openPhone(t, t.context.browser, URLS.portal);
  const { page } = phone;
  await page.route('**/api/v1/auth/login', (route) => route.abort('internetdisconnected'));
  await page.goto('/');
  const form = region(page, en['signin.title']);
  await form.getByLabel(en['signin.email']).fill('bob@example.com');
  await form.getByLabel(en['signin.password']).fill('bob-demo-pass');
  await form.getByRole('button', { name: en['signin.submit'] }).click();
  await form.getByRole('alert').getByText(en['error.network']).waitFor();
  await phone.finish('network-failure-en');
});

test.serial('behind a gateway the page hands the device to the gateway login with its one-time credential, and says it is connecting', async (t) => {
  const phone = await openPhone(t, t.context.browser, URLS.portal);
  const { page } = phone;
  // As CoovaChilli sends a captive device: the portal keeps the context and shows the clean page.
  const arrival = new URLSearchParams({
    res: 'notyet',
    uamip: '127.0.0.1',
    uamport: '3990',
    challenge: '00112233445566778899aabbccddeeff',
    mac: '02-B0-B0-00-00-01',
    nasid: 'demo-nas',
    userurl: 'http://example.com/',
  });
  await page.goto(coovaArrival(Object.fromEntries(arrival), demoNas().uamSecret));
  t.is(new URL(page.url()).pathname, '/');
  t.false(page.url().includes('02-B0-B0'), 'the MAC leaves the address bar');
  const handedOver = page.waitForEvent('requestfailed', { predicate: (request) => request.url().startsWith('http://127.0.0.1:3990/logon') });
  const form = region(page, en['signin.title']);
  await form.getByLabel(en['signin.email']).fill('bob@example.com');
  await form.getByLabel(en['signin.password']).fill('bob-demo-pass');
  await form.getByRole('button', { name: en['signin.submit'] }).click();
  const login = new URL((await handedOver).url());
  t.regex(login.searchParams.get('username') ?? '', /^\S{8,}$/);
  t.regex(login.searchParams.get('response') ?? '', /^[0-9a-f]{32}$/, 'UAM CHAP: the response, never the password');
  t.is(login.searchParams.get('password'), null);
  t.is(login.searchParams.get('userurl'), 'http://example.com/');
  // The captive window would now follow the gateway; here the only request that left the portal
  // is that one (the phone aborts it), and the page's CSP allowed exactly it.
  t.deepEqual(
    phone.foreignRequests.map((url) => new URL(url).origin + new URL(url).pathname),
    ['http://127.0.0.1:3990/logon'],
  );
  t.deepEqual(phone.pageProblems, []);
  // The aborted hand-over leaves this tab on an error page: the person opens the portal again.
  const again = await phone.context.newPage();
  await again.goto('/');
  await again.getByRole('heading', { name: en['signedIn.connecting'] }).waitFor();
  t.like(await sessionRead(again), { connection: { state: 'CONNECTING', connected: false } });
  await again.request.post('/api/v1/auth/logout', { headers: { origin: URLS.portal } });
});

test.serial(
  'CoovaChilli end to end: the chilli\'s 302 brings the phone to the portal, the sign-in sends it to /logon, the chilli logs it in through FreeRADIUS and sends it back with res=success: "You are connected"',
  async (t) => {
    const chilli = await startFakeChilli({
      port: 3990,
      portalUrl: URLS.portal,
      uamSecret: demoNas().uamSecret,
      nasId: 'demo-nas',
      nasSecret: 'demo-nas-secret',
      authPort: Number(process.env['RADIUS_AUTH_PORT'] ?? 1812),
      mac: '02-B0-B0-00-00-02',
      userurl: 'http://example.com/',
    });
    t.teardown(() => chilli.close());
    const phone = await openPhone(t, t.context.browser, URLS.portal, 'en-US', ['http://127.0.0.1:3990']);
    const { page } = phone;
    await page.goto('http://127.0.0.1:3990/generate_204');
    t.is(new URL(page.url()).pathname, '/', 'the chilli sent the phone to the portal, which kept the context');
    const form = region(page, en['signin.title']);
    await form.getByLabel(en['signin.email']).fill('bob@example.com');
    await form.getByLabel(en['signin.password']).fill('bob-demo-pass');
    await form.getByRole('button', { name: en['signin.submit'] }).click();
    await page.getByRole('heading', { name: 'You are connected' }).waitFor({ timeout: 20_000 });
    t.deepEqual(chilli.logins, [{ code: 'Access-Accept' }]);
    t.regex(await page.locator('body').innerText(), /reconnects by itself/);
    t.true(await page.getByRole('link', { name: /example\.com/ }).isVisible(), 'the way back is a plain link');
    t.deepEqual(phone.pageProblems, []);
    await phone.finish('coovachilli-connected-en');
    await page.request.post(`${URLS.portal}/api/v1/auth/logout`, { headers: { origin: URLS.portal } });
  },
);
