import type { BrowserContext, Page } from 'playwright-core';
import { IDP_URL } from '../keycloak/kc-client.js';
import { MODULE_URL } from './kc-driver.js';

/** A GUI page watched as every svc-admin browser test watches it: what left Keycloak's origin, and every CSP violation or uncaught error. */
export interface WatchedPage {
  page: Page;
  /** Requests to another origin, aborted. */
  foreign: string[];
  /** CSP violations (with the element that broke the policy) and uncaught script errors. */
  problems: string[];
}

/**
 * Opens a page of the context that may reach Keycloak's origin only (and `blob:` downloads when
 * asked), reports every CSP violation with its directive and element, and every uncaught error.
 */
export async function watchedPage(context: BrowserContext, options: { blobs?: boolean } = {}): Promise<WatchedPage> {
  const origin = new URL(IDP_URL).origin;
  const foreign: string[] = [];
  const problems: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (new URL(url).origin === origin || (options.blobs === true && url.startsWith('blob:'))) return route.continue();
    foreign.push(url);
    return route.abort('blockedbyclient');
  });
  const page = await context.newPage();
  await page.addInitScript(() =>
    document.addEventListener(
      'securitypolicyviolation',
      (e) => console.error(`CSP ${e.violatedDirective} ${e.sample} ${(e.target as Element).outerHTML?.slice(0, 300)}`),
      true,
    ),
  );
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Content-Security-Policy|^CSP /i.test(message.text())) problems.push(message.text());
  });
  return { page, foreign, problems };
}

/** Signs the demo operator in through Keycloak's login page (PKCE) and waits for the first page. */
export async function signInOperator(page: Page): Promise<void> {
  await page.goto(`${MODULE_URL}/`);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('#username').fill('svc-operator');
  await page.locator('#password').fill(process.env['SVC_OPERATOR_PASSWORD'] ?? 'operator-demo-pass');
  await page.locator('#kc-login').click();
  await page.getByRole('heading', { name: 'Companies' }).waitFor();
}
