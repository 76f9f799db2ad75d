import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import anyTest, { type ExecutionContext, type TestFn } from 'ava';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { requireTools } from './host-tools.js';

/** Debian's chromium (make debian-packages installs it); playwright downloads no browser. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOT_DIR = join('test-output', 'screenshots');
requireTools([CHROMIUM_PATH], 'make debian-packages installs it (make test runs it), or set CHROMIUM_PATH');

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true });
}

/** ava's test function for a file whose tests share one Chromium: launched before them, closed after them. */
export function browserTest(): TestFn<{ browser: Browser }> {
  const test = anyTest as TestFn<{ browser: Browser }>;
  test.before(async (t) => {
    t.context.browser = await launchBrowser();
  });
  test.after.always(async (t) => {
    await t.context.browser?.close();
  });
  return test;
}

/** A landmark region of the page, by its accessible name. */
export const region = (page: Page, name: string) => page.getByRole('region', { name });

export interface Phone {
  page: Page;
  context: BrowserContext;
  /** Requests that tried to leave the portal's origin (each was aborted). */
  foreignRequests: string[];
  /** Content-Security-Policy violations and uncaught script errors seen on the page. */
  pageProblems: string[];
  /** Writes `test-output/screenshots/<name>.png` and fails the test on any foreign request or page problem. */
  finish(name: string): Promise<void>;
}

/**
 * A phone-sized page (390x844, touch) whose requests may reach only `baseUrl`'s origin, like
 * the OS captive-network window where nothing else is reachable yet. `locale` sets Accept-Language.
 */
export async function openPhone(t: ExecutionContext, browser: Browser, baseUrl: string, locale = 'en-US', alsoReachable: string[] = []): Promise<Phone> {
  const origin = new URL(baseUrl).origin;
  // The gateway itself is reachable from a captive device (its login page): a test names it.
  const reachable = new Set([origin, ...alsoReachable.map((url) => new URL(url).origin)]);
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale,
  });
  t.teardown(() => context.close());
  const foreignRequests: string[] = [];
  const pageProblems: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (reachable.has(new URL(url).origin)) return route.continue();
    foreignRequests.push(url);
    return route.abort('blockedbyclient');
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => pageProblems.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) pageProblems.push(message.text());
  });
  return {
    page,
    context,
    foreignRequests,
    pageProblems,
    async finish(name) {
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
      t.deepEqual(foreignRequests, [], 'no request left the portal origin');
      t.deepEqual(pageProblems, [], 'no CSP violation or script error');
    },
  };
}
