import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import test from 'ava';
import { deviceRefFor } from '../../../edge/index.js';
import { putCompany, uniqueCode } from '../../kc-extension/svc-admin/contract/companies-contract.js';
import { signedHeaders } from '../../kc-extension/svc-admin/contract/webhook-signing.js';
import { eapolTest } from '../../services/gateway/eapol.js';
import { adminApi, adminToken } from '../keycloak/kc-client.js';
import { URLS } from '../platform-urls.js';
import { kcDriver } from '../svc-admin/kc-driver.js';

// 802.1X ends with the entitlement: an employee's device credential, accepted by the platform's
// FreeRADIUS through a real supplicant, is refused at its next authentication once the company's
// HR reports the employee terminated (svc-admin's webhook ends their network sessions).
const GATEWAY = process.env.GATEWAY_URL ?? 'http://127.0.0.1:3004';
const AUTH_PORT = Number(process.env.RADIUS_AUTH_PORT ?? 1812);
const DATA_DIR = process.env.PLATFORM_DATA_DIR;
const REALM = 'wifi.example.net';

async function post(url: string, key: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'X-API-Key': key },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

test("an HR termination makes the employee's 802.1X device credential refuse at its next authentication", async (t) => {
  if (DATA_DIR === undefined) return t.fail('PLATFORM_DATA_DIR: run through scripts/test-run.ts');
  const d = await kcDriver();
  t.teardown(() => d.close());
  const master = await adminToken();
  const code = uniqueCode('EAP');
  const secret = 'terminate-eap-secret-0123456789';
  await putCompany(d, code, { name: 'Devices', secret });
  const username = `emp-eap-${randomUUID().slice(0, 8)}`;
  const employeeRef = `REF-${randomUUID()}`;
  await adminApi(master, 'POST', '/users', {
    username,
    enabled: true,
    attributes: { user_type: ['EMPLOYEE'], employee_ref: [employeeRef], company: [code], employee_verified: ['true'] },
  });
  const id = ((await adminApi(master, 'GET', `/users?exact=true&username=${username}`)) as { id: string }[])[0]!.id;
  const sessionKey = 'dev-session-tools-key';
  const deviceRef = deviceRefFor('dev-device-ref-key-0001', 'demo-nas', '02-E2-E2-00-0E-02')!;
  const sessionId = String((await post(`${URLS.session}/api/v1/sessions`, sessionKey, { subjectId: id, deviceRef })).body['sessionId']);
  const grant = { entitlementId: `ent-${randomUUID()}`, tier: 'BOOST', qosClass: 'HIGH', validUntil: new Date(Date.now() + 3_600_000).toISOString() };
  t.is((await post(`${URLS.session}/api/v1/sessions/${sessionId}/grant`, sessionKey, grant)).status, 200);
  const issued = await post(`${GATEWAY}/api/v1/devices`, 'dev-gateway-tools-key', { sessionId, label: 'work laptop', maxDevices: 2 });
  t.is(issued.status, 201);
  const { username: identity, password, anonymousIdentity } = issued.body as { username: string; password: string; anonymousIdentity: string };
  const connect = () =>
    eapolTest(AUTH_PORT, 'demo-nas-secret', {
      identity,
      password,
      anonymousIdentity,
      caFile: join(DATA_DIR, 'freeradius-ca', 'ca.pem'),
      serverName: `radius.${REALM}`,
      mac: '02:e2:e2:00:0e:02',
    });
  const before = await connect();
  t.true(before.success, before.output.slice(-2000));

  const body = Buffer.from(JSON.stringify({ type: 'EMPLOYEE_TERMINATED', employeeRef }));
  const reply = await d.send({ method: 'POST', path: `/webhook/${code}`, body, headers: signedHeaders(secret, body, Math.floor(Date.now() / 1000)) });
  t.like(reply, { status: 200, body: { result: 'APPLIED' } });
  const after = await connect();
  t.false(after.success, "the terminated employee's device is refused");
  t.regex(after.output, /\(Access-Reject\)/);
});
