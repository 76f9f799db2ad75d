// A FAS query encrypted the way openNDS 9.10 does it (PHP openssl_encrypt, AES-256-CBC, the
// faskey NUL-padded to 32 bytes, the 16-character iv used as its bytes, base64 twice), for tests
// that play the router; fas-query.test.ts checks the decryption against PHP's own output.
import { createCipheriv, createHash, randomBytes } from 'node:crypto';

export interface FasFields {
  hid: string;
  clientip: string;
  clientmac: string;
  gatewayname: string;
  gatewayaddress: string;
  originurl: string;
}

export function fasText(fields: FasFields): string {
  const enc = encodeURIComponent;
  return [
    `hid=${fields.hid}`,
    `clientip=${fields.clientip}`,
    `clientmac=${fields.clientmac}`,
    'client_type=cpd_can',
    `gatewayname=${enc(fields.gatewayname)}`,
    `gatewayurl=${enc(`http://${fields.gatewayaddress}/`)}`,
    'version=9.10.0',
    `gatewayaddress=${fields.gatewayaddress}`,
    'gatewaymac=026e64730001',
    'authdir=opennds_auth',
    `originurl=${enc(fields.originurl)}`,
    'clientif=br-lan',
    'themespec=(null)',
  ].join(', ');
}

export function encryptFas(text: string, faskey: string): { fas: string; iv: string } {
  const key = Buffer.alloc(32);
  Buffer.from(faskey, 'utf8').copy(key, 0, 0, 32);
  const iv = randomBytes(8).toString('hex');
  const cipher = createCipheriv('aes-256-cbc', key, Buffer.from(iv, 'latin1'));
  const inner = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]).toString('base64');
  return { fas: Buffer.from(inner, 'latin1').toString('base64'), iv };
}

export const newHid = () => createHash('sha256').update(randomBytes(4).toString('hex')).digest('hex');
