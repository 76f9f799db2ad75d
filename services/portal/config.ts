import { z } from 'zod';
import { apiKeyList, commonSettings, envFlag, envInt } from '../kit/index.js';
import { purgeSettings, retentionDays, storeSettings } from '../kit/store/index.js';

/** What a key to the portal's own key routes may do: `terms`, a person's acceptances read by an operator (svc-admin). */
export const PORTAL_SCOPES = ['terms'] as const;
export type PortalScope = (typeof PORTAL_SCOPES)[number];

export const PortalConfig = z.object({
  ...commonSettings,
  ...storeSettings,
  ...purgeSettings,
  RETENTION_TERMS_ACCEPTANCES_DAYS: retentionDays(365).describe(
    "Days a terms acceptance is kept once it ended: from the person's later acceptance of a newer version, or for their newest one from the last day they signed in; the day of each account's last sign-in goes with it. 0: for ever.",
  ),
  RETENTION_INACTIVE_ACCOUNTS_DAYS: retentionDays(730).describe(
    'Days after its last sign-in (or, never signed in, its creation) a self-registered account is erased by the purge job, as the person could erase it; imported employees, vouchers, demo and operator accounts are never. 0: for ever.',
  ),
  RETENTION_VOUCHER_ACCOUNTS_DAYS: retentionDays(90).describe(
    "Days after a voucher's validity ended its Keycloak account is erased by the purge job. 0: for ever.",
  ),
  RETENTION_ACCOUNTS_PER_RUN: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(100)
    .describe('Accounts the purge job reads from Keycloak, and at most erases, per run and rule (inactive accounts, vouchers).'),
  IDP_URL: z.url().default('http://localhost:8080').describe('Identity provider base URL as the portal reaches it (token, admin, logout, keys).'),
  IDP_EMPLOYEE_URL: z
    .url()
    .optional()
    .describe(
      "Where employee grants go (defaults to IDP_URL): behind a balancer that takes a Keycloak node out when it answers 503, an address where the authenticator's own 503s (HR down) do not count against the node.",
    ),
  IDP_PUBLIC_URL: z.url().optional().describe('Browser-facing identity provider URL shown by /api/v1/meta (defaults to IDP_URL).'),
  IDP_REALM: z.string().min(1).default('wifi').describe('Realm of the portal clients.'),
  PORTAL_API_CLIENT_SECRET: z.string().min(1).default('dev-portal-api-secret').describe('Secret of client wifi-portal-api (customer grant, service account).'),
  PORTAL_EMPLOYEE_CLIENT_SECRET: z.string().min(1).default('dev-portal-employee-api-secret').describe('Secret of client wifi-portal-employee-api.'),
  PORTAL_PHONE_CLIENT_SECRET: z
    .string()
    .min(1)
    .default('dev-portal-phone-api-secret')
    .describe('Secret of client wifi-portal-phone-api (phone number and SMS code).'),
  PORTAL_VOUCHER_CLIENT_SECRET: z.string().min(1).default('dev-portal-voucher-api-secret').describe('Secret of client wifi-portal-voucher-api (voucher code).'),
  // One key per caller of the key routes: svc-admin (Keycloak) reads the acceptances of the person an operator looks up.
  PORTAL_API_KEYS: apiKeyList(PORTAL_SCOPES, 'keycloak:dev-portal-keycloak-key:terms').describe(
    "Keys callers of the portal's key routes send in X-API-Key: name:key:scope entries separated by ; or spaces (scope: terms).",
  ),
  ENTITLEMENT_URL: z.url().default('http://127.0.0.1:3002').describe('Entitlement service base URL.'),
  PORTAL_ENTITLEMENT_KEY: z
    .string()
    .min(8)
    .default('dev-entitlement-portal-key')
    .describe("The portal's key to the entitlement service's subject routes (an entry of its ENTITLEMENT_API_KEYS with scopes erase and copy)."),
  SESSION_URL: z.url().default('http://127.0.0.1:3003').describe('Session service base URL.'),
  PORTAL_SESSION_KEY: z
    .string()
    .min(8)
    .default('dev-session-portal-key')
    .describe("The portal's own key to the session service (scopes create, grant, revoke, read)."),
  GATEWAY_URL: z.url().default('http://127.0.0.1:3004').describe('Gateway service base URL (one-time gateway credentials, connection state).'),
  GATEWAY_API_KEY: z.string().min(8).default('dev-gateway-key').describe('Key the portal sends to the gateway service.'),
  DEVICE_REF_KEY: z
    .string()
    .min(16)
    .default('dev-device-ref-key-0001')
    .describe('HMAC key of deviceRef = HMAC(gateway id, MAC); the gateway service uses the same.'),
  RADIUS_EAP_CA_FILE: z
    .string()
    .optional()
    .describe(
      "The CA devices trust for the platform's RADIUS (FreeRADIUS's setting of the same name), put into the Wi-Fi profiles; unset: the platform's own CA, `<RADIUS_RUN_DIR>-ca/ca.pem`.",
    ),
  RADIUS_RUN_DIR: z
    .string()
    .default('.run/freeradius')
    .describe("FreeRADIUS's generated folder, beside which the platform's own CA lives (FreeRADIUS's setting of the same name)."),
  RADIUS_EAP_SERVER_NAME: z
    .string()
    .regex(/^[a-z0-9.-]+$/)
    .optional()
    .describe("The name the RADIUS server certificate carries, which the profiles make devices check (default radius.<the gateway service's EAP_REALM>)."),
  GATEWAY_CONTEXT_TTL_SECONDS: envInt(900, 30, 86_400).describe('How long a gateway context (cookie gw) waits for its sign-in.'),
  OPENNDS_CONTEXT_TTL_SECONDS: envInt(300, 30, 3_600).describe(
    "How long an openNDS arrival's context waits for its sign-in: its link can be copied, so it lives briefly.",
  ),
  GATEWAYS_FILE: z
    .string()
    .default('fixtures/gateways.json')
    .describe("The gateway registry (edge/registry.ts), the gateway service's own file: which gateways may send devices here and where each logs in."),
  GATEWAY_SEAL_KEY: z
    .string()
    .regex(/^[A-Za-z0-9+/]{43}=$/, 'must be 32 bytes in base64')
    .default('ZGV2LWdhdGV3YXktc2VhbC1rZXktMzItYnl0ZXMhISE=')
    .describe("Key the registry's secrets are sealed with (the gateway service's): the UAM secret checks CoovaChilli's md."),
  GATEWAY_ARRIVAL_LIMIT: envInt(120, 1, 100_000).describe(
    "Arrivals at /gateway (and openNDS's /opennds) per client address per window, an IPv6 address counted by its /64 (devices behind a NAT share one).",
  ),
  GATEWAY_ARRIVAL_GLOBAL_LIMIT: envInt(6000, 1, 10_000_000).describe(
    'Arrivals of all clients together per window (100 a second by default, fifty addresses at their limit): past it a 429 page for everyone until the window ends.',
  ),
  GATEWAY_ARRIVAL_WINDOW_SECONDS: envInt(60, 1, 3600).describe('The window of GATEWAY_ARRIVAL_LIMIT.'),
  PORTAL_TOKEN_KEY: z
    .string()
    .regex(/^[A-Za-z0-9+/]{43}=$/, 'must be 32 bytes in base64')
    .default('ZGV2LXBvcnRhbC10b2tlbi1rZXktMzItYnl0ZXMtISE=')
    .describe('AES-256-GCM key (base64, 32 bytes) encrypting tokens at rest. Change it outside a laptop.'),
  PORTAL_PUBLIC_URL: z
    .url()
    .default('http://localhost:3000')
    .describe('Browser-facing portal URL: the origin sign-ins must come from, the Captive Portal API user-portal-url; https makes the cookie Secure.'),
  PORTAL_TRUSTED_PROXIES: z
    .string()
    .regex(/^[0-9A-Za-z.:/,\s-]*$/, 'a comma-separated list of addresses, subnets or loopback')
    .default('')
    .describe('Proxies whose X-Forwarded-For/-Proto/-Host are believed (Express "trust proxy": addresses, CIDR subnets, loopback); empty: none.'),
  EXPOSE_TOKEN: envFlag(false).describe('Demo only: include rawAccessToken in PortalSession responses.'),
  PORTAL_FLIGHT: z.string().min(1).default('poc').describe('Release label reported by /api/v1/meta.'),
  // Strangers cannot use up HR's global ceiling (the backstop) and lock employees out.
  PORTAL_EMPLOYEE_ADDRESS_LIMIT: envInt(30, 1, 1_000_000).describe(
    'Employee sign-in attempts per client address per window (the address as the trusted proxies report it); over it 429 RATE_LIMITED before any call.',
  ),
  PORTAL_EMPLOYEE_ADDRESS_WINDOW_SECONDS: envInt(60, 1, 86_400).describe('Window of the per-address employee sign-in limit.'),
  TERMS_CACHE_SECONDS: envInt(30, 0, 3600).describe(
    'How long the portal keeps the current terms version read from svc-admin: a newly published version is required at most this long after.',
  ),
  LOGIN_FAILURE_FLOOR_MS: envInt(250, 0, 5000).describe('Least time a refused sign-in takes, so refusals cannot be told apart by timing.'),
});
export type PortalConfig = z.output<typeof PortalConfig>;
