import test from 'ava';
import { samples } from '../../helpers/prometheus.js';
import { URLS } from '../platform-urls.js';
import { PortalBrowser } from '../portal/portal-client.js';

// Every service serves GET /metrics in Prometheus text format; its series exist and
// move with the traffic, and no label carries a person, a password, a citizen number or a MAC.
const GATEWAY = process.env.GATEWAY_URL ?? 'http://127.0.0.1:3004';
const SERVICES = { ...URLS, gateway: GATEWAY } as const;

async function scrape(url: string): Promise<string> {
  const response = await fetch(`${url}/metrics`);
  if (response.status !== 200) throw new Error(`${url}/metrics answered ${response.status}`);
  if (!String(response.headers.get('content-type')).startsWith('text/plain')) throw new Error(`${url}/metrics is not text/plain`);
  return response.text();
}

/** The sum of a metric's samples whose labels include every pair given. */
function total(text: string, name: string, labels: Record<string, string> = {}): number {
  return samples(text)
    .filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
    .reduce((sum, sample) => sum + sample.value, 0);
}

for (const [name, url] of Object.entries(SERVICES).filter(([key]) => key !== 'idp')) {
  test(`${name} serves its metrics: requests by route and status move with each request`, async (t) => {
    const before = total(await scrape(url), 'http_requests_total', { route: '/health', status: '200' });
    t.is((await fetch(`${url}/health`)).status, 200);
    const text = await scrape(url);
    t.true(total(text, 'http_requests_total', { route: '/health', status: '200' }) >= before + 1);
    t.true(total(text, 'http_request_duration_seconds_count', { route: '/health' }) >= 1);
    t.true(total(text, 'process_cpu_seconds_total') > 0);
    t.true(total(text, 'process_resident_memory_bytes') > 0);
  });
}

test.serial('a sign-in moves the portal sign-in counter and the portal outbound calls; refusals count by code, and no label names anyone', async (t) => {
  const before = await scrape(URLS.portal);
  t.is((await new PortalBrowser().login('bob@example.com', 'bob-demo-pass')).status, 200);
  t.is((await new PortalBrowser().login('bob@example.com', 'a-wrong-password')).status, 401);
  const after = await scrape(URLS.portal);
  t.is(
    total(after, 'portal_sign_ins_total', { kind: 'customer', outcome: 'signed_in' }) -
      total(before, 'portal_sign_ins_total', { kind: 'customer', outcome: 'signed_in' }),
    1,
  );
  t.is(total(after, 'portal_sign_ins_total', { code: 'INVALID_CREDENTIALS' }) - total(before, 'portal_sign_ins_total', { code: 'INVALID_CREDENTIALS' }), 1);
  t.true(total(after, 'outbound_calls_total', { outcome: 'status_2xx' }) > total(before, 'outbound_calls_total', { outcome: 'status_2xx' }));
  for (const text of [after, await scrape(URLS.entitlement), await scrape(URLS.session), await scrape(GATEWAY)]) {
    t.false(/bob@example\.com|demo-pass|wrong-password|sess-[0-9a-f]{8}|([0-9a-f]{2}[:-]){5}[0-9a-f]{2}/i.test(text));
  }
  t.true(total(await scrape(URLS.entitlement), 'circuit_breaker_state', { breaker: 'loyalty' }) === 0);
});
