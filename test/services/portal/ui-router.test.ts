import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import anyTest, { type ExecutionContext, type TestFn } from 'ava';
import express from 'express';
import { acceptCorrelationId, CORRELATION_HEADER, errorMiddleware, notFound } from '../../../services/kit/index.js';
import { bundleUi } from '../../../services/portal/ui/bundle.js';
import { createUiRouter } from '../../../services/portal/ui-router.js';
import { assertError } from '../../helpers/error-shape.js';
import { boot, type Booted } from '../../helpers/service.js';

const test = anyTest as TestFn<{ rootDir: string }>;

test.before(async (t) => {
  t.context.rootDir = mkdtempSync(join(tmpdir(), 'portal-ui-'));
  await bundleUi(t.context.rootDir);
});
test.after.always((t) => rmSync(t.context.rootDir, { recursive: true, force: true }));

/**
 * The router with the kit's correlation id, 404 and error middleware around it, as in the portal's
 * stack (not the kit's service app itself: the checker of `boot` refuses a page its OpenAPI
 * document does not list, and the pages are not API).
 */
function portalWithUi(rootDir: string) {
  const app = express();
  app.use((req, res, next) => {
    res.locals.correlationId = acceptCorrelationId(req.get(CORRELATION_HEADER));
    res.set(CORRELATION_HEADER, res.locals.correlationId as string);
    next();
  });
  app.use(createUiRouter({ rootDir }));
  app.get('/api/v1/meta', (_req, res) => {
    res.json({ mode: 'api' });
  });
  app.use(notFound);
  app.use(errorMiddleware);
  return app;
}

async function start(t: ExecutionContext<{ rootDir: string }>): Promise<Booted> {
  return boot(t, portalWithUi(t.context.rootDir));
}

function assetUrls(html: string): string[] {
  return [...html.matchAll(/(?:src|href)="(\/ui\/[^"]+)"/g)].map((m) => m[1]!);
}

const CSP_DIRECTIVES = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
];

test('the index is served with a same-origin-only CSP, nosniff, no-referrer and no-store', async (t) => {
  const portal = await start(t);
  const answer = await portal.request('GET', '/');
  t.is(answer.status, 200);
  t.is(answer.headers.get('content-type'), 'text/html; charset=utf-8');
  const csp = (answer.headers.get('content-security-policy') ?? '').split(';').map((d) => d.trim());
  for (const directive of CSP_DIRECTIVES) t.true(csp.includes(directive), directive);
  t.false(/unsafe-inline|unsafe-eval|https?:|\*/.test(csp.join(';')), 'nothing beyond self');
  t.is(answer.headers.get('x-content-type-options'), 'nosniff');
  t.is(answer.headers.get('referrer-policy'), 'no-referrer');
  t.is(answer.headers.get('cache-control'), 'no-store');
});

test('the page loads nothing from elsewhere and has no inline script, style or handler', async (t) => {
  const portal = await start(t);
  const { text } = await portal.request('GET', '/');
  t.notRegex(text, /(?:src|href|action)="(?:https?:)?\/\//i);
  t.notRegex(text, /<style|\sstyle=|\son[a-z]+=/i);
  for (const script of text.matchAll(/<script\b[^>]*>/g)) t.regex(script[0], /\ssrc="\/ui\//);
  t.notRegex(text, /\{\{|\}\}/, 'every placeholder filled');
});

test('assets are served under content-hashed URLs, long-cached, with their type, nosniff and gzip', async (t) => {
  const portal = await start(t);
  const urls = assetUrls((await portal.request('GET', '/')).text);
  t.deepEqual(new Set(urls.map((u) => u.replace(/\.[0-9a-f]{12}\./, '.'))), new Set(['/ui/icon.svg', '/ui/app.css', '/ui/app.js']));
  const types: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8', svg: 'image/svg+xml' };
  for (const url of new Set(urls)) {
    const answer = await portal.request('GET', url, { headers: { 'accept-encoding': 'gzip' } });
    t.is(answer.status, 200, url);
    t.is(answer.headers.get('content-type'), types[url.split('.').pop() ?? ''] ?? 'a known extension');
    t.is(answer.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    t.is(answer.headers.get('x-content-type-options'), 'nosniff');
    t.is(answer.headers.get('content-encoding'), 'gzip');
    t.true(answer.text.length > 0);
  }
});

test('an unknown asset or a stale hash falls through to the portal 404 error object', async (t) => {
  const portal = await start(t);
  assertError(t, await portal.request('GET', '/ui/app.000000000000.js'), 404, 'NOT_FOUND');
  assertError(t, await portal.request('GET', '/ui/en.json'), 404, 'NOT_FOUND');
});

const LANGUAGE_CASES: Array<[string, Record<string, string>, 'en' | 'vi']> = [
  ['a Vietnamese browser', { 'accept-language': 'vi-VN,vi;q=0.9,en;q=0.8' }, 'vi'],
  ['an English browser', { 'accept-language': 'en-GB,en;q=0.9' }, 'en'],
  ['a preference weighted towards Vietnamese', { 'accept-language': 'fr-FR, en;q=0.4, vi;q=0.7' }, 'vi'],
  ['an unsupported language only', { 'accept-language': 'fr-FR,fr;q=0.9' }, 'en'],
  ['no header', {}, 'en'],
  ['the lang cookie over the header', { 'accept-language': 'vi', cookie: 'sid=abc; lang=en' }, 'en'],
  ['a bad lang cookie', { 'accept-language': 'vi', cookie: 'lang=de' }, 'vi'],
];

for (const [name, headers, expected] of LANGUAGE_CASES) {
  test(`the first paint's language is decided on the server: ${name} gets ${expected}`, async (t) => {
    const portal = await start(t);
    const answer = await portal.request('GET', '/', { headers });
    t.regex(answer.text, new RegExp(`<html lang="${expected}">`));
    t.regex(answer.text, new RegExp(`data-lang="${expected}" aria-current="true"`));
    t.regex(answer.headers.get('vary') ?? '', /Accept-Language/);
    t.regex(answer.headers.get('vary') ?? '', /Cookie/);
  });
}

test('the switch link remembers the choice in a SameSite=Strict cookie and redirects to the clean address', async (t) => {
  const portal = await start(t);
  const answer = await fetch(`${portal.url}/?lang=vi`, { redirect: 'manual' });
  t.is(answer.status, 303);
  t.is(answer.headers.get('location'), '/');
  t.regex(answer.headers.get('set-cookie') ?? '', /^lang=vi; Max-Age=31536000; Path=\/; Expires=[^;]+; SameSite=Strict$/);
  const ignored = await portal.request('GET', '/?lang=de', { headers: { 'accept-language': 'en' } });
  t.is(ignored.status, 200);
  t.is(ignored.headers.get('set-cookie'), null);
});

test("the router answers only GET of its own paths; the API stays the portal's", async (t) => {
  const portal = await start(t);
  t.is((await portal.request('GET', '/api/v1/meta')).body.mode, 'api');
  assertError(t, await portal.request('POST', '/', { json: {} }), 404, 'NOT_FOUND');
  t.is((await portal.request('HEAD', '/')).status, 200);
});

test('an unbuilt UI answers 503 with the error object and leaves the API working', async (t) => {
  const empty = mkdtempSync(join(tmpdir(), 'portal-ui-empty-'));
  t.teardown(() => rmSync(empty, { recursive: true, force: true }));
  const portal = await boot(t, portalWithUi(empty));
  assertError(t, await portal.request('GET', '/'), 503, 'SERVICE_UNAVAILABLE');
  t.is((await portal.request('GET', '/api/v1/meta')).status, 200);
});
