// The cluster's Prometheus (Debian's `prometheus` package), scraping every service
// instance's `/metrics` and both Keycloak nodes' management-port metrics directly (not through
// nginx, whose public front answers 404 for /metrics). Its own folder for configuration and
// time-series data; stopped by its handle.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stopChild } from '../child-process.js';

export const PROMETHEUS = '/usr/bin/prometheus';

export interface ScrapeTargets {
  /** Every service instance: `service` and `instance` labels, its base URL. */
  services: { name: string; instance: number; url: string }[];
  /** Every Keycloak node: its management base URL (metrics at /metrics). */
  keycloak: { name: string; managementUrl: string }[];
}

export interface Prometheus {
  url: string;
  stop(): Promise<void>;
}

const hostPort = (url: string) => new URL(url).host;

/** prometheus.yml: one job for our services (labelled by service and instance), one for Keycloak. */
export function prometheusConfig(targets: ScrapeTargets, scrapeIntervalSeconds: number): string {
  const lines = [
    'global:',
    `  scrape_interval: ${scrapeIntervalSeconds}s`,
    `  scrape_timeout: ${Math.min(10, scrapeIntervalSeconds)}s`,
    'scrape_configs:',
    '  - job_name: wifi-services',
    '    metrics_path: /metrics',
    '    static_configs:',
    ...targets.services.flatMap((target) => [
      `      - targets: ['${hostPort(target.url)}']`,
      `        labels: { service: '${target.name}', replica: '${target.instance}' }`,
    ]),
    '  - job_name: keycloak',
    '    metrics_path: /metrics',
    '    static_configs:',
    ...targets.keycloak.flatMap((node) => [`      - targets: ['${hostPort(node.managementUrl)}']`, `        labels: { node: '${node.name}' }`]),
  ];
  return `${lines.join('\n')}\n`;
}

/** Starts Prometheus on 127.0.0.1:`port` and waits until it is ready; undefined when it is not installed. */
export async function startPrometheus(options: {
  dir: string;
  port: number;
  targets: ScrapeTargets;
  scrapeIntervalSeconds: number;
  log: string;
}): Promise<Prometheus | undefined> {
  if (!existsSync(PROMETHEUS)) return undefined;
  mkdirSync(join(options.dir, 'data'), { recursive: true });
  const config = join(options.dir, 'prometheus.yml');
  writeFileSync(config, prometheusConfig(options.targets, options.scrapeIntervalSeconds));
  const url = `http://127.0.0.1:${options.port}`;
  const out = createWriteStream(options.log, { flags: 'a' });
  const child = spawn(
    PROMETHEUS,
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${join(options.dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${options.port}`,
      '--storage.tsdb.retention.time=7d',
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout.pipe(out);
  child.stderr.pipe(out);
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`prometheus exited (${child.exitCode}); see ${options.log}`);
    const ready = await fetch(`${url}/-/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      await stopChild(child);
      throw new Error(`prometheus not ready within 60 s; see ${options.log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url, stop: () => stopChild(child) };
}
