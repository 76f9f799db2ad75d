// A throw-away self-signed certificate for the level 3 FAS (https enforced by openNDS), for an
// IP address: authmon's PHP checks the peer name against the FAS address. The gateway trusts it
// through SSL_CERT_FILE (gateway.ts `trustCaFile`), never through the system's store.
import { join } from 'node:path';
import { must } from './command.js';

export async function selfSignedCertificate(dir: string, ip: string): Promise<{ certFile: string; keyFile: string }> {
  const certFile = join(dir, 'fas-cert.pem');
  const keyFile = join(dir, 'fas-key.pem');
  await must('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    keyFile,
    '-out',
    certFile,
    '-days',
    '1',
    '-subj',
    '/CN=ndst-fas',
    '-addext',
    `subjectAltName=IP:${ip}`,
  ]);
  return { certFile, keyFile };
}
