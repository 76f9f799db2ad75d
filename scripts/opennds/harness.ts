// The whole openNDS harness in one call, for the tests, the bench and opennds-try.ts: the
// namespaces, the internet server with its stand-in FAS (https with a throw-away certificate for
// level 3), and openNDS pointed at that FAS. `stop` undoes all of it; so does a failed start.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from './command.js';
import { startGateway, type RunningGateway } from './gateway.js';
import { startInternet, type RunningInternet } from './internet.js';
import type { FasOptions, OpenndsOptions } from './opennds-config.js';
import { selfSignedCertificate } from './tls-certificate.js';
import { createTopology, LAN_INTERFACE, removeTopology, type Topology } from './topology.js';

export interface HarnessOptions {
  clients: number;
  /** How many of the clients get a DHCP lease (openNDS refuses the others); all by default. */
  leased?: number;
  gatewayName: string;
  /** The FAS as openNDS is told of it; its address is the internet namespace's. */
  fas: Omit<FasOptions, 'remoteIp'>;
  /**
   * The FAS is a real portal outside the namespaces, reached through this Unix socket (fas-relay.ts
   * `bridgeToTcp` serves it): the internet namespace's FAS port relays to it.
   */
  fasRelaySocket?: string;
  gateway?: Pick<OpenndsOptions, 'checkIntervalSeconds' | 'authmonPollSeconds' | 'binauth' | 'sessionTimeoutMinutes'>;
}

export interface Harness {
  topology: Topology;
  internet: RunningInternet;
  gateway: RunningGateway;
  stop(): Promise<void>;
}

export async function startHarness(options: HarnessOptions): Promise<Harness> {
  const topology = await createTopology({ clients: options.clients });
  const stops: Array<() => Promise<void>> = [() => removeTopology(topology)];
  const stop = async () => {
    for (const part of stops.reverse()) await part();
  };
  try {
    const https = options.fas.secureLevel === 3;
    const certDir = https ? mkdtempSync(join(tmpdir(), 'ndst-cert-')) : undefined;
    if (certDir !== undefined) stops.push(async () => rmSync(certDir, { recursive: true, force: true }));
    const tls = certDir === undefined ? undefined : await selfSignedCertificate(certDir, topology.internet.ip);
    const internet = await startInternet(topology.internet.ns, {
      web: 80,
      fas: options.fas.port,
      ...(tls === undefined ? {} : { fasTls: tls }),
      ...(options.fasRelaySocket === undefined ? {} : { fasRelaySocket: options.fasRelaySocket }),
    });
    stops.push(internet.stop);
    const gateway = await startGateway(
      topology.gateway.ns,
      { ...options.gateway, interface: LAN_INTERFACE, gatewayName: options.gatewayName, fas: { ...options.fas, remoteIp: topology.internet.ip } },
      topology.clients.slice(0, options.leased ?? options.clients),
      tls === undefined ? {} : { trustCaFile: tls.certFile },
    );
    stops.push(gateway.stop);
    return { topology, internet, gateway, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Waits until the platform's gateway service counts the openNDS gateway as polling (its authmon
 * reached the portal: about 5 s after openNDS starts): the portal refuses arrivals before that
 * (a gateway at level 2 or with authmon stopped). `key` has the credentials scope.
 */
export async function untilGatewayPolls(gatewayServiceUrl: string, nasId: string, key = 'dev-gateway-tools-key', timeoutMs = 30_000): Promise<void> {
  await waitFor(
    `openNDS gateway ${nasId} polls the platform`,
    async () => {
      const answer = await fetch(`${gatewayServiceUrl}/api/v1/opennds/gateways/${encodeURIComponent(nasId)}`, { headers: { 'X-API-Key': key } }).catch(
        () => undefined,
      );
      if (answer === undefined || !answer.ok) return undefined;
      return ((await answer.json()) as { polling?: unknown }).polling === true ? true : undefined;
    },
    timeoutMs,
    250,
  );
}
