import test from 'ava';
import type { z } from 'zod';
import { EntitlementConfig } from '../../services/entitlement/config.js';
import { GatewayConfig } from '../../services/gateway/config.js';
import { HrConfig } from '../../services/hr/config.js';
import { ConfigError, loadConfig } from '../../services/kit/index.js';
import { LoyaltyConfig } from '../../services/loyalty/config.js';
import { PortalConfig } from '../../services/portal/config.js';
import { SessionConfig } from '../../services/session/config.js';

// Issue 20 item 9: no development secret in production. Each service's secrets, by name.
const SERVICES: [string, z.ZodType, string[]][] = [
  ['hr', HrConfig, ['HR_API_KEY', 'HR_CITIZEN_HASH_KEY']],
  ['loyalty', LoyaltyConfig, ['LOYALTY_API_KEY']],
  ['session', SessionConfig, ['SESSION_API_KEY']],
  ['entitlement', EntitlementConfig, ['LOYALTY_API_KEY']],
  ['portal', PortalConfig, ['PORTAL_API_CLIENT_SECRET', 'PORTAL_EMPLOYEE_CLIENT_SECRET', 'SESSION_API_KEY', 'PORTAL_TOKEN_KEY', 'GATEWAY_API_KEY', 'DEVICE_REF_KEY', 'GATEWAY_SEAL_KEY']],
  ['gateway', GatewayConfig, ['GATEWAY_API_KEY', 'RADIUS_API_KEY', 'GATEWAY_SEAL_KEY', 'DEVICE_REF_KEY', 'CREDENTIAL_KEY', 'SESSION_API_KEY']],
];

for (const [service, schema, secrets] of SERVICES) {
  test(`${service} refuses to start in production on its development secrets (${secrets.join(', ')}), and starts once each is set`, (t) => {
    const error = t.throws(() => loadConfig(schema, { NODE_ENV: 'production' }), { instanceOf: ConfigError });
    t.deepEqual((error as ConfigError).problems.map((problem) => problem.split(':')[0]).sort(), [...secrets].sort());
    const own = Object.fromEntries(secrets.map((name) => [name, name === 'PORTAL_TOKEN_KEY' || name === 'GATEWAY_SEAL_KEY' ? Buffer.alloc(32, 7).toString('base64') : `${name.toLowerCase()}-of-this-site`]));
    t.notThrows(() => loadConfig(schema, { NODE_ENV: 'production', ...own }));
  });
}
