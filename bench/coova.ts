// `npm run bench:coova`: a real CoovaChilli, 1.8 and 1.9 (scripts/ensure-coova.sh), in network
// namespaces (scripts/coova/harness.ts) in front of the platform, as test/e2e/coova/venue.test.ts
// runs it, RUNS rounds per release. Each round: the captive page's redirect, the portal's arrival,
// the customer's sign-in; from the sign-in's answer to the first byte through chilli (the page's
// /logon at chilli, RADIUS through FreeRADIUS and the gateway service, chilli opening the
// device); then from the session service's revoke answer to the device captive again (the change
// feed, the gateway service's Disconnect-Request, chilli's ACK). p50 and p95 per release.
// With PLATFORM_UP=1 it uses the platform already on the spec ports (scripts/test-run.ts, or
// `make up` with TEST_HARNESS off is enough); otherwise it starts one itself (Keycloak fresh, as
// the test run does; hold /tmp/wifi-platform.lock, the ports are fixed). Each probe is one curl
// from the client's namespace (a process start, ~10-30 ms), which bounds the resolution. Root.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { COOVA_GATEWAYS } from '../scripts/coova/gateways.js';
import { RELEASES, startChilli, type RunningChilli } from '../scripts/coova/harness.js';
import { waitFor } from '../scripts/opennds/command.js';
import { ROOT, startPlatform, type Platform } from '../scripts/platform.js';
import { get, reachesInternet } from '../test/opennds/client-http.js';
import { browse } from '../test/opennds/portal-client.js';
import { machine, msSummary, writeResult } from './lib/load.js';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 20);
const PORTAL = process.env['PORTAL_PUBLIC_URL'] ?? 'http://localhost:3000';
const SESSION = process.env['SESSION_URL'] ?? 'http://127.0.0.1:3003';
const RADIUS = { server: '127.0.0.1', auth: Number(process.env['RADIUS_AUTH_PORT'] ?? 1812), acct: Number(process.env['RADIUS_ACCT_PORT'] ?? 1813) };
const CUSTOMER = { username: 'bob@example.com', password: 'bob-demo-pass' };

if (process.getuid?.() !== 0) {
  process.stderr.write("bench:coova needs root (network namespaces, chilli's tun device)\n");
  process.exit(1);
}
if (spawnSync(join(ROOT, 'scripts', 'ensure-coova.sh'), { stdio: 'inherit' }).status !== 0) process.exit(1);

/** One round: sign-in answered -> first byte through chilli; revoke answered -> captive again. */
async function round(chilli: RunningChilli): Promise<{ signInToFirstByte: number; revokeToCaptive: number }> {
  const captive = await waitFor(
    'a captive redirect',
    async () => {
      const answer = await get(chilli.client, chilli.internetUrl);
      return answer.status === 302 ? answer.location : undefined;
    },
    10_000,
    20,
  );
  const arrival = await browse(chilli.folder, chilli.client, captive);
  if (arrival.status !== 303) throw new Error(`arrival: ${arrival.status} ${arrival.body.slice(0, 200)}`);
  const login = await browse(chilli.folder, chilli.client, `${PORTAL}/api/v1/auth/login`, CUSTOMER);
  const answeredAt = performance.now();
  const body = JSON.parse(login.body) as { gateway?: { loginUrl: string; fields: Record<string, string> } };
  const sessionId = /"(sess-[0-9a-f-]{36})"/.exec(login.body)?.[1];
  if (login.status !== 200 || sessionId === undefined || body.gateway === undefined) throw new Error(`sign-in: ${login.status} ${login.body.slice(0, 200)}`);
  // The page's next step, as its script takes it: the browser to chilli's /logon.
  const logon = await browse(chilli.folder, chilli.client, `${body.gateway.loginUrl}?${new URLSearchParams(body.gateway.fields).toString()}`);
  if (!logon.location.includes('res=success')) throw new Error(`logon: ${logon.status} ${logon.location.replace(/mac=[^&]*/, 'mac=<mac>')}`);
  await waitFor('through after the sign-in', async () => (reachesInternet(await get(chilli.client, chilli.internetUrl)) ? true : undefined), 15_000, 5);
  const signInToFirstByte = performance.now() - answeredAt;
  const revoked = await fetch(`${SESSION}/api/v1/sessions/${sessionId}/revoke`, { method: 'POST', headers: { 'X-API-Key': 'dev-session-tools-key' } });
  const revokedAt = performance.now();
  if (revoked.status !== 200) throw new Error(`revoke answered ${revoked.status}`);
  await waitFor('captive after the revoke', async () => (reachesInternet(await get(chilli.client, chilli.internetUrl)) ? undefined : true), 15_000, 5);
  return { signInToFirstByte, revokeToCaptive: performance.now() - revokedAt };
}

let platform: Platform | undefined;
const scratch = mkdtempSync(join(tmpdir(), 'cvt-bench-'));
const releases: Record<string, unknown> = {};
try {
  if (process.env['PLATFORM_UP'] !== '1') {
    process.env['KC_RUN_DIR'] ??= join(ROOT, '.run', 'keycloak-test');
    process.env['KC_LOG_FILE'] ??= `${process.env['KC_RUN_DIR']}.log`;
    if (spawnSync(join(ROOT, 'scripts', 'kc.sh'), ['build'], { stdio: 'inherit' }).status !== 0) throw new Error('scripts/kc.sh build failed');
    platform = await startPlatform({
      keycloak: true,
      freshKeycloak: true,
      env: { DATA_DIR: join(scratch, 'data'), RADIUS_RUN_DIR: join(scratch, 'freeradius') },
    });
  }
  for (const release of RELEASES) {
    const chilli = await startChilli({ release, ...COOVA_GATEWAYS[release], portal: PORTAL, radius: RADIUS });
    const signInToFirstByte: number[] = [];
    const revokeToCaptive: number[] = [];
    try {
      await chilli.lease();
      for (let run = 0; run < RUNS; run += 1) {
        const measured = await round(chilli);
        signInToFirstByte.push(measured.signInToFirstByte);
        revokeToCaptive.push(measured.revokeToCaptive);
      }
    } finally {
      await chilli.stop();
    }
    releases[release] = { signInToFirstByteMs: msSummary(signInToFirstByte), revokeToCaptiveMs: msSummary(revokeToCaptive) };
  }
} finally {
  await platform?.stop();
  rmSync(scratch, { recursive: true, force: true });
}

const result = {
  machine: machine(),
  loadAverage: loadavg().map((x) => Math.round(x * 100) / 100),
  platform: platform === undefined ? 'already started (PLATFORM_UP=1)' : 'started by the bench (Keycloak fresh, every service on PGlite, FreeRADIUS)',
  releases,
};
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
process.stdout.write(`written to ${writeResult('coova', result)}\n`);
