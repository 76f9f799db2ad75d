import { createHash } from 'node:crypto';
import { GatewayConfig } from '../../../services/gateway/config.js';
import { createSealer, loadConfig } from '../../../services/kit/index.js';
import { loadGatewayRegistry } from '../../../edge/index.js';

/** The demo NAS of the running platform's registry (fixtures/gateways.json): a CoovaChilli with a UAM secret. */
export function demoNas() {
  const settings = loadConfig(GatewayConfig, process.env);
  const nas = loadGatewayRegistry(settings.GATEWAYS_FILE, createSealer(settings.GATEWAY_SEAL_KEY)).get('demo-nas');
  if (nas?.uamSecret === undefined) throw new Error(`demo-nas with a UAM secret is missing from ${settings.GATEWAYS_FILE}`);
  return { ...nas, uamSecret: nas.uamSecret };
}

/**
 * `/gateway?...` as CoovaChilli sends it (redir.c): the parameters, then `md` = MD5 of the URL up to
 * `&md=` (over the uamserver it was configured with: the portal's public URL) + the UAM secret.
 */
export function coovaArrival(
  params: Record<string, string>,
  uamSecret: string,
  portalPublicUrl = process.env['PORTAL_PUBLIC_URL'] ?? 'http://localhost:3000',
): string {
  const path = `/gateway?${new URLSearchParams(params).toString()}`;
  return `${path}&md=${createHash('md5')
    .update(`${new URL(portalPublicUrl).origin}${path}`)
    .update(uamSecret)
    .digest('hex')
    .toUpperCase()}`;
}
