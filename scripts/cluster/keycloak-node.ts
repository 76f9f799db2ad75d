// One Keycloak node of the production cluster: its own copy of the optimized build (its own data
// folder: transaction logs are never shared), `kc.sh start --optimized` on PostgreSQL behind the
// TLS proxy, JGroups discovery over the shared database (Keycloak 26's default jdbc-ping stack).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { refuseDevelopmentSecrets } from './secrets.js';

export interface KeycloakDatabase {
  jdbcUrl: string;
  username: string;
  password: string;
  schema: string;
}

export interface KeycloakNodeOptions {
  name: string;
  /** The optimized build (scripts/kc.sh build with KC_DB=postgres) this node copies. */
  buildHome: string;
  /** This node's own home; replaced by a fresh copy when the build changed. */
  home: string;
  ports: { http: number; management: number; jgroups: number };
  /** The browser-facing URL (hostname option): tokens carry it as issuer. */
  hostname: string;
  db: KeycloakDatabase;
  /** Environment of the extension (HR_URL, SESSION_URL, ...) and the bootstrap admin. */
  env: Record<string, string>;
  /** The realm file to import at this start (the first node only). */
  realmFile?: string;
  log: string;
  startTimeoutMs: number;
}

export interface KeycloakNode {
  name: string;
  url: string;
  managementUrl: string;
  log: string;
  /** bin/kc.sh, which runs Keycloak's JVM as its child and forwards SIGTERM to it. */
  child: ChildProcess;
  /** SIGKILL to the JVM itself (killing kc.sh alone would leave the JVM running). */
  kill(): void;
  /** Members in the last cluster view this start of the node logged (0 before the first). */
  clusterSize(): number;
  stop(): Promise<void>;
}

/** The pids of a process's children (Linux /proc). */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Fresh copy of the build for a node, unless its copy is of the same build already. */
function prepareHome(buildHome: string, home: string): void {
  const stamp = (dir: string) => (existsSync(join(dir, '.providers-stamp')) ? readFileSync(join(dir, '.providers-stamp'), 'utf8') : '');
  const built = stamp(buildHome);
  if (built === '') throw new Error(`${buildHome} holds no optimized build: run KC_DB=postgres scripts/kc.sh build (make up-cluster does)`);
  if (stamp(home) !== built) {
    rmSync(home, { recursive: true, force: true });
    // cp -a keeps the providers' modification times to the nanosecond: Keycloak compares them
    // with the build's record and refuses an optimized start when one looks changed.
    const copied = spawnSync('cp', ['-a', buildHome, home], { encoding: 'utf8' });
    if (copied.status !== 0) throw new Error(`copying ${buildHome}: ${copied.stderr}`);
  }
  // Transaction logs and caches of an earlier run (the database is fresh or shared) go.
  rmSync(join(home, 'data'), { recursive: true, force: true });
  mkdirSync(join(home, 'data', 'import'), { recursive: true });
}

/** The cluster views Infinispan logs: `ISPN000094: Received new cluster view for channel ISPN: [a|3] (2) [a, b]`. */
export function lastClusterView(logText: string): number {
  const views = [...logText.matchAll(/ISPN000094: Received new cluster view for channel \S+: \[[^\]]*\] \((\d+)\)/g)];
  const last = views.at(-1);
  return last === undefined ? 0 : Number(last[1]);
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

/** Starts the node and resolves once it is ready (management /health/ready and the realm answer). */
export async function startKeycloakNode(options: KeycloakNodeOptions): Promise<KeycloakNode> {
  const realm = options.realmFile === undefined ? '' : readFileSync(options.realmFile, 'utf8');
  refuseDevelopmentSecrets(options.env, realm);
  prepareHome(options.buildHome, options.home);
  if (options.realmFile !== undefined) writeFileSync(join(options.home, 'data', 'import', 'wifi-realm.json'), realm, { mode: 0o600 });
  const { http, management, jgroups } = options.ports;
  const args = [
    'start',
    '--optimized',
    `--db-url=${options.db.jdbcUrl}`,
    `--db-username=${options.db.username}`,
    `--db-schema=${options.db.schema}`,
    `--hostname=${options.hostname}`,
    '--proxy-headers=xforwarded',
    '--http-enabled=true',
    '--http-host=127.0.0.1',
    `--http-port=${http}`,
    `--http-management-port=${management}`,
    '--cache-embedded-network-bind-address=127.0.0.1',
    `--cache-embedded-network-bind-port=${jgroups}`,
    ...(options.realmFile === undefined ? [] : ['--import-realm']),
  ];
  // A restarted node appends to its log; its cluster views are read from here on.
  const logFrom = existsSync(options.log) ? statSync(options.log).size : 0;
  const out = createWriteStream(options.log, { flags: 'a' });
  const child = spawn(join(options.home, 'bin', 'kc.sh'), args, {
    cwd: options.home,
    env: {
      ...process.env,
      ...options.env,
      // The password goes by environment, not the command line (which `ps` shows).
      KC_DB_PASSWORD: options.db.password,
      JAVA_OPTS_KC_HEAP: process.env['JAVA_OPTS_KC_HEAP'] ?? '-Xms128m -Xmx768m',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(out);
  child.stderr?.pipe(out);
  const node: KeycloakNode = {
    name: options.name,
    url: `http://127.0.0.1:${http}`,
    managementUrl: `http://127.0.0.1:${management}`,
    log: options.log,
    child,
    clusterSize: () => (existsSync(options.log) ? lastClusterView(readFileSync(options.log).subarray(logFrom).toString('utf8')) : 0),
    kill() {
      const pid = child.pid;
      if (pid === undefined) return;
      for (const jvm of childrenOf(pid)) process.kill(jvm, 'SIGKILL');
      child.kill('SIGKILL');
    },
    // kc.sh forwards SIGTERM to the JVM and waits for it; after 60 s both get SIGKILL.
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      const force = setTimeout(() => node.kill(), 60_000);
      child.kill('SIGTERM');
      await exited;
      clearTimeout(force);
    },
  };
  const deadline = Date.now() + options.startTimeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${options.name} exited (${child.exitCode ?? child.signalCode}); see ${options.log}`);
    // The realm first: every /health/ready asked before Keycloak is up logs a DOWN line.
    if ((await answers(`${node.url}/realms/wifi`)) && (await answers(`${node.managementUrl}/health/ready`))) return node;
    if (Date.now() > deadline) {
      await node.stop();
      throw new Error(`${options.name} not ready within ${options.startTimeoutMs} ms; see ${options.log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** Builds the optimized PostgreSQL distribution through scripts/kc.sh (providers installed as for `make up`). */
export function buildKeycloak(root: string, buildDir: string): void {
  const run = spawnSync(join(root, 'scripts', 'kc.sh'), ['build'], {
    stdio: 'inherit',
    env: { ...process.env, KC_RUN_DIR: buildDir, KC_DB: 'postgres', KC_BUILD_OPTIONS: '--health-enabled=true --metrics-enabled=true' },
  });
  if (run.status !== 0) throw new Error('scripts/kc.sh build (postgres) failed');
}

/**
 * The realm to import, its `${NAME:default}` placeholders replaced by this run's values. The
 * production realm file holds no person: with SVC_OPERATOR_PASSWORD given, the copy gets the
 * site's operator `svc-operator` (realm role svc-admin), who signs in through the svc-admin GUI.
 */
export function realmForCluster(template: string, values: Record<string, string>): string {
  const realm = template.replace(/\$\{([A-Z_]+):([^}]*)\}/g, (_match, name: string, fallback: string) => values[name] ?? fallback);
  const password = values['SVC_OPERATOR_PASSWORD'];
  if (password === undefined) return realm;
  const parsed = JSON.parse(realm) as { users?: unknown[] };
  const operator = {
    username: 'svc-operator',
    enabled: true,
    credentials: [{ type: 'password', value: password, temporary: false }],
    realmRoles: ['svc-admin'],
  };
  return `${JSON.stringify({ ...parsed, users: [...(parsed.users ?? []), operator] }, null, 2)}\n`;
}
