// nginx (Debian nginx-light) in front of the cluster: TLS for the portals and Keycloak on the
// public port, plain http on 127.0.0.1 for each internal upstream, every upstream over both
// instances with passive health checks (docs/operate/cluster.md, "Failover").
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stopChild } from '../child-process.js';
import type { ClusterPorts } from './topology.js';

export const NGINX = process.env['NGINX_PATH'] ?? '/usr/sbin/nginx';

export interface NginxOptions {
  dir: string;
  ports: ClusterPorts;
  /** Seconds a failed upstream peer stays out before nginx tries it again (fail_timeout). */
  failTimeoutSeconds: number;
}

export interface Nginx {
  child: ChildProcess;
  /** The generated certificate, for clients that trust it. */
  ca: string;
  stop(): Promise<void>;
}

/** A self-signed certificate for localhost (cert.pem, key.pem), made once per folder. */
export function certificate(dir: string): void {
  if (existsSync(join(dir, 'cert.pem')) && existsSync(join(dir, 'key.pem'))) return;
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '30',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`openssl: ${made.stderr}`);
}

/**
 * The start of an nginx.conf that keeps everything in `dir` (pid, error log, temp folders under
 * `dir/temp`), never the system's paths, up to the open `http {` block.
 */
export const configHead = (dir: string, workers: number, connections: number) => `worker_processes ${workers};
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections ${connections}; }
http {
  access_log off;
  client_body_temp_path ${dir}/temp/body;
  proxy_temp_path ${dir}/temp/proxy;
  fastcgi_temp_path ${dir}/temp/fastcgi;
  uwsgi_temp_path ${dir}/temp/uwsgi;
  scgi_temp_path ${dir}/temp/scgi;`;

const upstream = (name: string, ports: readonly number[], failTimeout: number) => `
  upstream ${name} {
${ports.map((port) => `    server 127.0.0.1:${port} max_fails=1 fail_timeout=${failTimeout}s;`).join('\n')}
    keepalive 16;
  }`;

/**
 * Retries: only on a connect failure or a timeout before the request was sent (nginx never
 * passes a POST on to the next peer once it was sent, without `non_idempotent`, which we do not
 * set: a sign-in POST that reached a portal may have granted a session). The failed peer is
 * then out for fail_timeout (passive health: one failure is enough).
 */
const proxied = (target: string, uri = '', failures = 'error timeout') => `
      proxy_pass http://${target}${uri};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_next_upstream ${failures};
      proxy_next_upstream_tries 2;
      proxy_connect_timeout 2s;`;

/**
 * The services' address of Keycloak. A Keycloak node opens its port before its bootstrap is done
 * and answers 503 (text, Retry-After) until then; nginx has no readiness checks, so here a 503
 * counts as a failure of the node (`http_503`): it is out for fail_timeout, a GET goes on to the
 * other node at once, and a POST's 503 reaches the caller, whose client sends it again
 * (services/kit/http-client.ts), now to the other node. The employee authenticator answers 503
 * itself when HR is down (a JSON error body): counted as a node failure that would take every
 * node out while HR is down, so employee grants come in under /employee/, where only connection
 * failures and timeouts count (the portal's IDP_EMPLOYEE_URL).
 */
const keycloakInternal = (port: number) => `
  server {
    listen 127.0.0.1:${port};
    location / {${proxied('keycloak', '', 'error timeout http_503')}
      proxy_set_header Host $http_host;
    }
    location /employee/ {${proxied('keycloak', '/')}
      proxy_set_header Host $http_host;
    }
  }`;

/**
 * The gateway's held reads of the session change feed wait up to FEED_WAIT_SECONDS
 * (at most 295 s) for a change; nginx's 60 s read timeout would cut them (a 504, and a read
 * again every minute).
 */
const heldFeedReads = `
    location = /api/v1/sessions/changes {${proxied('session')}
      proxy_set_header Host $http_host;
      proxy_read_timeout 300s;
    }`;

export function nginxConfig(options: NginxOptions): string {
  const { dir, ports, failTimeoutSeconds } = options;
  const { services, balanced } = ports;
  const internal = (Object.keys(balanced) as (keyof ClusterPorts['balanced'])[]).map((name) =>
    name === 'keycloak'
      ? keycloakInternal(balanced[name])
      : `
  server {
    listen 127.0.0.1:${balanced[name]};
    location / {${proxied(name)}
      proxy_set_header Host $http_host;
    }${name === 'session' ? heldFeedReads : ''}
  }`,
  );
  const forwarded = `
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header X-Forwarded-Host $host;
      proxy_set_header X-Forwarded-Port $server_port;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;`;
  return `${configHead(dir, 2, 1024)}
  proxy_buffer_size 16k;
  proxy_buffers 8 16k;
${(Object.keys(services) as (keyof typeof services)[]).map((name) => upstream(name, services[name], failTimeoutSeconds)).join('\n')}
${upstream(
  'keycloak',
  ports.keycloak.map((node) => node.http),
  failTimeoutSeconds,
)}
  server {
    listen 127.0.0.1:${ports.https} ssl;
    server_name localhost;
    ssl_certificate ${dir}/cert.pem;
    ssl_certificate_key ${dir}/key.pem;
    location / {${proxied('portal')}${forwarded}
    }
    # Metrics are for Prometheus on the internal network (docs/operate/metrics.md), not the internet.
    location = /metrics {
      return 404;
    }
    location ~ ^/(realms|resources|admin|js)/ {${proxied('keycloak')}${forwarded}
    }
  }
${internal.join('\n')}
}
`;
}

async function listening(port: number): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
}

/** Writes the configuration, starts nginx in the foreground of its own child, waits until it listens. */
export async function startNginx(options: NginxOptions): Promise<Nginx> {
  mkdirSync(join(options.dir, 'temp'), { recursive: true });
  certificate(options.dir);
  const conf = join(options.dir, 'nginx.conf');
  writeFileSync(conf, nginxConfig(options));
  const child = spawn(NGINX, ['-p', options.dir, '-c', conf, '-e', join(options.dir, 'error.log')], { stdio: 'ignore' });
  const deadline = Date.now() + 30_000;
  while (!(await listening(options.ports.balanced.keycloak))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      const log = existsSync(join(options.dir, 'error.log')) ? readFileSync(join(options.dir, 'error.log'), 'utf8') : '';
      await stopChild(child);
      throw new Error(`nginx did not start: ${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, ca: readFileSync(join(options.dir, 'cert.pem'), 'utf8'), stop: () => stopChild(child) };
}
