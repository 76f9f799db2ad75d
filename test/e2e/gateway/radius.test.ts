import { randomUUID } from 'node:crypto';
import test from 'ava';
import { deviceRefFor } from '../../../edge/index.js';
import { waitFor } from '../../helpers/wait-for.js';
import { hexText, radclient } from '../../services/gateway/radclient.js';
import { URLS } from '../platform-urls.js';

// The RADIUS side on the started platform: the demo NAS logs a device in through FreeRADIUS on its
// configured port, reports accounting, and a revoke queues a Disconnect for it.
const GATEWAY = process.env.GATEWAY_URL ?? 'http://127.0.0.1:3004';
const AUTH_PORT = Number(process.env.RADIUS_AUTH_PORT ?? 1812);
const ACCT_PORT = Number(process.env.RADIUS_ACCT_PORT ?? 1813);
const NAS = 'demo-nas';
const SECRET = 'demo-nas-secret';
const MAC = '02-E2-E2-00-00-01';
const session = { 'content-type': 'application/json', 'X-API-Key': 'dev-session-tools-key' };
const gateway = { 'content-type': 'application/json', 'X-API-Key': 'dev-gateway-tools-key' };

async function post(url: string, headers: Record<string, string>, body?: unknown) {
  const response = await fetch(url, { method: 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

test('the demo NAS logs a device in through FreeRADIUS, accounting shows it connected, a revoke ends it', async (t) => {
  const deviceRef = deviceRefFor('dev-device-ref-key-0001', NAS, MAC)!;
  const sessionId = String((await post(`${URLS.session}/api/v1/sessions`, session, { subjectId: randomUUID(), deviceRef })).body['sessionId']);
  const validUntil = new Date(Date.now() + 1_800_000).toISOString();
  t.is(
    (
      await post(`${URLS.session}/api/v1/sessions/${sessionId}/grant`, session, {
        entitlementId: `ent-${randomUUID()}`,
        tier: 'BASIC',
        qosClass: 'STANDARD',
        validUntil,
      })
    ).status,
    200,
  );
  const issued = await post(`${GATEWAY}/api/v1/credentials`, gateway, { sessionId, deviceRef, nasId: NAS });
  t.is(issued.status, 201);
  const { username, password } = issued.body as { username: string; password: string };
  const accept = await radclient(AUTH_PORT, 'auth', SECRET, [`User-Name = "${username}"`, `User-Password = "${password}"`, `Calling-Station-Id = "${MAC}"`]);
  t.is(accept.code, 'Access-Accept');
  t.is(hexText(accept.attributes['Class']), sessionId);
  t.true(Number(accept.attributes['Session-Timeout']) > 1700);
  const start = await radclient(ACCT_PORT, 'acct', SECRET, [
    `User-Name = "${username}"`,
    'Acct-Status-Type = Start',
    `Acct-Session-Id = "e2e-${sessionId}"`,
    `Class = ${accept.attributes['Class']}`,
  ]);
  t.is(start.code, 'Accounting-Response');
  const connection = async () => (await (await fetch(`${GATEWAY}/api/v1/connections/${sessionId}`, { headers: gateway })).json()) as Record<string, unknown>;
  // FreeRADIUS posts it to the gateway service before answering (it would buffer and replay it if that failed).
  t.like(await waitFor(connection, (body) => body['connected'] === true, { timeoutMs: 15_000 }), { state: 'CONNECTED', connected: true, nasId: NAS });
  t.is((await post(`${URLS.session}/api/v1/sessions/${sessionId}/revoke`, session)).status, 200);
  // The demo NAS is not listening for CoA here: the Disconnect is queued and tried.
  await waitFor(connection, (body) => body['disconnect'] !== null, { timeoutMs: 10_000 });
  const replay = await radclient(AUTH_PORT, 'auth', SECRET, [`User-Name = "${username}"`, `User-Password = "${password}"`, `Calling-Station-Id = "${MAC}"`]);
  t.is(replay.code, 'Access-Reject');
});
