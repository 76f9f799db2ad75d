// The test venues' CoovaChilli gateways, one per release, as fixtures/gateways.json registers
// them (their secrets sealed there): what test/e2e/coova/ runs chilli with and what the README's
// chilli configuration is compared with.
import type { Release } from './harness.js';

export interface CoovaGateway {
  nasId: string;
  /** The registry's address: FreeRADIUS's client, where Disconnects go (the relay listens there). */
  nasIp: string;
  coaPort: number;
  /** Client network 10.71.<subnet>.0/24; chilli is .1 (the registry's login URL). */
  subnet: number;
  radiusSecret: string;
  uamSecret: string;
  /** The registry's macAuthentication: chilli's macauth lets a returning device back in. */
  macAuth: boolean;
}

export const COOVA_GATEWAYS: Record<Release, CoovaGateway> = {
  '1.8': {
    nasId: 'coova-18',
    nasIp: '127.0.0.18',
    coaPort: 13718,
    subnet: 18,
    radiusSecret: 'coova-18-nas-secret',
    uamSecret: 'coova-18-uam-secret',
    macAuth: true,
  },
  '1.9': {
    nasId: 'coova-19',
    nasIp: '127.0.0.19',
    coaPort: 13719,
    subnet: 19,
    radiusSecret: 'coova-19-nas-secret',
    uamSecret: 'coova-19-uam-secret',
    macAuth: true,
  },
};
