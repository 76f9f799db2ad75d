import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { SETTINGS } from '../../../kc-extension/employee-auth/settings.js';
import { adminApi, adminToken, employeeGrant, randomEmployeeId, requireServices } from './kc-client.js';

interface Execution {
  providerId?: string;
  authenticationConfig?: string;
}
interface AuthenticatorConfig {
  id: string;
  alias: string;
  config: Record<string, string>;
}

/**
 * An HR stand-in that counts the verify calls it receives and answers each "no match" only after
 * a pause, so the twenty submits are all in flight together at Keycloak.
 */
async function countingHr(): Promise<{ server: Server; url: string; calls: () => number }> {
  let calls = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      calls += 1;
      setTimeout(() => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ verified: false, active: false, reason: 'NOT_FOUND_OR_MISMATCH' }));
      }, 1000);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls: () => calls };
}

test.before(requireServices);

test('20 parallel wrong submits for one employee id: at most 5 reach HR, the rest are rate limited', async (t) => {
  const hr = await countingHr();
  const master = await adminToken();
  const executions = (await adminApi(master, 'GET', `/authentication/flows/${encodeURIComponent('employee direct grant')}/executions`)) as Execution[];
  const configId = executions.find((execution) => execution.providerId === 'wifi-employee-authenticator')?.authenticationConfig;
  if (configId === undefined) throw new Error('the employee authenticator has no config');
  const original = (await adminApi(master, 'GET', `/authentication/config/${configId}`)) as AuthenticatorConfig;
  t.teardown(async () => {
    await adminApi(await adminToken(), 'PUT', `/authentication/config/${configId}`, original);
    hr.server.close();
  });
  await adminApi(master, 'PUT', `/authentication/config/${configId}`, { ...original, config: { ...original.config, hrUrl: hr.url, hrAttempts: '1' } });

  const employeeId = randomEmployeeId('PARALLEL');
  const replies = await Promise.all(Array.from({ length: 20 }, () => employeeGrant(employeeId, '079201009999')));
  const statuses = replies.map((reply) => reply.status);
  t.true(hr.calls() <= 5, `${hr.calls()} submits reached HR`);
  t.is(statuses.filter((status) => status === 401).length, hr.calls());
  t.is(statuses.filter((status) => status === 429).length, 20 - hr.calls());
  t.like((await employeeGrant(employeeId, '079201009999')).body, { error: 'rate_limited' });
});

test('the admin console offers exactly the settings of settings.ts, with their defaults and the key as a secret', async (t) => {
  const description = (await adminApi(await adminToken(), 'GET', '/authentication/config-description/wifi-employee-authenticator')) as {
    properties: Array<{ name: string; label: string; defaultValue?: unknown; secret?: boolean }>;
  };
  t.deepEqual(
    description.properties.map((p) => ({ name: p.name, label: p.label, default: p.defaultValue ?? undefined, secret: p.secret === true })),
    SETTINGS.map((s) => ({ name: s.name, label: s.label, default: 'default' in s ? s.default : undefined, secret: s.kind === 'secret' })),
  );
});
