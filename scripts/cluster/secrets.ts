// The secrets of one cluster run. Production refuses every development default (a
// shipped secret is public), so the cluster command makes its own: random, written to a git-ignored file
// readable by its owner only. A setting given in the environment wins (an operator's own secret).
import { randomBytes } from 'node:crypto';
import { chmodSync, writeFileSync } from 'node:fs';

const base64Key = () => randomBytes(32).toString('base64');
const word = () => randomBytes(24).toString('base64url');

/** Every secret the cluster hands out, with how a fresh one is made. */
const GENERATED = {
  SVC_ADMIN_SEAL_KEY: word,
  KC_BOOTSTRAP_ADMIN_PASSWORD: word,
  WIFI_PORTAL_API_SECRET: word,
  WIFI_PORTAL_EMPLOYEE_API_SECRET: word,
  WIFI_PORTAL_PHONE_API_SECRET: word,
  WIFI_PHONE_CODE_HASH_KEY: word,
  WIFI_PORTAL_VOUCHER_API_SECRET: word,
  WIFI_VOUCHER_HASH_KEY: word,
  SVC_OPERATOR_PASSWORD: word,
  HR_API_KEY: word,
  HR_CITIZEN_HASH_KEY: word,
  LOYALTY_API_KEY: word,
  // Each caller of the session service has its own key; Keycloak's keeps the
  // name Keycloak reads it under (SESSION_API_KEY).
  SESSION_API_KEY: word,
  SESSION_PORTAL_KEY: word,
  SESSION_GATEWAY_KEY: word,
  GATEWAY_API_KEY: word,
  // The portal's key to the entitlement service's erase route.
  ENTITLEMENT_PORTAL_KEY: word,
  // Keycloak's svc-admin keys where an operator reads and erases a person (the session one is SESSION_API_KEY).
  SVC_ADMIN_GATEWAY_KEY: word,
  SVC_ADMIN_ENTITLEMENT_KEY: word,
  SVC_ADMIN_PORTAL_KEY: word,
  RADIUS_API_KEY: word,
  GATEWAY_SEAL_KEY: base64Key,
  DEVICE_REF_KEY: word,
  CREDENTIAL_KEY: word,
  // The HMAC key of the gateway's 802.1X device credentials.
  DEVICE_CREDENTIAL_KEY: word,
  PORTAL_TOKEN_KEY: base64Key,
  KC_DB_PASSWORD: word,
} as const;

export type ClusterSecrets = Record<keyof typeof GENERATED, string>;

/** Fresh secrets for a run; what `env` sets is kept as given. */
export function makeSecrets(env: NodeJS.ProcessEnv): ClusterSecrets {
  const entries = Object.entries(GENERATED).map(([name, make]) => [name, env[name] !== undefined && env[name] !== '' ? env[name] : make()]);
  return Object.fromEntries(entries) as ClusterSecrets;
}

/** Writes `NAME=value` lines, mode 0600 (also when the file existed with a wider mode). */
export function writeSecretsFile(file: string, secrets: ClusterSecrets): void {
  writeFileSync(
    file,
    Object.entries(secrets)
      .map(([name, value]) => `${name}=${value}\n`)
      .join(''),
    { mode: 0o600 },
  );
  chmodSync(file, 0o600);
}

/**
 * The development values Keycloak must not start on in production: the ones the repository
 * ships (scripts/kc.sh defaults, the SecretSealer fallback, realm-export.json placeholders).
 * Unset counts as the development value wherever the runtime falls back to it.
 */
const KEYCLOAK_DEVELOPMENT_VALUES: Record<string, string[]> = {
  SVC_ADMIN_SEAL_KEY: ['', 'dev-svc-admin-seal-key'],
  KC_BOOTSTRAP_ADMIN_PASSWORD: ['', 'admin'],
  WIFI_PORTAL_API_SECRET: ['', 'dev-portal-api-secret'],
  WIFI_PORTAL_EMPLOYEE_API_SECRET: ['', 'dev-portal-employee-api-secret'],
  WIFI_PORTAL_PHONE_API_SECRET: ['', 'dev-portal-phone-api-secret'],
  WIFI_PHONE_CODE_HASH_KEY: ['', 'dev-phone-code-hash-key'],
  WIFI_PORTAL_VOUCHER_API_SECRET: ['', 'dev-portal-voucher-api-secret'],
  WIFI_VOUCHER_HASH_KEY: ['', 'dev-voucher-hash-key'],
  SVC_OPERATOR_PASSWORD: ['', 'operator-demo-pass'],
  HR_API_KEY: ['', 'dev-hr-key'],
  SESSION_API_KEY: ['', 'dev-session-key', 'dev-session-keycloak-key'],
  SVC_ADMIN_GATEWAY_KEY: ['', 'dev-gateway-keycloak-key'],
  SVC_ADMIN_ENTITLEMENT_KEY: ['', 'dev-entitlement-keycloak-key'],
  SVC_ADMIN_PORTAL_KEY: ['', 'dev-portal-keycloak-key'],
};

/** Names of the Keycloak settings in `env` still at a development value. */
export function keycloakDevelopmentSecrets(env: Record<string, string | undefined>): string[] {
  return Object.entries(KEYCLOAK_DEVELOPMENT_VALUES)
    .filter(([name, values]) => values.includes(env[name] ?? ''))
    .map(([name]) => name);
}

/** The realm's development client secrets, when a realm file to import still holds one. */
export function realmDevelopmentSecrets(realmJson: string): string[] {
  return ['dev-portal-api-secret', 'dev-portal-employee-api-secret', 'dev-portal-phone-api-secret', 'dev-phone-code-hash-key', 'operator-demo-pass'].filter(
    (value) => realmJson.includes(value),
  );
}

export class DevelopmentSecretError extends Error {
  constructor(readonly settings: string[]) {
    super(`keycloak production start refused: ${settings.join(', ')} still at the development default; set a secret of your own`);
    this.name = 'DevelopmentSecretError';
  }
}

/** Throws DevelopmentSecretError (one line naming the settings) before a production Keycloak starts. */
export function refuseDevelopmentSecrets(env: Record<string, string | undefined>, realmJson: string): void {
  const kept = [...keycloakDevelopmentSecrets(env), ...realmDevelopmentSecrets(realmJson).map((value) => `realm client secret '${value}'`)];
  if (kept.length > 0) throw new DevelopmentSecretError(kept);
}
