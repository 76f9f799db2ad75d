import { z } from 'zod';
import { apiKeyList, commonSettings } from '../kit/index.js';
import { purgeSettings, retentionDays, storeSettings } from '../kit/store/index.js';
import { isTimeZone } from './allowance-period.js';

/** What a session-service key may do: one scope per kind of route. */
export const SESSION_SCOPES = ['create', 'grant', 'revoke', 'read', 'changes', 'revoke-subject', 'copy', 'usage', 'erase'] as const;
export type SessionScope = (typeof SESSION_SCOPES)[number];

// Development keys of `make up`: the portal, the gateway service, Keycloak's svc-admin and the tools
// (scripts/radius-try.ts, benchmarks, end-to-end tests) each send their own.
const DEVELOPMENT_KEYS =
  'portal:dev-session-portal-key:create,grant,revoke,read,copy,erase;gateway:dev-session-gateway-key:read,changes,revoke,usage;keycloak:dev-session-keycloak-key:revoke-subject,copy,erase;tools:dev-session-tools-key:create,grant,revoke,read,changes';

export const SessionConfig = z.object({
  ...commonSettings,
  ...storeSettings,
  VENUE_TIME_ZONE: z
    .string()
    .default('UTC')
    .refine(isTimeZone, 'must be an IANA time zone such as Asia/Ho_Chi_Minh')
    .describe("The venue's time zone (IANA name): allowance periods start at its local midnight (a week on Monday, a month on the first)."),
  ...purgeSettings,
  RETENTION_NETWORK_SESSIONS_DAYS: retentionDays(90).describe(
    'Days an ended (or never granted) network session and its events are kept after its last change; 0: for ever.',
  ),
  RETENTION_SESSION_EVENTS_DAYS: retentionDays(90).describe('Days a session event (the change feed, the operator log) is kept; 0: for ever.'),
  RETENTION_USAGE_DAYS: retentionDays(35).describe(
    "Days what a person used is kept: a connection's counted totals after its last counted packet, a period's counter after the period ended; 0: for ever.",
  ),
  // One key per caller, each with only what that caller does.
  SESSION_API_KEYS: apiKeyList(SESSION_SCOPES, DEVELOPMENT_KEYS).describe(
    'Keys callers send in X-API-Key: name:key:scope,scope entries separated by ; or spaces (scopes: create, grant, revoke, read, changes, revoke-subject, copy, usage, erase); several entries per caller during a rotation.',
  ),
});
export type SessionConfig = z.output<typeof SessionConfig>;
