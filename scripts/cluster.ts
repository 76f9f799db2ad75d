// The production topology on one machine: PostgreSQL, two Keycloak nodes in production
// mode forming one Infinispan cluster, every service twice, nginx in front terminating TLS and
// balancing every upstream. Used by `make up-cluster` (scripts/up-cluster.ts), the failover
// benchmark (bench/failover.ts) and its test (test/cluster/). Only processes started here are
// stopped, by their handles.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildKeycloak, realmForCluster, startKeycloakNode, type KeycloakNode } from './cluster/keycloak-node.js';
import { startNginx, type Nginx } from './cluster/nginx.js';
import { PROMETHEUS, startPrometheus, type Prometheus } from './cluster/prometheus.js';
import { openClusterDatabase, type ClusterDatabase } from './cluster/postgres.js';
import { makeSecrets, refuseDevelopmentSecrets, writeSecretsFile, type ClusterSecrets } from './cluster/secrets.js';
import { serviceInstance, writeGatewaysFile, type ServiceContext, type ServiceInstance } from './cluster/services.js';
import { DEFAULT_PORTS, SERVICE_NAMES, allPorts, balancedUrl, publicUrl, type ClusterPorts } from './cluster/topology.js';
import { connect } from 'node:net';
import { ensureEapCertificates, type EapCertificates } from '../edge/radius-ca.js';

export { DEFAULT_PORTS, SERVICE_NAMES, publicUrl, type ClusterPorts };
export const ROOT = new URL('..', import.meta.url).pathname;

export interface ClusterOptions {
  /** Run folder (git-ignored): secrets, certificate, logs, the embedded database, Keycloak homes. */
  dir: string;
  ports: ClusterPorts;
  /** An external PostgreSQL (services' DATABASE_URL; Keycloak uses schema `keycloak` in it); unset: embedded. */
  databaseUrl?: string | undefined;
  /** nginx fail_timeout: how long a failed peer stays out. */
  failTimeoutSeconds: number;
  keycloakStartTimeoutMs: number;
  /** Prometheus's scrape interval. */
  scrapeIntervalSeconds: number;
  /** Progress lines. */
  say(line: string): void;
}

/** A Keycloak node slot: the running node, and how to start it again after a kill. */
export interface KeycloakSlot {
  name: string;
  current(): KeycloakNode;
  start(): Promise<KeycloakNode>;
}

export interface Cluster {
  publicUrl: string;
  /** The generated certificate nginx serves (trust it to call publicUrl). */
  ca: string;
  databaseUrl: string;
  secrets: ClusterSecrets;
  secretsFile: string;
  keycloak: KeycloakSlot[];
  services: ServiceInstance[];
  nginx: Nginx;
  /**
   * The 802.1X files of the FreeRADIUS beside the controllers (it is not one of the cluster's
   * processes): its server certificate and key, and the CA the portals put into the profiles.
   */
  radius: EapCertificates;
  /** Prometheus scraping every instance and both Keycloaks; undefined when the package is missing. */
  prometheus: Prometheus | undefined;
  stop(): Promise<void>;
}

/** Settings of `make up-cluster` and the failover run, from the environment (docs/operate/cluster.md). */
export function clusterOptionsFromEnv(env: NodeJS.ProcessEnv, say: (line: string) => void): ClusterOptions {
  return {
    dir: env['CLUSTER_DIR'] ?? join(ROOT, '.run', 'cluster'),
    ports: DEFAULT_PORTS,
    databaseUrl: env['DATABASE_URL'],
    failTimeoutSeconds: Number(env['CLUSTER_FAIL_TIMEOUT_SECONDS'] ?? 10),
    keycloakStartTimeoutMs: Number(env['KC_START_TIMEOUT'] ?? 300) * 1000,
    scrapeIntervalSeconds: Number(env['CLUSTER_SCRAPE_SECONDS'] ?? 15),
    say,
  };
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const { dir, ports, say } = options;
  // Secrets and the refusal come first: nothing starts on a development secret.
  const secrets = makeSecrets(process.env);
  const realmTemplate = readFileSync(join(ROOT, 'realm-export.json'), 'utf8');
  const keycloakEnv: Record<string, string> = {
    KC_BOOTSTRAP_ADMIN_USERNAME: process.env['KC_BOOTSTRAP_ADMIN_USERNAME'] ?? 'admin',
    KC_BOOTSTRAP_ADMIN_PASSWORD: secrets.KC_BOOTSTRAP_ADMIN_PASSWORD,
    SVC_ADMIN_SEAL_KEY: secrets.SVC_ADMIN_SEAL_KEY,
    WIFI_PORTAL_API_SECRET: secrets.WIFI_PORTAL_API_SECRET,
    WIFI_PORTAL_EMPLOYEE_API_SECRET: secrets.WIFI_PORTAL_EMPLOYEE_API_SECRET,
    WIFI_PORTAL_PHONE_API_SECRET: secrets.WIFI_PORTAL_PHONE_API_SECRET,
    WIFI_PHONE_CODE_HASH_KEY: secrets.WIFI_PHONE_CODE_HASH_KEY,
    WIFI_PORTAL_VOUCHER_API_SECRET: secrets.WIFI_PORTAL_VOUCHER_API_SECRET,
    WIFI_VOUCHER_HASH_KEY: secrets.WIFI_VOUCHER_HASH_KEY,
    SVC_OPERATOR_PASSWORD: secrets.SVC_OPERATOR_PASSWORD,
    HR_URL: balancedUrl(ports, 'hr'),
    HR_API_KEY: secrets.HR_API_KEY,
    DECISION_URL: balancedUrl(ports, 'decision'),
    SESSION_URL: balancedUrl(ports, 'session'),
    SESSION_API_KEY: secrets.SESSION_API_KEY,
    GATEWAY_URL: balancedUrl(ports, 'gateway'),
    SVC_ADMIN_GATEWAY_KEY: secrets.SVC_ADMIN_GATEWAY_KEY,
    ENTITLEMENT_URL: balancedUrl(ports, 'entitlement'),
    SVC_ADMIN_ENTITLEMENT_KEY: secrets.SVC_ADMIN_ENTITLEMENT_KEY,
    // The portal has no internal balanced address (nginx serves it over TLS only); its instances share one database, so the first answers for both.
    PORTAL_URL: `http://127.0.0.1:${ports.services.portal[0]}`,
    SVC_ADMIN_PORTAL_KEY: secrets.SVC_ADMIN_PORTAL_KEY,
  };
  const realm = realmForCluster(realmTemplate, keycloakEnv);
  refuseDevelopmentSecrets(keycloakEnv, realm);

  const busy = (
    await Promise.all(
      allPorts(ports)
        .filter((port) => options.databaseUrl === undefined || port !== ports.postgres)
        .map(async (port) => ((await listening(port)) ? [port] : [])),
    )
  ).flat();
  if (busy.length > 0)
    throw new Error(`ports already in use: ${busy.join(', ')}; is a cluster running already? (make up-cluster, the failover run and its test share the ports)`);
  mkdirSync(join(dir, 'logs'), { recursive: true });
  const secretsFile = join(dir, 'secrets.env');
  writeSecretsFile(secretsFile, secrets);
  const realmFile = join(dir, 'wifi-realm.json');
  writeFileSync(realmFile, realm, { mode: 0o600 });
  const dmnDir = join(dir, 'dmn');
  rmSync(dmnDir, { recursive: true, force: true });
  cpSync(join(ROOT, 'dmn', 'models'), dmnDir, { recursive: true });
  const gatewaysFile = join(dir, 'gateways.json');
  writeGatewaysFile(ROOT, gatewaysFile, secrets.GATEWAY_SEAL_KEY);
  // The platform's own RADIUS CA, kept while the folder is (devices that installed a profile keep trusting it); an
  // operator's FreeRADIUS takes its certificate and key from here (RADIUS_EAP_CERT_FILE, _KEY_FILE, _CA_FILE).
  const radius = ensureEapCertificates(
    join(dir, 'freeradius-ca'),
    process.env['RADIUS_EAP_SERVER_NAME'] ?? `radius.${process.env['EAP_REALM'] ?? 'wifi.example.net'}`,
  );

  const buildDir = join(dir, 'keycloak-build');
  say('keycloak: optimized build for PostgreSQL (scripts/kc.sh build, skipped when unchanged)');
  buildKeycloak(ROOT, buildDir);
  const buildHome = readdirKeycloakHome(buildDir);

  let database: ClusterDatabase | undefined;
  let nginx: Nginx | undefined;
  let prometheus: Prometheus | undefined;
  const services: ServiceInstance[] = [];
  const nodes: (KeycloakNode | undefined)[] = [undefined, undefined];
  const stop = async () => {
    await prometheus?.stop();
    await nginx?.stop();
    await Promise.all(nodes.map((node) => node?.stop()));
    await Promise.all(services.map((service) => service.stop()));
    await database?.stop();
  };
  try {
    say(options.databaseUrl ? 'postgres: external DATABASE_URL' : `postgres: embedded, fresh, on 127.0.0.1:${ports.postgres}`);
    database = await openClusterDatabase(options.databaseUrl, dir, ports.postgres, secrets.KC_DB_PASSWORD);
    nginx = await startNginx({ dir: join(dir, 'nginx'), ports, failTimeoutSeconds: options.failTimeoutSeconds });
    say(`nginx: ${publicUrl(ports)} (TLS), internal upstreams on 127.0.0.1:${Object.values(ports.balanced).join(',')}`);
    say(
      `radius: 802.1X CA and server certificate for ${radius.serverName} in ${join(dir, 'freeradius-ca')} (the FreeRADIUS beside the controllers takes them; the portals serve the CA)`,
    );
    const ctx: ServiceContext = { root: ROOT, dir, ports, secrets, databaseUrl: database.url, dmnDir, gatewaysFile, radiusCaFile: radius.caFile };
    for (const name of SERVICE_NAMES) for (const instance of [1, 2]) services.push(serviceInstance(name, instance, ctx));
    const keycloakDb = database.keycloak;
    const slots: KeycloakSlot[] = ports.keycloak.map((nodePorts, index) => {
      const name = `keycloak-${index + 1}`;
      return {
        name,
        current() {
          const node = nodes[index];
          if (node === undefined) throw new Error(`${name} was never started`);
          return node;
        },
        async start() {
          const node = await startKeycloakNode({
            name,
            buildHome,
            home: join(dir, `${name}-home`),
            ports: nodePorts,
            hostname: publicUrl(ports),
            db: keycloakDb,
            env: { ...keycloakEnv, DMN_DIR: dmnDir },
            // Node 1 imports the realm on the first start (skipped when the realm exists).
            ...(index === 0 ? { realmFile } : {}),
            log: join(dir, 'logs', `${name}.log`),
            startTimeoutMs: options.keycloakStartTimeoutMs,
          });
          nodes[index] = node;
          return node;
        },
      };
    });
    say('services: each twice (14 processes), keycloak-1 with the realm import');
    const first = slots[0] as KeycloakSlot;
    await Promise.all([...services.map((service) => service.start()), first.start()]);
    say('keycloak-1 ready; keycloak-2 starting');
    await (slots[1] as KeycloakSlot).start();
    await waitClusterSize(
      slots.map((slot) => slot.current()),
      2,
      120_000,
    );
    say('keycloak: cluster view of 2 members on both nodes');
    prometheus = await startPrometheus({
      dir: join(dir, 'prometheus'),
      port: ports.prometheus,
      targets: {
        services: services.map((service) => ({ name: service.name, instance: service.instance, url: service.url })),
        keycloak: slots.map((slot) => ({ name: slot.name, managementUrl: slot.current().managementUrl })),
      },
      scrapeIntervalSeconds: options.scrapeIntervalSeconds,
      log: join(dir, 'logs', 'prometheus.log'),
    });
    say(
      prometheus === undefined
        ? `prometheus: not installed (${PROMETHEUS}); make up-cluster installs it`
        : `prometheus: ${prometheus.url} (every instance and both Keycloaks, every ${options.scrapeIntervalSeconds} s)`,
    );
    return {
      publicUrl: publicUrl(ports),
      ca: nginx.ca,
      databaseUrl: database.url,
      secrets,
      secretsFile,
      keycloak: slots,
      services,
      nginx,
      radius,
      prometheus,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

function readdirKeycloakHome(buildDir: string): string {
  const version = /<keycloak.version>(.*)<\/keycloak.version>/.exec(readFileSync(join(ROOT, 'spi-wrapper', 'pom.xml'), 'utf8'))?.[1];
  const home = join(buildDir, `keycloak-${version ?? ''}`);
  if (!existsSync(join(home, 'bin', 'kc.sh'))) throw new Error(`no Keycloak distribution in ${home}`);
  return home;
}

/** Waits until every node's last logged cluster view has `size` members. */
export async function waitClusterSize(nodes: KeycloakNode[], size: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!nodes.every((node) => node.clusterSize() === size)) {
    if (Date.now() > deadline)
      throw new Error(`keycloak cluster views: ${nodes.map((node) => `${node.name}=${node.clusterSize()}`).join(', ')}; expected ${size} each`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
