import { z } from 'zod';
import { apiKeyList, commonSettings, envInt } from '../kit/index.js';
import { purgeSettings, retentionDays, storeSettings } from '../kit/store/index.js';
import { QosTable, DEFAULT_QOS_TABLE } from './qos.js';

/** What a key of the portal API may do: issue one-time credentials, read connection state. */
export const GATEWAY_SCOPES = ['credentials', 'connections', 'erase'] as const;
export type GatewayScope = (typeof GATEWAY_SCOPES)[number];

const base64Key = (fallback: string) =>
  z
    .string()
    .regex(/^[A-Za-z0-9+/]{43}=$/, 'must be 32 bytes in base64')
    .default(fallback);

export const GatewayConfig = z.object({
  ...commonSettings,
  ...storeSettings,
  ...purgeSettings,
  RETENTION_CONNECTIONS_DAYS: retentionDays(365).describe(
    'Days a stopped connection (accounting: times, counters, stop cause) or an ended openNDS authorisation is kept after it stopped; 0: for ever.',
  ),
  RETENTION_NETWORK_SESSIONS_DAYS: retentionDays(90).describe(
    'Days the record of an ended network session (refusing its late accounting) is kept after it ended; 0: for ever.',
  ),
  RETENTION_CREDENTIALS_DAYS: retentionDays(30).describe('Days a one-time credential (and the device it was used from) is kept after it expired; 0: for ever.'),
  // One key per caller of the portal API (the portal; tools), several during a rotation.
  GATEWAY_API_KEYS: apiKeyList(
    GATEWAY_SCOPES,
    'portal:dev-gateway-key:credentials,connections,erase;keycloak:dev-gateway-keycloak-key:connections,erase;tools:dev-gateway-tools-key:credentials,connections',
  ).describe(
    'Keys callers of the portal API send in X-API-Key: name:key:scope,scope entries separated by ; or spaces (scopes: credentials, connections, erase).',
  ),
  RADIUS_API_KEY: z.string().min(8).default('dev-radius-rest-key').describe("Key FreeRADIUS's rest module sends in X-API-Key."),
  GATEWAYS_FILE: z
    .string()
    .default('fixtures/gateways.json')
    .describe('The gateway registry (NAS id, controller profile, address, sealed secrets, CoA port, login URLs); the portal reads the same file.'),
  GATEWAY_SEAL_KEY: base64Key('ZGV2LWdhdGV3YXktc2VhbC1rZXktMzItYnl0ZXMhISE=').describe("AES-256-GCM key the gateways file's secrets are sealed with."),
  DEVICE_REF_KEY: z.string().min(16).default('dev-device-ref-key-0001').describe('HMAC key of deviceRef = HMAC(gateway id, MAC); the portal uses the same.'),
  CREDENTIAL_KEY: z.string().min(16).default('dev-credential-key-0001').describe('HMAC key the one-time passwords are derived with (never stored).'),
  DEVICE_CREDENTIAL_KEY: z
    .string()
    .min(16)
    .default('dev-device-credential-key-0001')
    .describe('HMAC key of the 802.1X device credentials: only HMAC(key, user name) and HMAC(key, password) are stored (decision 0096).'),
  EAP_REALM: z
    .string()
    .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/)
    .default('wifi.example.net')
    .describe('The realm of the device credentials (`<random>@<realm>`) and of the anonymous outer identity (`anonymous@<realm>`).'),
  DEVICE_CREDENTIALS_PER_SESSION: envInt(3, 1, 32).describe('Live device credentials one sign-in may hold: the devices it may connect by 802.1X.'),
  CREDENTIAL_TTL_SECONDS: envInt(120, 5, 120).describe('Lifetime of a one-time credential (at most 120 s).'),
  SESSION_URL: z.url().default('http://127.0.0.1:3003').describe('The session service.'),
  GATEWAY_SESSION_KEY: z
    .string()
    .min(8)
    .default('dev-session-gateway-key')
    .describe(
      "The gateway service's own key to the session service (scopes read, changes, revoke: a person logging off at the gateway ends the session, and usage: accounting feeds the allowance counters).",
    ),
  SESSION_TIMEOUT_MS: envInt(2000, 100, 15000).describe('Timeout of one call to the session service.'),
  ACCT_INTERIM_SECONDS: envInt(300, 60, 86_400).describe('Acct-Interim-Interval in every Access-Accept.'),
  IDLE_TIMEOUT_SECONDS: envInt(600, 0, 86_400).describe('Idle-Timeout in every Access-Accept (0: not sent).'),
  // Cisco WLC remembers a web-authenticated device that left (its "sleeping clients") for 12 hours
  // by default and lets it back without a login: people expect a phone that slept through the
  // afternoon to reconnect by itself, and to sign in again the next day.
  MAC_AUTH_WINDOW_SECONDS: envInt(43_200, 60, 2_592_000).describe(
    "A returning device's MAC authentication is accepted only this long after its session's last connection stopped (never while one is open), at gateways whose registry entry sets macAuthentication; its Session-Timeout is capped at what is left of this window.",
  ),
  STALE_GRACE_SECONDS: envInt(120, 0, 86_400).describe(
    'A connection with no accounting for two interim intervals and this long is closed as stale (checked every STALE_CHECK_MS).',
  ),
  ACCT_DELAY_MAX_SECONDS: envInt(86_400, 0, 2_592_000).describe(
    "An accounting packet happened Acct-Delay-Time seconds before it arrived (a NAS's retransmissions, FreeRADIUS's buffer); a larger delay than this is nonsense from the NAS and ignored (the arrival time is used).",
  ),
  INTERIM_FLUSH_MS: envInt(5000, 0, 60_000).describe(
    "The Interim-Updates of running connections are kept in memory and written together this often (0: each at once); a Stop, a read of connection state and shutdown write them first. A crash loses only their freshness (the NAS's counters are cumulative).",
  ),
  USAGE_PUSH_MS: envInt(5000, 20, 600_000).describe(
    "How often the connections' new usage (accounting and openNDS's reports) is sent to the session service's allowance counters, in one call; a failed call is retried this often. A person whose allowance is used up is disconnected after at most an interim interval and this long.",
  ),
  STALE_CHECK_MS: envInt(300_000, 20, 3_600_000).describe('How often stale connections are looked for.'),
  QOS_TABLE: z
    .string()
    .default(JSON.stringify(DEFAULT_QOS_TABLE))
    .transform((text, ctx) => {
      try {
        return QosTable.parse(JSON.parse(text));
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON QoS table (services/gateway/README.md)' });
        return z.NEVER;
      }
    })
    .describe('Bandwidth per qosClass (optionally "<tier>:<qosClass>"), bit/s.'),
  OPENNDS_SIGNATURE_WINDOW_SECONDS: envInt(120, 10, 3600).describe(
    "How far the time in an openNDS router's signed request may be from the gateway service's, either way; older requests are refused as stale.",
  ),
  OPENNDS_POLL_FRESH_SECONDS: envInt(60, 5, 3600).describe(
    "An openNDS gateway counts as polling (the portal takes its arrivals) when its authmon reached the platform within this long; set it above the routers' poll interval (nat_traversal_poll_interval).",
  ),
  OPENNDS_USAGE_SECONDS: envInt(60, 0, 86_400).describe(
    "How often an openNDS gateway's revocation-poll.sh is asked for its clients' running counters (`ndsctl json`), which count against allowances while the clients run (0: never; then a client's usage counts only when it ends). Each ask costs the router one `ndsctl json` (a shell per client) and the platform one statement per 500 clients.",
  ),
  FEED_WAIT_SECONDS: envInt(290, 0, 295).describe(
    'How long the session service may hold a read of its change feed until a change comes (0: plain reads every FEED_POLL_MS); a proxy in between needs a longer read timeout.',
  ),
  FEED_POLL_MS: envInt(500, 20, 60_000).describe('After a failed read of the change feed, or an empty one that came back early, the next waits this long.'),
  DISCONNECT_IDLE_CHECK_MS: envInt(300_000, 100, 3_600_000).describe(
    "With no Disconnect due, how often the queue is still looked at (another instance's lease may have run out).",
  ),
  DISCONNECT_TIMEOUT_MS: envInt(1000, 50, 30_000).describe('Wait for a Disconnect-ACK/NAK per attempt.'),
  DISCONNECT_ATTEMPTS: envInt(6, 1, 50).describe('Attempts of one Disconnect-Request before it is recorded as unanswered.'),
  DISCONNECT_BACKOFF_MS: envInt(500, 10, 600_000).describe('Wait before the second attempt; doubles each time.'),
});
export type GatewayConfig = z.output<typeof GatewayConfig>;
