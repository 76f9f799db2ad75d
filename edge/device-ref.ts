import { createHmac } from 'node:crypto';
import { normalizeMac } from '../contract/mac.js';

export { normalizeMac };

/**
 * The device's handle behind a gateway, `dev-` + keyed HMAC-SHA256 of (gateway id,
 * MAC), so the same device at the same gateway always gets the same handle and the MAC itself is
 * never kept. The portal and the gateway service compute it with the same key
 * (`DEVICE_REF_KEY`). Undefined when `mac` is not a MAC address.
 */
export function deviceRefFor(key: string, gatewayId: string, mac: string): string | undefined {
  const normalized = normalizeMac(mac);
  if (normalized === undefined) return undefined;
  return `dev-${createHmac('sha256', key).update(`${gatewayId}\n${normalized}`).digest('base64url')}`;
}
