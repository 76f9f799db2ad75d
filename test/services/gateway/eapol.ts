import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireTools } from '../../helpers/host-tools.js';

// The real supplicant: wpa_supplicant's eapol_test (Debian's eapoltest; make's debian-packages installs it).
requireTools(['/usr/bin/eapol_test'], "the Makefile's debian-packages step installs Debian's eapoltest (make test runs it)");

export interface EapolOutcome {
  success: boolean;
  /** Attributes of the last RADIUS answer, by name: strings as they are, octets as hex (eapol_test prints them so). */
  attributes: Record<string, string>;
  /** The TLS version the tunnel used. */
  tls: string | undefined;
  mppeKeys: boolean;
  /** The server certificate's subjectAltName as eapol_test saw it. */
  serverAltName: string | undefined;
  output: string;
}

export interface Supplicant {
  identity: string;
  password: string;
  anonymousIdentity?: string;
  /** TTLS (default) or PEAP with MSCHAPv2 (which the platform does not offer). */
  method?: 'TTLS' | 'PEAP';
  /** The inner method: PAP for TTLS and MSCHAPV2 for PEAP unless said. */
  phase2?: 'PAP' | 'MSCHAPV2' | 'CHAP';
  caFile: string;
  serverName: string;
  mac?: string;
  /** A whole wpa_supplicant network block to use instead of one made of the fields above (a generated profile). */
  profile?: string;
}

/** One full 802.1X authentication through eapol_test against `port`, as a NAS with `secret`. */
export async function eapolTest(port: number, secret: string, supplicant: Supplicant): Promise<EapolOutcome> {
  const dir = mkdtempSync(join(tmpdir(), 'wifi-eapol-'));
  try {
    const method = supplicant.method ?? 'TTLS';
    const conf = join(dir, 'eapol.conf');
    const q = (value: string) => JSON.stringify(value);
    writeFileSync(
      conf,
      supplicant.profile ??
        `network={\n\tkey_mgmt=WPA-EAP\n\teap=${method}\n\tidentity=${q(supplicant.identity)}\n\tanonymous_identity=${q(supplicant.anonymousIdentity ?? supplicant.identity)}\n` +
          `\tpassword=${q(supplicant.password)}\n\tphase2="auth=${supplicant.phase2 ?? (method === 'TTLS' ? 'PAP' : 'MSCHAPV2')}"\n\tca_cert=${q(supplicant.caFile)}\n\tdomain_match=${q(supplicant.serverName)}\n}\n`,
      { mode: 0o600 },
    );
    const output = await new Promise<string>((resolve) => {
      const child = spawn(
        '/usr/bin/eapol_test',
        ['-c', conf, '-a', '127.0.0.1', '-p', String(port), '-s', secret, '-M', supplicant.mac ?? '02:00:00:00:00:01', '-t', '15'],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.on('close', () => resolve(text));
    });
    const lines = output.split('\n');
    const last = lines.map((line) => line.startsWith('RADIUS message: code=')).lastIndexOf(true);
    const attributes: Record<string, string> = {};
    for (let i = last + 1; i < lines.length; i++) {
      const name = /^\s+Attribute \d+ \(([^)]+)\) length=\d+$/.exec(lines[i]!);
      const value = /^\s+Value: (.*)$/.exec(lines[i + 1] ?? '');
      if (name !== null && value !== null) attributes[name[1]!] = value[1]!.replace(/^'(.*)'$/, '$1');
    }
    return {
      success: /^SUCCESS$/m.test(output),
      attributes,
      tls: /SSL: Using TLS version (\S+)/.exec(output)?.[1],
      mppeKeys: /MPPE keys OK: 1/.test(output),
      serverAltName: /CTRL-EVENT-EAP-PEER-ALT depth=0 (\S+)/.exec(output)?.[1],
      output,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
