import test from 'ava';
import type { z } from 'zod';
import { EntitlementConfig } from '../../services/entitlement/config.js';
import { GatewayConfig } from '../../services/gateway/config.js';
import { HrConfig } from '../../services/hr/config.js';
import { ConfigError, loadConfig } from '../../services/kit/index.js';
import { LoyaltyConfig } from '../../services/loyalty/config.js';
import { PortalConfig } from '../../services/portal/config.js';
import { SessionConfig } from '../../services/session/config.js';

// No development secret in production. Each service's secrets, by name.
const SERVICES: [string, z.ZodType, string[]][] = [
  ['hr', HrConfig, ['HR_API_KEYS', 'HR_CITIZEN_HASH_KEY']],
  ['loyalty', LoyaltyConfig, ['LOYALTY_API_KEYS']],
  ['session', SessionConfig, ['SESSION_API_KEYS']],
  ['entitlement', EntitlementConfig, ['LOYALTY_API_KEY', 'ENTITLEMENT_API_KEYS']],
  [
    'portal',
    PortalConfig,
    [
      'PORTAL_API_CLIENT_SECRET',
      'PORTAL_EMPLOYEE_CLIENT_SECRET',
      'PORTAL_PHONE_CLIENT_SECRET',
      'PORTAL_VOUCHER_CLIENT_SECRET',
      'PORTAL_SESSION_KEY',
      'PORTAL_ENTITLEMENT_KEY',
      'PORTAL_API_KEYS',
      'PORTAL_TOKEN_KEY',
      'GATEWAY_API_KEY',
      'DEVICE_REF_KEY',
      'GATEWAY_SEAL_KEY',
    ],
  ],
  [
    'gateway',
    GatewayConfig,
    ['GATEWAY_API_KEYS', 'RADIUS_API_KEY', 'GATEWAY_SEAL_KEY', 'DEVICE_REF_KEY', 'CREDENTIAL_KEY', 'DEVICE_CREDENTIAL_KEY', 'GATEWAY_SESSION_KEY'],
  ],
];

// Key lists (kit/api-key.ts) of this site: one caller each, with a scope the service knows.
const OWN_KEY_LISTS: Record<string, string> = {
  HR_API_KEYS: 'keycloak:hr-key-of-this-site:verify',
  LOYALTY_API_KEYS: 'entitlement:loyalty-key-of-this-site:lookup',
  SESSION_API_KEYS: 'portal:session-portal-key-of-this-site:create,grant,revoke,read',
  GATEWAY_API_KEYS: 'portal:gateway-key-of-this-site:credentials,connections',
  ENTITLEMENT_API_KEYS: 'portal:entitlement-key-of-this-site:erase',
  PORTAL_API_KEYS: 'keycloak:portal-key-of-this-site:terms',
};
const ownValue = (name: string) =>
  OWN_KEY_LISTS[name] ??
  (name === 'PORTAL_TOKEN_KEY' || name === 'GATEWAY_SEAL_KEY' ? Buffer.alloc(32, 7).toString('base64') : `${name.toLowerCase()}-of-this-site`);

for (const [service, schema, secrets] of SERVICES) {
  test(`${service} refuses to start in production on its development secrets (${secrets.join(', ')}), and starts once each is set`, (t) => {
    const error = t.throws(() => loadConfig(schema, { NODE_ENV: 'production' }), { instanceOf: ConfigError });
    t.deepEqual((error as ConfigError).problems.map((problem) => problem.split(':')[0]).sort(), [...secrets].sort());
    const own = Object.fromEntries(secrets.map((name) => [name, ownValue(name)]));
    t.notThrows(() => loadConfig(schema, { NODE_ENV: 'production', ...own }));
  });
}

test('a key list that keeps one development key beside keys of its own is refused in production', (t) => {
  const list = `${OWN_KEY_LISTS['SESSION_API_KEYS']};gateway:dev-session-gateway-key:read,changes`;
  const error = t.throws(() => loadConfig(SessionConfig, { NODE_ENV: 'production', SESSION_API_KEYS: list }), { instanceOf: ConfigError });
  t.deepEqual(
    (error as ConfigError).problems.map((problem) => problem.split(':')[0]),
    ['SESSION_API_KEYS'],
  );
  t.false((error as ConfigError).message.includes('dev-session-gateway-key'), 'the problem names the setting, never the key');
});

// The test and demo switches are refused in production, whatever else is set.
for (const [name, schema, secrets] of [
  ['TEST_HARNESS', HrConfig, ['HR_API_KEYS', 'HR_CITIZEN_HASH_KEY']],
  ['EXPOSE_TOKEN', PortalConfig, SERVICES.find(([service]) => service === 'portal')![2]],
] as const) {
  test(`${name}=true is refused in production, naming it; off it starts`, (t) => {
    const own = Object.fromEntries(secrets.map((secret) => [secret, ownValue(secret)]));
    const error = t.throws(() => loadConfig(schema, { NODE_ENV: 'production', ...own, [name]: 'true' }), { instanceOf: ConfigError });
    t.deepEqual(
      (error as ConfigError).problems.map((problem) => problem.split(':')[0]),
      [name],
    );
    t.notThrows(() => loadConfig(schema, { NODE_ENV: 'production', ...own, [name]: 'false' }));
  });
}
