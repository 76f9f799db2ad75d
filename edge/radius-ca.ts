// The platform's own certificate authority for FreeRADIUS's EAP server certificate: generated with
// openssl for `make up` and each test run (under that run's own folder), kept while it is there so
// profiles a device installed keep trusting it. Production configures its files by path instead.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface EapCertificates {
  /** PEM of the CA the devices trust (goes into the profiles). */
  caFile: string;
  certificateFile: string;
  keyFile: string;
  /** The name the devices check the server certificate for (its subjectAltName). */
  serverName: string;
}

const openssl = (args: string[]) => execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });

/**
 * A P-256 CA and a server certificate it signs for `serverName` (serverAuth, the name as DNS
 * subjectAltName: Windows and Android check both), made once in `dir` (0700, keys 0600).
 */
export function ensureEapCertificates(dir: string, serverName: string, days = 825): EapCertificates {
  const files = { caFile: join(dir, 'ca.pem'), certificateFile: join(dir, 'server.pem'), keyFile: join(dir, 'server-key.pem'), serverName };
  const caKey = join(dir, 'ca-key.pem');
  const made = join(dir, 'server-name');
  if (existsSync(files.caFile) && existsSync(files.certificateFile) && existsSync(files.keyFile) && existsSync(made)) return files;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl([
    'req',
    '-x509',
    ...ec,
    '-keyout',
    caKey,
    '-out',
    files.caFile,
    '-days',
    String(days),
    '-subj',
    '/CN=Wi-Fi platform RADIUS CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  openssl([
    'req',
    '-x509',
    ...ec,
    '-keyout',
    files.keyFile,
    '-out',
    files.certificateFile,
    '-CA',
    files.caFile,
    '-CAkey',
    caKey,
    '-days',
    String(days),
    '-subj',
    `/CN=${serverName}`,
    '-addext',
    'basicConstraints=critical,CA:FALSE',
    '-addext',
    'keyUsage=critical,digitalSignature,keyEncipherment',
    '-addext',
    'extendedKeyUsage=serverAuth',
    '-addext',
    `subjectAltName=DNS:${serverName}`,
  ]);
  writeFileSync(made, `${serverName}\n`, { mode: 0o600 });
  return files;
}
