// The services of the cluster, each twice, every one configured with the run's production secrets
// and reaching its peers through nginx's balanced addresses (never one instance directly).
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createSealer } from '../../services/kit/index.js';
import { GatewaysFile } from '../../edge/index.js';
import { SERVICE_NODE_FLAGS, stopChild, waitHealthy } from '../child-process.js';
import type { ClusterSecrets } from './secrets.js';
import { balancedUrl, publicUrl, type ClusterPorts, type ServiceName } from './topology.js';

export interface ServiceContext {
  root: string;
  dir: string;
  ports: ClusterPorts;
  secrets: ClusterSecrets;
  databaseUrl: string;
  dmnDir: string;
  gatewaysFile: string;
  /** The CA the devices trust for the cluster's RADIUS: the portals put it into the Wi-Fi profiles. */
  radiusCaFile: string;
}

/** The session service's key list: the portal, the gateway service and Keycloak's svc-admin, each with its scopes. */
export function sessionKeys(secrets: ClusterSecrets): string {
  return [
    `portal:${secrets.SESSION_PORTAL_KEY}:create,grant,revoke,read,copy,erase`,
    `gateway:${secrets.SESSION_GATEWAY_KEY}:read,changes,revoke,usage`,
    `keycloak:${secrets.SESSION_API_KEY}:revoke-subject,copy,erase`,
  ].join(';');
}

/** Each service's own settings in the cluster (docs/operate/configuration.md has them all). */
export function serviceEnv(name: ServiceName, ctx: ServiceContext): Record<string, string> {
  const { ports, secrets } = ctx;
  const common = { NODE_ENV: 'production', TEST_HARNESS: 'false', LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'warn', DATABASE_URL: ctx.databaseUrl };
  const idp = publicUrl(ports);
  switch (name) {
    case 'hr':
      return { ...common, HR_API_KEYS: `keycloak:${secrets.HR_API_KEY}:verify`, HR_CITIZEN_HASH_KEY: secrets.HR_CITIZEN_HASH_KEY };
    case 'decision':
      return { ...common, DMN_DIR: ctx.dmnDir };
    case 'loyalty':
      // Per instance; the cluster has two, so the platform-wide ceiling is twice this.
      return {
        ...common,
        LOYALTY_API_KEYS: `entitlement:${secrets.LOYALTY_API_KEY}:lookup`,
        LOYALTY_GLOBAL_LIMIT: process.env['LOYALTY_GLOBAL_LIMIT'] ?? '6000',
      };
    case 'session':
      // One key per caller, each with only its scopes.
      return { ...common, SESSION_API_KEYS: sessionKeys(secrets) };
    case 'gateway':
      return {
        ...common,
        GATEWAY_API_KEYS: `portal:${secrets.GATEWAY_API_KEY}:credentials,connections,erase;keycloak:${secrets.SVC_ADMIN_GATEWAY_KEY}:connections,erase`,
        RADIUS_API_KEY: secrets.RADIUS_API_KEY,
        GATEWAY_SEAL_KEY: secrets.GATEWAY_SEAL_KEY,
        GATEWAYS_FILE: ctx.gatewaysFile,
        DEVICE_REF_KEY: secrets.DEVICE_REF_KEY,
        CREDENTIAL_KEY: secrets.CREDENTIAL_KEY,
        DEVICE_CREDENTIAL_KEY: secrets.DEVICE_CREDENTIAL_KEY,
        SESSION_URL: balancedUrl(ports, 'session'),
        GATEWAY_SESSION_KEY: secrets.SESSION_GATEWAY_KEY,
      };
    case 'entitlement':
      return {
        ...common,
        IDP_ISSUER: `${idp}/realms/wifi`,
        IDP_JWKS_URL: `${balancedUrl(ports, 'keycloak')}/realms/wifi/protocol/openid-connect/certs`,
        DECISION_URL: balancedUrl(ports, 'decision'),
        LOYALTY_URL: balancedUrl(ports, 'loyalty'),
        LOYALTY_API_KEY: secrets.LOYALTY_API_KEY,
        ENTITLEMENT_API_KEYS: `portal:${secrets.ENTITLEMENT_PORTAL_KEY}:erase,copy;keycloak:${secrets.SVC_ADMIN_ENTITLEMENT_KEY}:erase,copy`,
        DMN_DIR: ctx.dmnDir,
      };
    case 'portal':
      return {
        ...common,
        IDP_URL: balancedUrl(ports, 'keycloak'),
        // nginx's /employee/ path, where the authenticator's 503 (HR down) takes no node out (scripts/cluster/nginx.ts).
        IDP_EMPLOYEE_URL: `${balancedUrl(ports, 'keycloak')}/employee`,
        IDP_PUBLIC_URL: idp,
        PORTAL_API_CLIENT_SECRET: secrets.WIFI_PORTAL_API_SECRET,
        PORTAL_EMPLOYEE_CLIENT_SECRET: secrets.WIFI_PORTAL_EMPLOYEE_API_SECRET,
        PORTAL_PHONE_CLIENT_SECRET: secrets.WIFI_PORTAL_PHONE_API_SECRET,
        PORTAL_VOUCHER_CLIENT_SECRET: secrets.WIFI_PORTAL_VOUCHER_API_SECRET,
        ENTITLEMENT_URL: balancedUrl(ports, 'entitlement'),
        SESSION_URL: balancedUrl(ports, 'session'),
        PORTAL_SESSION_KEY: secrets.SESSION_PORTAL_KEY,
        PORTAL_ENTITLEMENT_KEY: secrets.ENTITLEMENT_PORTAL_KEY,
        GATEWAY_URL: balancedUrl(ports, 'gateway'),
        GATEWAY_API_KEY: secrets.GATEWAY_API_KEY,
        DEVICE_REF_KEY: secrets.DEVICE_REF_KEY,
        // The portal reads the same gateway registry (who may send devices, where they log in).
        GATEWAYS_FILE: ctx.gatewaysFile,
        GATEWAY_SEAL_KEY: secrets.GATEWAY_SEAL_KEY,
        // Any portal instance opens any cookie's tokens: one key for all.
        PORTAL_TOKEN_KEY: secrets.PORTAL_TOKEN_KEY,
        PORTAL_PUBLIC_URL: idp,
        PORTAL_TRUSTED_PROXIES: 'loopback',
        PORTAL_API_KEYS: `keycloak:${secrets.SVC_ADMIN_PORTAL_KEY}:terms`,
        // The CA of the FreeRADIUS beside the controllers (its certificate is made from it in the same folder): without it every profile is a 503.
        RADIUS_EAP_CA_FILE: ctx.radiusCaFile,
      };
  }
}

/**
 * The gateways of fixtures/gateways.json with fresh RADIUS and UAM secrets sealed under this
 * run's GATEWAY_SEAL_KEY: the fixture's are sealed under the development key.
 */
export function writeGatewaysFile(root: string, file: string, sealKey: string): void {
  const fixture = GatewaysFile.parse(JSON.parse(readFileSync(join(root, 'fixtures', 'gateways.json'), 'utf8')));
  const sealer = createSealer(sealKey);
  const fresh = () => sealer.seal(randomBytes(18).toString('base64url'));
  // An openNDS entry has a faskey instead of a RADIUS secret; it gets a fresh one too.
  // The Wi-Fi identifiers (the SSID and Passpoint's) are no secrets and are kept as they are.
  const wifi = {
    ...(fixture.wifi === undefined ? {} : { wifi: fixture.wifi }),
    ...(Object.keys(fixture.venues).length === 0 ? {} : { venues: fixture.venues }),
  };
  const gateways = fixture.gateways.map((gateway) =>
    gateway.profile === 'opennds'
      ? { ...gateway, faskey: fresh() }
      : { ...gateway, secret: fresh(), ...(gateway.uamSecret === undefined ? {} : { uamSecret: fresh() }) },
  );
  writeFileSync(file, `${JSON.stringify({ ...wifi, gateways }, null, 2)}\n`, { mode: 0o600 });
}

export interface ServiceInstance {
  name: ServiceName;
  /** 1 or 2. */
  instance: number;
  url: string;
  log: string;
  child(): ChildProcess;
  /** Starts it (again, after a kill) and waits for /health. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function serviceInstance(name: ServiceName, instance: number, ctx: ServiceContext): ServiceInstance {
  const port = ctx.ports.services[name][instance - 1] as number;
  const url = `http://127.0.0.1:${port}`;
  const log = join(ctx.dir, 'logs', `${name}-${instance}.log`);
  let current: ChildProcess | undefined;
  return {
    name,
    instance,
    url,
    log,
    child() {
      if (current === undefined) throw new Error(`${name}-${instance} was never started`);
      return current;
    },
    async start() {
      const out = createWriteStream(log, { flags: 'a' });
      const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, join(ctx.root, 'dist', 'services', name, 'main.js')], {
        cwd: ctx.root,
        env: { ...process.env, ...serviceEnv(name, ctx), PORT: String(port), HOST: '127.0.0.1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout?.pipe(out);
      child.stderr?.pipe(out);
      current = child;
      await waitHealthy(url, child, 120_000).catch((error: Error) => {
        throw new Error(`${name}-${instance} did not start: ${error.message} (see ${log})`);
      });
    },
    stop: () => (current === undefined ? Promise.resolve() : stopChild(current)),
  };
}
