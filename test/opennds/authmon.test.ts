import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { parseDeauthNotice } from '../../edge/controllers/opennds-authmon.js';
import { decryptFasQuery, hidOfToken, rhidOf } from '../../edge/opennds-crypto.js';
import { stopChild } from '../../scripts/child-process.js';
import { waitFor } from '../../scripts/opennds/command.js';
import { startHarness, type Harness } from '../../scripts/opennds/harness.js';
import type { ClientHost } from '../../scripts/opennds/topology.js';
import { get, reachesInternet } from './client-http.js';
import { enforcementSkipReason } from './host-support.js';

// FAS level 3: the query goes to an https FAS, and openNDS's authmon (a shell loop on
// the gateway, PHP for https) polls the FAS for clients to authorise, so a remote FAS signs a
// client in without any connection into the router. The FAS here is fas-stub.ts with its own
// certificate, which only the gateway's PHP is told to trust (SSL_CERT_FILE).
const FASKEY = 'ndst-level3-faskey-0123456789';
const GATEWAY_NAME = 'ndst-venue-3';
const FAS_PORT = 8443;
const FAS_PATH = '/opennds/fas';
const POLL_S = 1;
// authmon sleeps 5 s before its first poll (authmon.sh), then polls every POLL_S.
const FIRST_POLL_MS = 30_000;
const DEADLINE_MS = 10_000;
const REVOCATION_POLL = fileURLToPath(new URL('../../edge/router/revocation-poll.sh', import.meta.url));

const skipReason = await enforcementSkipReason();

let harness: Harness | undefined;

function need(): Harness {
  if (harness === undefined) throw new Error('harness not started');
  return harness;
}

function client(): ClientHost {
  const host = need().topology.clients[0];
  if (host === undefined) throw new Error('no client');
  return host;
}

const internetUrl = () => `http://${need().topology.internet.ip}/hello`;

if (skipReason !== undefined) {
  test.skip(`openNDS FAS level 3 and authmon: ${skipReason}`, (t) => t.pass());
} else {
  test.before(async () => {
    harness = await startHarness({
      clients: 1,
      gatewayName: GATEWAY_NAME,
      fas: { port: FAS_PORT, path: FAS_PATH, secureLevel: 3, key: FASKEY },
      // Debian's BinAuth example: at level 3 it tells the FAS of every deauthentication.
      gateway: { authmonPollSeconds: POLL_S, binauth: '/usr/lib/opennds/binauth_log.sh' },
    });
  });

  test.after.always(async () => {
    await harness?.stop();
  });

  test.afterEach.always((t) => {
    if (!t.passed && harness !== undefined) t.log(`openNDS output (MACs removed):\n${harness.gateway.output().slice(-4000)}`);
  });

  test.serial("a level 3 FAS authorises a client through authmon's poll, with the session length it queued", async (t) => {
    const host = client();
    const captive = await get(host, internetUrl());
    t.is(captive.status, 307);
    const location = new URL(captive.location);
    t.is(
      `${location.protocol}//${location.host}${location.pathname}`,
      `https://${need().topology.internet.ip}:${FAS_PORT}${FAS_PATH}`,
      'level 3 enforces https',
    );
    const query = decryptFasQuery(location.searchParams.get('fas') ?? '', location.searchParams.get('iv') ?? '', FASKEY);
    t.is(query?.clientip, host.ip);
    t.is(query?.gatewayname, GATEWAY_NAME);
    t.is((await get(host, captive.location, true)).status, 200, 'the https FAS is reachable before sign-in');

    const firstView = await waitFor("authmon's first poll", async () => need().internet.authmonRequests.find((r) => r.action === 'view'), FIRST_POLL_MS, 200);
    t.true(
      need().internet.authmonRequests.some((r) => r.action === 'clear'),
      'authmon clears stale entries on start',
    );
    t.is(firstView.gatewayhash, createHash('sha256').update(GATEWAY_NAME).digest('hex'), 'gatewayhash = sha256(gatewayname): how a FAS tells gateways apart');
    t.false(reachesInternet(await get(host, internetUrl())), 'still captive before the FAS queues it');

    const rhid = rhidOf(query?.hid ?? '', FASKEY);
    const queuedAt = Date.now();
    const custom = Buffer.from('ndst-session').toString('base64');
    need().internet.authorise({ rhid, sessionMinutes: 30, uploadKbitPerSecond: 0, downloadKbitPerSecond: 0, uploadQuotaKB: 0, downloadQuotaKB: 0, custom });
    await waitFor(
      'client reaches the server after authmon',
      async () => (reachesInternet(await get(host, internetUrl())) ? true : undefined),
      DEADLINE_MS,
      200,
    );
    t.log(`queued at the FAS -> first byte through the gateway: ${Date.now() - queuedAt} ms (poll ${POLL_S} s)`);
    await waitFor('authmon acknowledges the rhid', async () => need().internet.authmonRequests.find((r) => r.payload.includes(rhid)), DEADLINE_MS, 200);

    const state = JSON.parse((await need().gateway.ndsctl('json', host.ip)).stdout) as { state?: string; session_end?: string; session_start?: string };
    t.is(state.state, 'Authenticated');
    t.is(Number(state.session_end) - Number(state.session_start), 30 * 60, 'the session length the FAS queued');
  });

  test.serial('a revocation at the FAS ends the session through revocation-poll.sh within 15 s, and BinAuth reports it back naming the session', async (t) => {
    const host = client();
    const query = await waitFor(
      'the FAS arrival of the client',
      async () => {
        const arrival = need().internet.fasRequests.at(-1);
        if (arrival === undefined) return undefined;
        const url = new URL(arrival, 'https://fas.invalid');
        return decryptFasQuery(url.searchParams.get('fas') ?? '', url.searchParams.get('iv') ?? '', FASKEY);
      },
      DEADLINE_MS,
    );
    t.true(reachesInternet(await get(host, internetUrl())), 'authorised by the previous test');
    const rhid = rhidOf(query.hid, FASKEY);
    // Run from a folder under /tmp, as from a clone made there: inside the gateway's namespaces
    // /tmp is a tmpfs of its own, so the harness must hand the router its own copy.
    const folder = mkdtempSync(join(tmpdir(), 'ndst-router-script-'));
    t.teardown(() => rmSync(folder, { recursive: true, force: true }));
    copyFileSync(REVOCATION_POLL, join(folder, 'revocation-poll.sh'));
    const poller = need().gateway.runScript(join(folder, 'revocation-poll.sh'), [String(POLL_S)]);
    try {
      const revokedAt = Date.now();
      need().internet.revoke(rhid);
      await waitFor('client cut off after the revocation', async () => (reachesInternet(await get(host, internetUrl())) ? undefined : true), 15_000, 200);
      t.log(`revoked at the FAS -> cut off at the gateway: ${Date.now() - revokedAt} ms (poll ${POLL_S} s)`);
      await waitFor(
        'the poller reports the rhid ended',
        async () => need().internet.authmonRequests.find((r) => r.action === 'custom' && r.payload === `revoked ${rhid}`),
        DEADLINE_MS,
        200,
      );
    } finally {
      await stopChild(poller);
    }
    const notice = await waitFor(
      'deauthed notice at the FAS',
      async () => need().internet.authmonRequests.find((r) => r.action === 'deauthed'),
      DEADLINE_MS,
      200,
    );
    const parsed = parseDeauthNotice(notice.payload);
    t.is(parsed?.method, 'ndsctl_deauth', 'why the session ended');
    t.is(hidOfToken(parsed?.token ?? ''), query.hid, 'sha256(token) is the hid the FAS saw on arrival: it finds its session');
    t.true((parsed?.sessionEnd ?? 0) >= (parsed?.sessionStart ?? 1), 'session times in the notice');
    t.false(JSON.stringify(parsed).includes(host.mac), 'the parsed notice holds no MAC');
    t.is(notice.gatewayhash, createHash('sha256').update(GATEWAY_NAME).digest('hex'));
  });
}
