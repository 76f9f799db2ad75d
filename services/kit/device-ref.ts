import { createHmac } from 'node:crypto';

/**
 * A MAC address in any usual spelling (`AA-BB-CC-DD-EE-FF` from CoovaChilli, `aa:bb:...`,
 * Cisco's `aabb.ccdd.eeff`, bare hex) as 12 lower-case hex digits; undefined when it is none.
 */
export function normalizeMac(value: string): string | undefined {
  const trimmed = value.trim().toLowerCase();
  if (!/^(?:[0-9a-f]{2}([-:]?)(?:[0-9a-f]{2}\1){4}[0-9a-f]{2}|[0-9a-f]{4}\.[0-9a-f]{4}\.[0-9a-f]{4})$/.test(trimmed)) return undefined;
  return trimmed.replace(/[-:.]/g, '');
}

/**
 * Issue 17: the device's handle behind a gateway, `dev-` + keyed HMAC-SHA256 of (gateway id,
 * MAC), so the same device at the same gateway always gets the same handle and the MAC itself is
 * never kept. The portal and the gateway service compute it with the same key
 * (`DEVICE_REF_KEY`). Undefined when `mac` is not a MAC address.
 */
export function deviceRefFor(key: string, gatewayId: string, mac: string): string | undefined {
  const normalized = normalizeMac(mac);
  if (normalized === undefined) return undefined;
  return `dev-${createHmac('sha256', key).update(`${gatewayId}\n${normalized}`).digest('base64url')}`;
}
