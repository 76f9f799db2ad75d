import { z } from 'zod';
import { apiKeyList, commonSettings, envInt } from '../kit/index.js';
import { purgeSettings, retentionDays, storeSettings } from '../kit/store/index.js';

const list = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.string().min(1)).min(1));

/** What an entitlement-service key may do (the evaluate and read routes take a person's bearer token instead). */
export const ENTITLEMENT_SCOPES = ['erase', 'copy'] as const;
export type EntitlementScope = (typeof ENTITLEMENT_SCOPES)[number];

export const EntitlementConfig = z.object({
  ...commonSettings,
  ...storeSettings,
  ...purgeSettings,
  RETENTION_ENTITLEMENTS_DAYS: retentionDays(90).describe('Days an entitlement (and the request answered with it) is kept after it was granted; 0: for ever.'),
  // One key per caller: the portal erases the signed-in person, svc-admin (Keycloak) the person an operator erases.
  ENTITLEMENT_API_KEYS: apiKeyList(
    ENTITLEMENT_SCOPES,
    'portal:dev-entitlement-portal-key:erase,copy;keycloak:dev-entitlement-keycloak-key:erase,copy',
  ).describe(
    "Keys callers of the subject routes send in X-API-Key: name:key:scope entries separated by ; or spaces (scopes: erase, copy: a person's entitlements read by an operator).",
  ),
  RETENTION_IDEMPOTENCY_DAYS: retentionDays(2).describe('Days an Idempotency-Key record is kept after its claim; 0: for ever.'),
  // Spec 5 rule 1: the accepted issuer (the browser-facing name in tokens) and the key-set
  // location (reached over the internal network) are separate settings on purpose.
  IDP_ISSUER: z.url().default('http://localhost:8080/realms/wifi').describe('Accepted token issuer (iss).'),
  IDP_JWKS_URL: z.url().default('http://localhost:8080/realms/wifi/protocol/openid-connect/certs').describe('Where the signing keys are fetched.'),
  IDP_AUDIENCES: list.default(['wifi-portal-api', 'wifi-portal-employee-api', 'account']).describe('Accepted audiences, comma-separated (spec 5 rule 2).'),
  IDP_EMPLOYEE_CLIENT: z
    .string()
    .min(1)
    .default('wifi-portal-employee-api')
    .describe('The client (token azp) whose tokens alone reach the employee rules: the HR-checked sign-in.'),
  IDP_PHONE_CLIENT: z
    .string()
    .min(1)
    .default('wifi-portal-phone-api')
    .describe('The client (token azp) whose tokens carry a phone number an SMS code proved: loyalty is looked up by it.'),
  JWKS_TIMEOUT_MS: envInt(4000, 100, 60_000).describe('Key-set fetch timeout (spec 8: 4000 ms).'),
  JWKS_COOLDOWN_MS: envInt(5000, 0, 600_000).describe('Least time between two forced key-set refreshes for unknown key ids.'),
  DECISION_URL: z.url().default('http://127.0.0.1:3005').describe('Decision service base URL.'),
  DECISION_MODEL: z.string().min(1).default('WifiEntitlement').describe('Model evaluated for every entitlement.'),
  DECISION_NAME: z.string().min(1).default('Entitlement').describe('Decision of that model whose outputs are the entitlement.'),
  DECISION_TIMEOUT_MS: envInt(3000, 100, 60_000).describe('Decision service call timeout.'),
  POLICY_FALLBACK: z.enum(['none', 'local']).default('none').describe('local: evaluate the same model files in process when the decision service is down.'),
  DMN_DIR: z.string().default('dmn/models').describe('Model files of the local fallback.'),
  LOYALTY_URL: z
    .union([z.url(), z.literal('')])
    .default('http://127.0.0.1:3006')
    .describe('Loyalty lookup base URL; empty: not configured.'),
  LOYALTY_API_KEY: z.string().min(1).default('dev-loyalty-key').describe('Key sent to loyalty in X-API-Key.'),
  LOYALTY_TIMEOUT_MS: envInt(2000, 100, 60_000).describe('Loyalty lookup timeout (spec 8: 2000 ms, no retry).'),
  LOYALTY_BREAKER_FAILURES: envInt(3, 1, 1000).describe('Consecutive loyalty failures that open the circuit breaker.'),
  LOYALTY_BREAKER_HALF_OPEN_MS: envInt(30_000, 100, 3_600_000).describe('How long the breaker stays open before one probe is let through.'),
});
export type EntitlementConfig = z.output<typeof EntitlementConfig>;
