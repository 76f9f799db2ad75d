import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import { stopChild } from '../../scripts/child-process.js';
import { waitFor } from './wait-for.js';

export const NGINX = process.env['NGINX_PATH'] ?? '/usr/sbin/nginx';

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
  const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`openssl: ${made.stderr}`);
  writeFileSync(
    join(dir, 'nginx.conf'),
    `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${dir}/temp/body;
  proxy_temp_path ${dir}/temp/proxy;
  fastcgi_temp_path ${dir}/temp/fastcgi;
  uwsgi_temp_path ${dir}/temp/uwsgi;
  scgi_temp_path ${dir}/temp/scgi;
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
  await waitFor(() => (child.exitCode === null ? canConnect(port) : Promise.reject(new Error(`nginx exited: ${readFileSync(join(dir, 'error.log'), 'utf8')}`))), (up) => up, { timeoutMs: 30_000 });
  return { url: `https://localhost:${port}`, ca: readFileSync(join(dir, 'cert.pem'), 'utf8') };
}
