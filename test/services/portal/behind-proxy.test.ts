import test from 'ava';
import { Agent, fetch } from 'undici';
import { freePort } from '../../helpers/free-port.js';
import { startTlsProxy } from '../../helpers/nginx.js';
import { bootPortal } from './portal-fakes.js';

// Behind a TLS-terminating proxy (a real nginx) the portal still works: sign-ins
// from the https origin are accepted and the cookie is Secure; forwarded headers are believed
// only from the configured proxies.
const BOB = { username: 'bob@example.com', password: 'bob-demo-pass' };

async function through(proxy: { url: string; ca: string }, path: string, init: { method?: string; cookie?: string } = {}) {
  const response = await fetch(`${proxy.url}${path}`, {
    method: init.method ?? 'GET',
    dispatcher: new Agent({ connect: { ca: proxy.ca } }),
    headers: {
      ...(init.method === 'POST' ? { 'content-type': 'application/json', origin: proxy.url } : {}),
      ...(init.cookie === undefined ? {} : { cookie: init.cookie }),
    },
    ...(init.method === 'POST' ? { body: JSON.stringify(path.endsWith('/login') ? BOB : {}) } : {}),
  });
  return { status: response.status, setCookie: response.headers.get('set-cookie') ?? '', body: (await response.json()) as Record<string, unknown> };
}

for (const [how, settings] of [
  ['its public URL is the https origin', (origin: string) => ({ PORTAL_PUBLIC_URL: origin })],
  ['it trusts the proxy on loopback', () => ({ PORTAL_TRUSTED_PROXIES: 'loopback' })],
] as const) {
  test(`behind nginx terminating TLS, when ${how}: sign-in, session read and logout work and the cookie is Secure`, async (t) => {
    const port = await freePort();
    const portal = await bootPortal(t, undefined, settings(`https://localhost:${port}`));
    const proxy = await startTlsProxy(t, portal.url, port);
    const login = await through(proxy, '/api/v1/auth/login', { method: 'POST' });
    t.is(login.status, 200, JSON.stringify(login.body));
    t.regex(login.setCookie, /^sid=[^;]+;.*HttpOnly/);
    t.regex(login.setCookie, /; Secure/);
    const cookie = login.setCookie.split(';')[0] ?? '';
    t.like((await through(proxy, '/api/v1/auth/session', { cookie })).body, { authenticated: true });
    t.like((await through(proxy, '/api/v1/auth/logout', { method: 'POST', cookie })).body, { ok: true });
  });
}

test('forwarded headers from a proxy that is not configured are not believed: an https origin is refused and the cookie is not Secure', async (t) => {
  const portal = await bootPortal(t);
  const proxy = await startTlsProxy(t, portal.url, await freePort());
  const login = await through(proxy, '/api/v1/auth/login', { method: 'POST' });
  t.is(login.status, 403);
  t.is(login.body['code'], 'FORBIDDEN');
  // Straight to the portal, a forged X-Forwarded-Proto changes nothing either.
  const direct = await portal.request('POST', '/api/v1/auth/login', { json: BOB, headers: { origin: portal.url, 'x-forwarded-proto': 'https' } });
  t.is(direct.status, 200);
  t.notRegex(direct.headers.get('set-cookie') ?? '', /Secure/);
});
