import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { PortalConfig } from '../../../services/portal/config.js';
import { createIdpClient } from '../../../services/portal/idp-client.js';

// The token endpoint's answers, reduced (idp-client.ts): a 4xx is a refusal; a 5xx is an outage,
// except the employee authenticator's own 503/504 with an OAuth error body (HR down or late).
async function tokenEndpoint(t: import('ava').ExecutionContext, status: number, body: unknown) {
  const server = createServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const config = PortalConfig.parse({ IDP_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
  return createIdpClient(config);
}

const CORR = 'corr-123e4567-e89b-42d3-a456-426614174000';

const cases: [string, number, unknown, unknown][] = [
  ['401 invalid_grant is a refusal', 401, { error: 'invalid_grant' }, { kind: 'refused', error: 'invalid_grant', status: 401 }],
  [
    "503 with the authenticator's error is a refusal the portal maps",
    503,
    { error: 'hr_unavailable' },
    { kind: 'refused', error: 'hr_unavailable', status: 503 },
  ],
  ["504 with the authenticator's error is a refusal the portal maps", 504, { error: 'hr_timeout' }, { kind: 'refused', error: 'hr_timeout', status: 504 }],
  ['503 without an error body is an outage', 503, { message: 'maintenance' }, { kind: 'unreachable', status: 503 }],
  ['504 without an error body is an outage', 504, {}, { kind: 'unreachable', status: 504 }],
  ['500 is an outage even with an error body', 500, { error: 'unknown_error' }, { kind: 'unreachable', status: 500 }],
];

for (const [name, status, body, expected] of cases) {
  test(name, async (t) => {
    const idp = await tokenEndpoint(t, status, body);
    t.deepEqual(await idp.passwordGrant('bob@example.com', 'bob-demo-pass', CORR), expected);
  });
}

test('a token endpoint that cannot be reached is an outage that says so', async (t) => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  const idp = createIdpClient(PortalConfig.parse({ IDP_URL: `http://127.0.0.1:${port}` }));
  t.deepEqual(await idp.passwordGrant('bob@example.com', 'bob-demo-pass', CORR), { kind: 'unreachable', failure: 'unreachable' });
});

test('employee grants go to IDP_EMPLOYEE_URL when it is set, customer grants to IDP_URL', async (t) => {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ access_token: 'a', refresh_token: 'r' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const idp = createIdpClient(PortalConfig.parse({ IDP_URL: origin, IDP_EMPLOYEE_URL: `${origin}/employee` }));
  t.is((await idp.employeeGrant('C-3002', '079203005678', CORR)).kind, 'tokens');
  t.is((await idp.passwordGrant('bob@example.com', 'bob-demo-pass', CORR)).kind, 'tokens');
  await idp.logout('wifi-portal-employee-api', 'r', CORR);
  t.deepEqual(paths, [
    '/employee/realms/wifi/protocol/openid-connect/token',
    '/realms/wifi/protocol/openid-connect/token',
    '/employee/realms/wifi/protocol/openid-connect/logout',
  ]);
});

test('an employee grant tells Keycloak the client address in X-Forwarded-For; a customer grant sends none', async (t) => {
  const seen: Array<string | undefined> = [];
  const server = createServer((req, res) => {
    seen.push(req.headers['x-forwarded-for'] as string | undefined);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ access_token: 'a', refresh_token: 'r' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const idp = createIdpClient(PortalConfig.parse({ IDP_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
  await idp.employeeGrant('C-3002', '079203005678', CORR, '198.51.100.23');
  await idp.passwordGrant('bob@example.com', 'bob-demo-pass', CORR);
  t.deepEqual(seen, ['198.51.100.23', undefined]);
});
