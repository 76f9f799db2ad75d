import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import { stopChild } from '../../scripts/child-process.js';
import { certificate, configHead, NGINX } from '../../scripts/cluster/nginx.js';
import { requireTools } from './host-tools.js';
import { waitFor } from './wait-for.js';

requireTools([NGINX], 'make debian-packages installs it (make test runs it)');

export { NGINX };

export interface TlsProxy {
  /** https://localhost:<port>, the origin a browser sees. */
  url: string;
  /** The generated certificate, for a client that trusts it. */
  ca: string;
}

const canConnect = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

/**
 * Debian's nginx terminating TLS with a certificate made here for localhost, proxying to
 * `upstream` with the usual forwarded headers; its own folder, stopped when the test ends.
 */
export async function startTlsProxy(t: ExecutionContext, upstream: string, port: number): Promise<TlsProxy> {
  const dir = mkdtempSync(join(tmpdir(), 'wifi-nginx-'));
  mkdirSync(join(dir, 'temp'));
  certificate(dir);
  writeFileSync(
    join(dir, 'nginx.conf'),
    `${configHead(dir, 1, 64)}
  server {
    listen 127.0.0.1:${port} ssl;
    server_name localhost;
    ssl_certificate ${dir}/cert.pem;
    ssl_certificate_key ${dir}/key.pem;
    location / {
      proxy_pass ${upstream};
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    }
  }
}
`,
  );
  const child = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], { stdio: 'ignore' });
  t.teardown(async () => {
    await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
  });
  await waitFor(
    () => (child.exitCode === null ? canConnect(port) : Promise.reject(new Error(`nginx exited: ${readFileSync(join(dir, 'error.log'), 'utf8')}`))),
    (up) => up,
    { timeoutMs: 30_000 },
  );
  return { url: `https://localhost:${port}`, ca: readFileSync(join(dir, 'cert.pem'), 'utf8') };
}
