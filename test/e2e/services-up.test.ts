import test from 'ava';
import { URLS } from './platform-urls.js';

// The platform runner started these as processes on their spec ports; an absent one fails here.
for (const [name, url] of [
  ['hr', URLS.hr],
  ['loyalty', URLS.loyalty],
  ['decision', URLS.decision],
] as const) {
  test(`${name} runs as its own process on its spec port and answers health`, async (t) => {
    const response = await fetch(`${url}/health`);
    t.is(response.status, 200);
    t.like(await response.json(), { status: 'UP', service: name });
    t.regex(String(response.headers.get('x-correlation-id')), /^corr-/);
  });
}

test('the HR process verifies a demo employee over real HTTP with its default key', async (t) => {
  const response = await fetch(`${URLS.hr}/api/v1/employees/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'X-API-Key': 'dev-hr-tools-key' },
    body: JSON.stringify({ employeeId: 'B-2001', citizenId: '079202003456' }),
  });
  t.is(response.status, 200);
  t.like(await response.json(), { verified: true, active: true, company: 'MEMBER_B' });
});

test('the loyalty process answers a demo member over real HTTP with its default key', async (t) => {
  const response = await fetch(`${URLS.loyalty}/api/v1/members/lookup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'X-API-Key': 'dev-loyalty-tools-key' },
    body: JSON.stringify({ email: 'silver@demo.example' }),
  });
  t.is(response.status, 200);
  t.like(await response.json(), { found: true, tier: 'SILVER' });
});

test('the decision process evaluates WifiEntitlement from dmn/models over real HTTP', async (t) => {
  const response = await fetch(`${URLS.decision}/api/v1/decisions/WifiEntitlement/evaluate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ inputs: { userType: 'EMPLOYEE', employeeVerified: true, company: 'MEMBER_B' }, decision: 'WifiEntitlement' }),
  });
  t.is(response.status, 200);
  const body = (await response.json()) as { results: Record<string, Record<string, unknown>> };
  t.like(body.results.WifiEntitlement, { eligible: true, entitlementType: 'WIFI_EMPLOYEE_PACKAGE', ttlSeconds: 14400 });
});
