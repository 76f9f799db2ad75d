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
});

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
