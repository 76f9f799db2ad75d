import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { authmonSignature } from '../../services/gateway/authmon-signature.js';
import { requireTools } from '../helpers/host-tools.js';

// router/post-request.php, installed over openNDS's own, is what makes every request of the
// router's authmon, BinAuth and revocation-poll.sh prove the faskey: run with php-cli (which
// openNDS at FAS level 3 needs anyway) against a server standing in for the FAS, its request
// carries openNDS's fields unchanged and a signature the gateway service accepts.
requireTools(['/usr/bin/php'], 'scripts/ensure-opennds.sh installs it (make test runs it)');
const SCRIPT = fileURLToPath(new URL('../../edge/router/post-request.php', import.meta.url));
const FASKEY = 'router-faskey-0123456789abcdef';
const GATEWAYHASH = createHash('sha256').update('demo-opennds').digest('hex');

function php(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile('php', ['-f', SCRIPT, ...args], { env: { ...process.env, ...env } }, (error, stdout) =>
      resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout }),
    );
  });
}

test('each request carries auth_get, gatewayhash and the base64 payload as openNDS sends them, with ts, a fresh nonce and an HMAC under the faskey the FAS verifies', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ndst-postreq-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const config = join(dir, 'opennds.conf');
  writeFileSync(config, `GatewayName demo-opennds\nfaskey ${FASKEY}\nfas_secure_enabled 3\n`);
  const forms: URLSearchParams[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      forms.push(new URLSearchParams(body));
      res.end('ack\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/opennds/demo-opennds`;
  for (const payload of ['revocations', `revoked ${'a'.repeat(64)}`]) {
    const sent = await php([url, 'custom', GATEWAYHASH, 'openNDS(test)', payload], { OPENNDS_CONFIG: config });
    t.is(sent.stdout, 'ack', "the FAS's answer, trimmed, as openNDS's own prints it");
  }
  t.is(forms.length, 2);
  const [first, second] = forms.map((form) => Object.fromEntries(form.entries()));
  t.like(first, { auth_get: 'custom', gatewayhash: GATEWAYHASH, payload: Buffer.from('revocations').toString('base64') });
  t.regex(first?.['ts'] ?? '', /^[0-9]{10}$/);
  t.true(Math.abs(Number(first?.['ts']) - Date.now() / 1000) < 60);
  t.regex(first?.['nonce'] ?? '', /^[0-9a-f]{32}$/);
  t.not(first?.['nonce'], second?.['nonce'], 'a fresh nonce per request');
  for (const form of [first, second]) {
    const request = {
      auth_get: form?.['auth_get'] ?? '',
      gatewayhash: form?.['gatewayhash'] ?? '',
      payload: form?.['payload'] ?? '',
      ts: form?.['ts'],
      nonce: form?.['nonce'],
      sig: form?.['sig'],
    };
    t.is(authmonSignature(request, FASKEY, new Date(), 120), 'signed');
    t.is(authmonSignature(request, 'another-faskey', new Date(), 120), 'forged');
  }
});

test('without a faskey in the config it sends nothing (never an unsigned request)', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ndst-postreq-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'opennds.conf'), 'GatewayName demo-opennds\n');
  const sent = await php(['http://127.0.0.1:9/never', 'view', GATEWAYHASH, 'openNDS(test)', 'none'], { OPENNDS_CONFIG: join(dir, 'opennds.conf') });
  t.not(sent.code, 0);
  t.regex(sent.stdout, /no faskey/);
});
