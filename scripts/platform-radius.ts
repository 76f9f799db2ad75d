// FreeRADIUS as the platform runs it: installed when missing (ensure-freeradius.sh),
// configured under .run/freeradius from fixtures/gateways.json (the gateway service's own file and
// seal key), its rest module pointed at the gateway service, in the foreground, stopped by pid.
import { spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { createSealer, envPort, loadConfig } from '../services/kit/index.js';
import { loadGatewayRegistry } from '../edge/index.js';
import { GatewayConfig } from '../services/gateway/config.js';
import { startFreeradius, writeFreeradiusConfig } from '../edge/freeradius-site.js';
import { ensureEapCertificates } from '../edge/radius-ca.js';

const RadiusSettings = z.object({
  RADIUS_AUTH_PORT: envPort(1812).describe('FreeRADIUS authentication port (UDP).'),
  RADIUS_ACCT_PORT: envPort(1813).describe('FreeRADIUS accounting port (UDP).'),
  RADIUS_LISTEN: z.union([z.ipv4(), z.ipv6()]).default('127.0.0.1').describe('Address FreeRADIUS listens on; 0.0.0.0 for a real controller on the network.'),
  GATEWAY_URL: z.url().default('http://127.0.0.1:3004').describe('The gateway service, as FreeRADIUS reaches it.'),
  RADIUS_REPLAY_RETRY_SECONDS: z.coerce
    .number()
    .int()
    .min(4)
    .max(3600)
    .default(5)
    .describe('How long the accounting replay waits before handing an entry the gateway service did not take to it again (FreeRADIUS allows 4 to 3600).'),
  RADIUS_EAP_CERT_FILE: z
    .string()
    .optional()
    .describe(
      "802.1X server certificate (PEM, its chain after it); with RADIUS_EAP_KEY_FILE and RADIUS_EAP_CA_FILE. Unset: the platform's own CA makes one next to FreeRADIUS's folder (<run folder>-ca).",
    ),
  RADIUS_EAP_KEY_FILE: z.string().optional().describe("The server certificate's private key (PEM, unencrypted, readable by FreeRADIUS only)."),
  RADIUS_EAP_CA_FILE: z.string().optional().describe('The CA the devices trust for RADIUS (goes into the profiles).'),
  RADIUS_EAP_SERVER_NAME: z
    .string()
    .regex(/^[a-z0-9.-]+$/)
    .optional()
    .describe("The name in the generated server certificate (default radius.<EAP_REALM>); the devices' profiles check it."),
});

/** The 802.1X server certificate: the operator's files, or one from the platform's own CA (kept in `<dir>-ca`). */
function eapCertificates(settings: z.output<typeof RadiusSettings>, realm: string, dir: string) {
  const { RADIUS_EAP_CERT_FILE: certificateFile, RADIUS_EAP_KEY_FILE: keyFile, RADIUS_EAP_CA_FILE: caFile } = settings;
  if (certificateFile !== undefined && keyFile !== undefined && caFile !== undefined) return { certificateFile, keyFile, caFile };
  if (certificateFile !== undefined || keyFile !== undefined || caFile !== undefined)
    throw new Error('RADIUS_EAP_CERT_FILE, RADIUS_EAP_KEY_FILE and RADIUS_EAP_CA_FILE are set together or not at all');
  return ensureEapCertificates(`${dir}-ca`, settings.RADIUS_EAP_SERVER_NAME ?? `radius.${realm}`);
}

export interface PlatformRadius {
  address: string;
  authPort: number;
  acctPort: number;
  log: string;
  /** The first gateway of the gateways file, for the `make up` banner (a demo NAS). */
  demo: { nasId: string; secret: string };
  stop(): Promise<void>;
}

export async function startPlatformRadius(env: NodeJS.ProcessEnv, dir: string, log: string): Promise<PlatformRadius> {
  const install = spawnSync(join(dirnameOf(import.meta.url), 'ensure-freeradius.sh'), { stdio: 'inherit' });
  if (install.status !== 0) throw new Error('FreeRADIUS is not installed (scripts/ensure-freeradius.sh)');
  const settings = loadConfig(RadiusSettings, env);
  const gatewayConfig = loadConfig(GatewayConfig, env);
  // openNDS gateways speak no RADIUS: only the RADIUS controllers are FreeRADIUS clients.
  const gateways = [...loadGatewayRegistry(gatewayConfig.GATEWAYS_FILE, createSealer(gatewayConfig.GATEWAY_SEAL_KEY)).values()].flatMap((g) =>
    g.secret === undefined ? [] : [{ ...g, secret: g.secret }],
  );
  writeFreeradiusConfig({
    dir,
    role: 'server',
    listen: settings.RADIUS_LISTEN,
    authPort: settings.RADIUS_AUTH_PORT,
    acctPort: settings.RADIUS_ACCT_PORT,
    restUrl: settings.GATEWAY_URL,
    restKey: gatewayConfig.RADIUS_API_KEY,
    clients: gateways.map((g) => ({ name: g.nasId, address: g.address, secret: g.secret })),
    replayRetrySeconds: settings.RADIUS_REPLAY_RETRY_SECONDS,
    eap: eapCertificates(settings, gatewayConfig.EAP_REALM, dir),
  });
  const out = createWriteStream(log);
  const running = await startFreeradius(dir, { onLine: (line) => out.write(`${line}\n`) });
  return {
    address: settings.RADIUS_LISTEN,
    authPort: settings.RADIUS_AUTH_PORT,
    acctPort: settings.RADIUS_ACCT_PORT,
    log,
    demo: { nasId: gateways[0]!.nasId, secret: gateways[0]!.secret },
    async stop() {
      await running.stop();
      out.end();
    },
  };
}

function dirnameOf(url: string): string {
  return new URL('.', url).pathname;
}
