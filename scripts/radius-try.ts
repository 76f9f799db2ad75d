// A gateway login against the running platform (`make up`), as a NAS would do it: a network
// session is opened and granted at the session service (what the portal does after a sign-in),
// the gateway service issues a one-time credential for the device, and radclient sends the
// Access-Request and an Accounting Start through FreeRADIUS. Prints what came back.
import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { createSealer, loadConfig } from '../services/kit/index.js';
import { loadGatewayRegistry, deviceRefFor } from '../edge/index.js';
import { GatewayConfig } from '../services/gateway/config.js';

const MAC = process.argv[2] ?? 'AA-BB-CC-DD-EE-FF';
const config = loadConfig(GatewayConfig);
const gateway = [...loadGatewayRegistry(config.GATEWAYS_FILE, createSealer(config.GATEWAY_SEAL_KEY)).values()].find((g) => g.secret !== undefined)!;
const deviceRef = deviceRefFor(config.DEVICE_REF_KEY, gateway.nasId, MAC)!;
const radius = `${process.env['RADIUS_LISTEN'] ?? '127.0.0.1'}`;

async function post(url: string, key: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'X-API-Key': key }, body: JSON.stringify(body) });
  const answer = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

// The tools keys of the session and gateway services: this script plays the portal's part, under keys of its own.
const sessionKey = process.env['SESSION_TOOLS_KEY'] ?? 'dev-session-tools-key';
const session = await post(`${config.SESSION_URL}/api/v1/sessions`, sessionKey, { subjectId: randomUUID(), deviceRef });
const sessionId = String(session['sessionId']);
await post(`${config.SESSION_URL}/api/v1/sessions/${sessionId}/grant`, sessionKey, {
  entitlementId: `ent-${randomUUID()}`,
  entitlementType: 'WIFI_CUSTOMER_BASIC',
  tier: 'BASIC',
  qosClass: 'STANDARD',
  validUntil: new Date(Date.now() + 3_600_000).toISOString(),
});
const gatewayKey = process.env['GATEWAY_TOOLS_KEY'] ?? 'dev-gateway-tools-key';
const credential = await post(`http://127.0.0.1:${process.env['GATEWAY_PORT'] ?? 3004}/api/v1/credentials`, gatewayKey, {
  sessionId,
  deviceRef,
  nasId: gateway.nasId,
});
process.stdout.write(`session ${sessionId} granted; one-time credential issued for device ${MAC}\n`);
const send = (port: string, type: string, lines: string[]) =>
  spawnSync('radclient', ['-x', `${radius}:${port}`, type, gateway.secret ?? ''], { input: lines.join('\n'), stdio: ['pipe', 'inherit', 'inherit'] });
send(process.env['RADIUS_AUTH_PORT'] ?? '1812', 'auth', [
  `User-Name = "${String(credential['username'])}"`,
  `User-Password = "${String(credential['password'])}"`,
  `Calling-Station-Id = "${MAC}"`,
  'Message-Authenticator = 0x00',
]);
send(process.env['RADIUS_ACCT_PORT'] ?? '1813', 'acct', [
  `User-Name = "${String(credential['username'])}"`,
  'Acct-Status-Type = Start',
  `Acct-Session-Id = "try-${Date.now()}"`,
  `Class = "${sessionId}"`,
]);
process.stdout.write(
  `connection state (CONNECTED once FreeRADIUS answered the Start; during a gateway outage, once its buffer replays it): GET http://127.0.0.1:${process.env['GATEWAY_PORT'] ?? 3004}/api/v1/connections/${sessionId} (X-API-Key: the tools key, GATEWAY_TOOLS_KEY)\n`,
);
