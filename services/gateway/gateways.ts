import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Sealer } from '../kit/index.js';

/** One line of the gateways file: a NAS that may ask us and receive Disconnect-Requests. */
const GatewayEntry = z.strictObject({
  nasId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).describe('The NAS id; also the FreeRADIUS client name and part of deviceRef.'),
  address: z.union([z.ipv4(), z.ipv6()]).describe('Where its RADIUS packets come from and where Disconnect-Requests go.'),
  secret: z.string().startsWith('v1.').describe('The RADIUS shared secret, sealed (scripts/seal-secret.ts).'),
  coaPort: z.number().int().min(1).max(65535).default(3799),
  uamSecret: z.string().startsWith('v1.').optional().describe('CoovaChilli-style UAM secret, sealed.'),
});

export const GatewaysFile = z.strictObject({ gateways: z.array(GatewayEntry).min(1) });

export interface Gateway {
  nasId: string;
  address: string;
  secret: string;
  coaPort: number;
  uamSecret: string | undefined;
}

/** The gateways, secrets opened; a file that does not parse or open stops the service at start. */
export function loadGateways(file: string, sealer: Sealer): Map<string, Gateway> {
  const parsed = GatewaysFile.parse(JSON.parse(readFileSync(file, 'utf8')));
  const gateways = new Map<string, Gateway>();
  for (const entry of parsed.gateways) {
    if (gateways.has(entry.nasId)) throw new Error(`gateways file: nasId ${entry.nasId} twice`);
    gateways.set(entry.nasId, {
      nasId: entry.nasId,
      address: entry.address,
      secret: sealer.open(entry.secret),
      coaPort: entry.coaPort,
      uamSecret: entry.uamSecret === undefined ? undefined : sealer.open(entry.uamSecret),
    });
  }
  return gateways;
}
