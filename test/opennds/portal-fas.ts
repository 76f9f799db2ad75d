// Debian's openNDS 9.10 in network namespaces with the platform's own portal as its FAS (the
// registry's demo-opennds, fixtures/gateways.json), for the end-to-end tests of test/e2e/opennds/:
// the harness, the relay from the FAS port in the internet namespace to the portal (which runs
// outside the namespaces: scripts/opennds/fas-relay.ts), router/revocation-poll.sh on the
// gateway, and the calls the tests make. Started, it waits until the gateway's authmon polls the
// platform (the portal takes arrivals only then). Needs root (host-support.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stopChild } from '../../scripts/child-process.js';
import { waitFor } from '../../scripts/opennds/command.js';
import { bridgeToTcp } from '../../scripts/opennds/fas-relay.js';
import { startHarness, untilGatewayPolls, type Harness } from '../../scripts/opennds/harness.js';
import type { FasOptions } from '../../scripts/opennds/opennds-config.js';
import type { ClientHost } from '../../scripts/opennds/topology.js';
import { get, reachesInternet } from './client-http.js';
import { fasPlatform, type FasAllowance, type FasGatewaySettings, type FasPlatform } from './fas-platform.js';
import { browse as browseAs, signInThroughPortal, type Reply } from './portal-client.js';

export const NAS = 'demo-opennds';
export const FASKEY = 'demo-opennds-faskey-0123456789';
/** authmon's and revocation-poll.sh's interval on the test gateway. */
export const POLL_S = 1;
/** authmon sleeps 5 s before its first poll; the sign-in may be a Keycloak password grant. */
export const OPEN_MS = 30_000;
/** Every end of a network session reaches the gateway within 15 s. */
export const REVOKE_MS = 15_000;
const REVOCATION_POLL = fileURLToPath(new URL('../../edge/router/revocation-poll.sh', import.meta.url));

export interface PortalFas {
  platform: FasPlatform;
  harness: Harness;
  client(index: number): ClientHost;
  /** The internet server's plain-http page. */
  internetUrl: string;
  /** The portal as the clients reach it (through the relay). */
  fasOrigin: string;
  browse(host: ClientHost, url: string, json?: unknown): Promise<Reply>;
  signIn(host: ClientHost): Promise<{ sessionId: string; fasUrl: string }>;
  reaches(host: ClientHost): Promise<boolean>;
  untilThrough(host: ClientHost): Promise<void>;
  untilCutOff(host: ClientHost, timeoutMs?: number): Promise<void>;
  connectionOf(sessionId: string): Promise<Record<string, unknown>>;
  untilConnection(sessionId: string, state: 'CONNECTED' | 'DISCONNECTED'): Promise<Record<string, unknown>>;
  sessionOf(sessionId: string): Promise<Record<string, unknown>>;
  revoke(sessionId: string): Promise<number>;
  /** `ndsctl deauth <ip>` at the gateway (openNDS's own end of the client). */
  deauthAtGateway(host: ClientHost): Promise<void>;
  /** `ndsctl json <ip>`: openNDS's view of the client. */
  atGateway(host: ClientHost): Promise<Record<string, unknown>>;
  /** The lines BinAuth (Debian's binauth_log.sh) logged at the gateway so far, MACs removed: what its notices carried. */
  binauthLog(): Promise<string[]>;
  stop(): Promise<void>;
}

export async function startPortalFas(options: {
  clients: number;
  inProcess?: boolean;
  secureLevel?: FasOptions['secureLevel'];
  revocationPoll?: boolean;
  /** In-process only: the allowance every sign-in's entitlement carries. */
  allowance?: FasAllowance;
  /** In-process only: gateway settings (fas-platform.ts). */
  gateway?: FasGatewaySettings;
}): Promise<PortalFas> {
  const folder = mkdtempSync(join(tmpdir(), 'ndst-portal-'));
  const socket = join(folder, 'portal.sock');
  const secureLevel = options.secureLevel ?? 3;
  const stops: Array<() => Promise<void>> = [async () => rmSync(folder, { recursive: true, force: true })];
  const stop = async () => {
    for (const part of stops.reverse()) await part();
  };
  try {
    const platform = await fasPlatform(
      options.inProcess === true
        ? {
            inProcess: true,
            ...(options.allowance === undefined ? {} : { allowance: options.allowance }),
            ...(options.gateway === undefined ? {} : { gateway: options.gateway }),
          }
        : {},
    );
    stops.push(() => platform.stop());
    const bridge: Server = await bridgeToTcp(socket, Number(new URL(platform.portal).port), new URL(platform.portal).hostname);
    stops.push(() => new Promise<void>((resolve) => bridge.close(() => resolve())));
    const port = secureLevel === 3 ? 8443 : 8090;
    const harness = await startHarness({
      clients: options.clients,
      gatewayName: NAS,
      fas: { port, path: `/opennds/${NAS}`, secureLevel, key: FASKEY },
      fasRelaySocket: socket,
      gateway: { authmonPollSeconds: POLL_S, binauth: '/usr/lib/opennds/binauth_log.sh', checkIntervalSeconds: 2 },
    });
    stops.push(harness.stop);
    if (options.revocationPoll !== false) {
      const poller = harness.gateway.runScript(REVOCATION_POLL, [String(POLL_S)]);
      stops.push(() => stopChild(poller));
    }
    if (secureLevel === 3) await untilGatewayPolls(platform.gateway, NAS);
    const internetUrl = `http://${harness.topology.internet.ip}/hello`;
    const fasOrigin = `${secureLevel === 3 ? 'https' : 'http'}://${harness.topology.internet.ip}:${port}`;
    const reaches = async (host: ClientHost) => reachesInternet(await get(host, internetUrl));
    const connectionOf = async (sessionId: string) => {
      const answer = await fetch(`${platform.gateway}/api/v1/connections/${sessionId}`, { headers: { 'X-API-Key': 'dev-gateway-tools-key' } });
      return (await answer.json()) as Record<string, unknown>;
    };
    return {
      platform,
      harness,
      client(index) {
        const host = harness.topology.clients[index];
        if (host === undefined) throw new Error(`no client ${index}`);
        return host;
      },
      internetUrl,
      fasOrigin,
      browse: (host, url, json) => browseAs(folder, host, url, json),
      signIn: (host) => signInThroughPortal(folder, host, internetUrl, fasOrigin, NAS),
      reaches,
      async untilThrough(host) {
        await waitFor('the client reaches the server', async () => ((await reaches(host)) ? true : undefined), OPEN_MS, 250);
      },
      async untilCutOff(host, timeoutMs = REVOKE_MS) {
        await waitFor('the client is cut off', async () => ((await reaches(host)) ? undefined : true), timeoutMs, 250);
      },
      connectionOf,
      untilConnection: (sessionId, state) =>
        waitFor(
          `the connection view reads ${state}`,
          async () => {
            const connection = await connectionOf(sessionId);
            return connection['state'] === state ? connection : undefined;
          },
          15_000,
          250,
        ),
      async sessionOf(sessionId) {
        const answer = await fetch(`${platform.session}/api/v1/sessions/${sessionId}`, { headers: { 'X-API-Key': 'dev-session-tools-key' } });
        return (await answer.json()) as Record<string, unknown>;
      },
      async revoke(sessionId) {
        return (await fetch(`${platform.session}/api/v1/sessions/${sessionId}/revoke`, { method: 'POST', headers: { 'X-API-Key': 'dev-session-tools-key' } }))
          .status;
      },
      // ndsctl fails to take its lock while authmon or revocation-poll runs it: tried again then.
      async deauthAtGateway(host) {
        await waitFor(
          'ndsctl deauth',
          async () => (/deauthenticated/.test((await harness.gateway.ndsctl('deauth', host.ip)).stdout) ? true : undefined),
          10_000,
          200,
        );
      },
      atGateway: (host) =>
        waitFor(
          'ndsctl json answers',
          async () => {
            const answer = await harness.gateway.ndsctl('json', host.ip);
            try {
              return JSON.parse(answer.stdout) as Record<string, unknown>;
            } catch {
              return undefined;
            }
          },
          10_000,
          200,
        ),
      async binauthLog() {
        // The log is in the gateway's private /tmp: a router script prints it into openNDS's output.
        const script = join(folder, 'binauth-log.sh');
        writeFileSync(script, '#!/bin/sh\nsed "s/^/binauth-log: /" /tmp/ndslog/binauthlog.log >&2\n');
        const child = harness.gateway.runScript(script, []);
        await new Promise((resolve) => child.on('exit', resolve));
        const lines = harness.gateway
          .output()
          .split('\n')
          .filter((line) => line.includes('binauth-log: '));
        return [...new Set(lines.map((line) => line.slice(line.indexOf('binauth-log: ') + 13)))];
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
