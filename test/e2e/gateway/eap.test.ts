import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import test from 'ava';
import { deviceRefFor } from '../../../edge/index.js';
import { eapolTest } from '../../services/gateway/eapol.js';
import { URLS } from '../platform-urls.js';

// 802.1X on the started platform: its FreeRADIUS does EAP-TTLS with the certificate of the
// platform's own CA (made under the run's own folder), the device credential the gateway service
// issued is accepted by a real supplicant (eapol_test) and refused once the sign-in is revoked.
const GATEWAY = process.env.GATEWAY_URL ?? 'http://127.0.0.1:3004';
const AUTH_PORT = Number(process.env.RADIUS_AUTH_PORT ?? 1812);
const NAS = 'demo-nas';
const SECRET = 'demo-nas-secret';
const REALM = 'wifi.example.net';
const DATA_DIR = process.env.PLATFORM_DATA_DIR;
const session = { 'content-type': 'application/json', 'X-API-Key': 'dev-session-tools-key' };
const gateway = { 'content-type': 'application/json', 'X-API-Key': 'dev-gateway-tools-key' };

async function post(url: string, headers: Record<string, string>, body?: unknown) {
  const response = await fetch(url, { method: 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

test("the platform's FreeRADIUS accepts an issued device credential over EAP-TTLS/PAP and refuses it after a revoke", async (t) => {
  if (DATA_DIR === undefined) return t.fail('PLATFORM_DATA_DIR: run through scripts/test-run.ts');
  const deviceRef = deviceRefFor('dev-device-ref-key-0001', NAS, '02-E2-E2-00-0E-01')!;
  const sessionId = String((await post(`${URLS.session}/api/v1/sessions`, session, { subjectId: randomUUID(), deviceRef })).body['sessionId']);
  const validUntil = new Date(Date.now() + 1_800_000).toISOString();
  const grant = { entitlementId: `ent-${randomUUID()}`, tier: 'BASIC', qosClass: 'STANDARD', validUntil };
  t.is((await post(`${URLS.session}/api/v1/sessions/${sessionId}/grant`, session, grant)).status, 200);
  const issued = await post(`${GATEWAY}/api/v1/devices`, gateway, { sessionId, label: 'e2e phone' });
  t.is(issued.status, 201);
  const { username, password, anonymousIdentity } = issued.body as { username: string; password: string; anonymousIdentity: string };
  const supplicant = {
    identity: username,
    password,
    anonymousIdentity,
    caFile: join(DATA_DIR, 'freeradius-ca', 'ca.pem'),
    serverName: `radius.${REALM}`,
  };
  const accepted = await eapolTest(AUTH_PORT, SECRET, supplicant);
  t.true(accepted.success, accepted.output.slice(-2000));
  t.is(Buffer.from(accepted.attributes['Class'] ?? '', 'hex').toString(), sessionId);
  t.true(Number(accepted.attributes['Session-Timeout']) > 1700);
  t.is((await post(`${URLS.session}/api/v1/sessions/${sessionId}/revoke`, session)).status, 200);
  t.false((await eapolTest(AUTH_PORT, SECRET, supplicant)).success);
});
