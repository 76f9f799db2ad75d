import { z } from 'zod';
import { PATH_ID_PATTERN } from './ids.js';

/**
 * What the portal and the gateway service say to each other and to the page about a
 * device behind a venue's gateway. Pure TypeScript, as the rest of the contract.
 */

/** How the page logs the device in at its gateway with a one-time credential. */
export interface GatewayLogin {
  /** The login URL from the gateway registry, never from the arrival's query. */
  loginUrl: string;
  method: 'GET' | 'POST';
  fields: Record<string, string>;
  expiresAt: string;
  /** `script` when the page posts the fields itself and reads the controller's JSON answer (OPNsense); absent: a form the browser follows. */
  handOff?: 'script';
}

/**
 * A captive device's arrival as the portal keeps it for the sign-in that follows (behind cookie
 * `gw`) and then with the portal session: no MAC, only the deviceRef.
 */
export interface GatewayContext {
  /** The controller profile (edge/controllers). */
  profile: string;
  nasId: string;
  deviceRef: string;
  /** The registry's login URL of this gateway that the arrival named. */
  loginUrl: string;
  challenge: string | null;
  /** MikroTik's CHAP id (hex, one octet); null for other controllers. */
  chapId: string | null;
  /** Where the person was going: a plain link after sign-in, never a redirect. */
  returnUrl: string | null;
  /**
   * openNDS's `hid` of the client (sha256 of its token, no secret): the gateway service
   * answers authmon with rhid = sha256(hid + faskey). Null for other controllers.
   */
  hid?: string | null;
}

/** What the portal asks the gateway service for after a grant at an openNDS gateway (POST /api/v1/opennds/authorisations). */
export interface OpenndsAuthorisationRequest {
  sessionId: string;
  deviceRef: string;
  nasId: string;
  hid: string;
}

/** The gateway service's answer to it (201): the client is queued for the gateway's authmon poll. */
export const OpenndsAuthorisationReply = z.object({
  nasId: z.string(),
  state: z.literal('PENDING'),
  sessionSeconds: z.number().int().min(1),
});

/**
 * Whether an openNDS gateway polls the platform (GET /api/v1/opennds/gateways/{nasId}): its
 * authmon (FAS level 3) reached it within the gateway service's OPENNDS_POLL_FRESH_SECONDS. The
 * portal takes an arrival only from a gateway that polls (level 1/2 runs no authmon).
 */
export const OpenndsGatewayStatus = z.object({
  nasId: z.string(),
  polling: z.boolean(),
  polledAt: z.string().nullable(),
});

/** What the portal asks the gateway service for after a grant (POST /api/v1/credentials). */
export interface CredentialRequest {
  sessionId: string;
  deviceRef: string;
  nasId: string;
  challenge?: string;
  chapId?: string;
}

/** The gateway service's answer to a CredentialRequest (201): a one-time credential for the login hand-off. */
export const IssuedCredentialReply = z.object({
  username: z.string().min(1).max(64),
  password: z.string().min(1).max(128),
  chapResponse: z
    .string()
    .regex(/^[0-9a-f]{32}$/)
    .optional(),
  nasId: z.string(),
  expiresAt: z.string(),
});

/** The gateway service's view of a network session's connection at its gateway (GET /api/v1/connections/{sessionId}). */
export const GatewayConnection = z.object({
  sessionId: z.string(),
  state: z.enum(['NONE', 'CONNECTED', 'DISCONNECTED']).describe('NONE: no accounting Start seen yet; CONNECTED: started and not stopped or disconnected.'),
  connected: z.boolean(),
  nasId: z.string().nullable(),
  startedAt: z.iso.datetime({ offset: true }).nullable(),
  updatedAt: z.iso.datetime({ offset: true }).nullable(),
  stoppedAt: z.iso.datetime({ offset: true }).nullable(),
  inputOctets: z.number().int(),
  outputOctets: z.number().int(),
  sessionTime: z.number().int().describe('Seconds, as the gateway last reported.'),
  disconnect: z
    .enum(['PENDING', 'ACKED', 'NAKED', 'GONE', 'NO_ANSWER'])
    .nullable()
    .describe('RFC 5176 Disconnect-Request of this connection, if one was due; GONE: the NAS answered it has no such session (Error-Cause 503).'),
});
export type GatewayConnection = z.output<typeof GatewayConnection>;

/**
 * Every connection a network session had at the gateways (GET /api/v1/connections/:sessionId/history),
 * for a person's copy of their data: where, when, how much. Nothing that names the device (the
 * sealed identity, the username hash, the NAS's own session id) is in it.
 */
export const ConnectionHistory = z.object({
  sessionId: z.string(),
  connections: z.array(
    z.object({
      nasId: z.string(),
      startedAt: z.iso.datetime({ offset: true }),
      updatedAt: z.iso.datetime({ offset: true }),
      stoppedAt: z.iso.datetime({ offset: true }).nullable(),
      inputOctets: z.number().int(),
      outputOctets: z.number().int(),
      sessionTime: z.number().int().describe('Seconds, as the gateway last reported.'),
    }),
  ),
});
export type ConnectionHistory = z.output<typeof ConnectionHistory>;

/**
 * What a buffered accounting entry carries in place of User-Name (which for a returning
 * device is its MAC): the user name's SHA-256 in lower-case hex, the one thing the gateway
 * service looks a credential up by. A FreeRADIUS local attribute (3000-3999), which never
 * travels in a RADIUS packet, so a NAS cannot send it. Written by edge/freeradius-site.ts, read by
 * services/gateway/accounting.ts.
 */
export const BUFFERED_USERNAME_HASH = 'Wifi-User-Name-Hash';

/** The network sessions of one person whose traces the gateway service erases (the portal lists them from the session service). */
export const ConnectionErasureRequest = z.strictObject({
  sessionIds: z.array(z.string().regex(PATH_ID_PATTERN)).max(10_000),
});
/** What the erasure did: sessions ended here, and connections still waiting for their Disconnect (they keep the sealed identity it needs until answered). */
export const ConnectionErasure = z.object({ sessions: z.number().int(), disconnectsPending: z.number().int() });
export type ConnectionErasure = z.output<typeof ConnectionErasure>;
