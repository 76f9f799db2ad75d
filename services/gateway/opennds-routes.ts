import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import {
  ackedRhids,
  authList,
  parseDeauthNotice,
  parseUsageReport,
  REVOCATIONS_REQUEST,
  revocationList,
  revokedRhids,
  USAGE_REQUEST,
} from '../../edge/controllers/opennds-authmon.js';
import { OpenndsGatewayStatus } from '../../contract/gateway.js';
import { NAS_ID_PATTERN, PATH_ID_PATTERN } from '../../contract/ids.js';
import { ApiError, requireApiKey, route, type CallerKey, type Logger, type Route } from '../kit/index.js';
import { fromGatewayOutside, type GatewayRegistry } from '../../edge/index.js';
import { authmonSignature } from './authmon-signature.js';
import { hidOfToken, rhidOf } from '../../edge/opennds-crypto.js';
import type { GatewayScope } from './config.js';
import type { OpenndsStore } from './opennds-store.js';
import { limitsFor, type Limits, type QosTable } from './qos.js';
import type { AllowanceLeft } from '../../contract/session.js';
import type { SessionPeer } from './session-client.js';

const HEX64 = /^[0-9a-f]{64}$/;

/** What a person's allowance leaves an openNDS client: its time, its quota in kB (Infinity: no limit), or nothing. */
export function allowanceLimits(left: AllowanceLeft | null): { usedUp: boolean; renewsAt: string | null; seconds: number; quotaKB: number } {
  if (left === null) return { usedUp: false, renewsAt: null, seconds: Number.POSITIVE_INFINITY, quotaKB: Number.POSITIVE_INFINITY };
  return {
    usedUp: left.secondsRemaining === 0 || left.bytesRemaining === 0,
    renewsAt: left.renewsAt,
    seconds: left.secondsRemaining ?? Number.POSITIVE_INFINITY,
    // openNDS counts in kB and reads 0 as no quota: less than 1 kB left is 1 kB.
    quotaKB: left.bytesRemaining === null ? Number.POSITIVE_INFINITY : Math.max(1, Math.floor(left.bytesRemaining / 1024)),
  };
}

/**
 * openNDS quotas are per direction (0: none); the data allowance counts both together, so each
 * direction is capped at all that is left: neither alone passes it, and the counters, fed when the
 * client ends, refuse the next sign-in once it is used up.
 */
export function withQuota(limits: Limits, quotaKB: number): Limits {
  if (quotaKB === Number.POSITIVE_INFINITY) return limits;
  const cap = (quota: number) => (quota === 0 ? quotaKB : Math.min(quota, quotaKB));
  return { ...limits, upQuotaKB: cap(limits.upQuotaKB), downQuotaKB: cap(limits.downQuotaKB) };
}

export const OpenndsAuthorisationBody = z.strictObject({
  sessionId: z.string().regex(PATH_ID_PATTERN).describe('The GRANTED network session the device signed in under.'),
  deviceRef: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[\x21-\x7e]+$/)
    .describe("The session's deviceRef: HMAC(nasId, MAC) with DEVICE_REF_KEY."),
  nasId: z.string().regex(NAS_ID_PATTERN).describe('The openNDS gateway (its registry id, which is its gatewayname).'),
  hid: z.string().regex(HEX64).describe("openNDS's hid of the client from the decrypted FAS query."),
});

export const AuthmonBody = z.strictObject({
  auth_get: z
    .string()
    .regex(/^[a-z]{1,16}$/)
    .describe("authmon's action: clear, view, list, deauthed, custom."),
  gatewayhash: z.string().regex(HEX64).describe("sha256 of the gateway's gatewayname, as authmon sends it."),
  payload: z
    .string()
    .max(90_000)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/)
    .describe("authmon's payload, base64 as sent."),
  callerAddress: z.string().max(64).describe("The address the router's request came from, as the portal saw it (its trusted proxies applied)."),
  ts: z
    .string()
    .regex(/^[0-9]{1,12}$/)
    .optional()
    .describe("The signing post-request.php's Unix time; a request without it is refused."),
  nonce: z
    .string()
    .regex(/^[0-9a-f]{32}$/)
    .optional()
    .describe("The signing post-request.php's nonce: each is taken once."),
  sig: z
    .string()
    .regex(HEX64)
    .optional()
    .describe("HMAC-SHA256 under the gateway's faskey over ts, nonce, auth_get, gatewayhash and payload (contract authmonSignedText), hex."),
});

export interface OpenndsDeps {
  apiKeys: readonly CallerKey<GatewayScope>[];
  gateways: GatewayRegistry;
  store: OpenndsStore;
  /** Whether the change feed already ended the session (its credentials and authorisations are void). */
  ended(sessionId: string): Promise<boolean>;
  peer: SessionPeer;
  now: () => Date;
  qos: QosTable;
  /** A gateway whose last poll is older than this is not polling (GET /api/v1/opennds/gateways/{nasId}). */
  pollFreshSeconds: number;
  /** How far a signed router request's time may be from ours, either way. */
  signatureWindowSeconds: number;
  /** How often a gateway is asked for its clients' running counters (OPENNDS_USAGE_SECONDS; 0: never). */
  usageSeconds: number;
  logger: Logger;
}

/** openNDS 9.10's ndsctl auth takes the session in whole minutes (0 is the gateway's default: never sent). */
export function sessionMinutesOf(secondsLeft: number): number {
  return Math.max(1, Math.floor(secondsLeft / 60));
}

type AuthmonRequest = z.infer<typeof AuthmonBody>;

/**
 * A router request counts only from the gateway's outside addresses, with its gatewayhash and a
 * fresh signature under its faskey whose nonce was not seen before; answers when it was checked.
 */
async function checkedAuthmon(deps: OpenndsDeps, nasId: string, body: AuthmonRequest): Promise<Date> {
  const gateway = deps.gateways.get(nasId);
  if (gateway?.profile !== 'opennds' || gateway.faskey === undefined) throw new ApiError('NOT_FOUND', { message: 'No openNDS gateway has this id.' });
  const hash = createHash('sha256').update(gateway.nasId).digest('hex');
  const now = deps.now();
  const fromOutside = fromGatewayOutside(gateway, body.callerAddress);
  const signature = authmonSignature(body, gateway.faskey, now, deps.signatureWindowSeconds);
  const fresh =
    fromOutside &&
    body.gatewayhash === hash &&
    signature === 'signed' &&
    body.nonce !== undefined &&
    (await deps.store.spendNonce(nasId, body.nonce, now, deps.signatureWindowSeconds));
  if (!fresh) {
    deps.logger.warn(
      {
        nasId,
        action: body.auth_get,
        fromOutside,
        gatewayhashMatches: body.gatewayhash === hash,
        signature: signature === 'signed' ? 'replayed' : signature,
      },
      'authmon request refused',
    );
    throw new ApiError('FORBIDDEN', { message: 'Not from this gateway.' });
  }
  return now;
}

/**
 * Whether this revocation poll asks the gateway for its running counters: once every
 * OPENNDS_USAGE_SECONDS per gateway, the first time that long after its first poll here. Kept in
 * memory: each instance of a cluster asks on its own clock, so a router may be asked that many
 * times as often; a restart starts the clock again.
 */
export function usageAsker(usageSeconds: number): (nasId: string, now: Date) => boolean {
  const asked = new Map<string, number>();
  return (nasId, now) => {
    if (usageSeconds === 0) return false;
    const last = asked.get(nasId);
    if (last !== undefined && now.getTime() - last < usageSeconds * 1000) return false;
    asked.set(nasId, now.getTime());
    return last !== undefined;
  };
}

/** What the router is told for each authmon, BinAuth and revocation-poll.sh action. */
async function authmonAnswer(
  deps: OpenndsDeps,
  nasId: string,
  body: AuthmonRequest,
  now: Date,
  correlationId: string,
  askUsage: (nasId: string, now: Date) => boolean,
) {
  await deps.store.heardFrom(nasId, now);
  const payload = Buffer.from(body.payload, 'base64').toString('utf8');
  const text = (value: string) => ({ status: 200, body: { text: value } });
  switch (body.auth_get) {
    case 'clear':
      // authmon starting: what is queued stays queued (a sign-in just before a router restart still opens).
      deps.logger.info({ nasId }, 'authmon started at the gateway');
      return text('');
    case 'view':
    case 'list': {
      if (payload.trim() === 'none') return text(authList(await deps.store.pending(nasId)));
      const acked = ackedRhids(payload);
      if (acked === undefined) throw new ApiError('INVALID_REQUEST', { message: 'payload: neither "none" nor an acknowledgement list.' });
      const count = await deps.store.acked(nasId, acked, now);
      deps.logger.info({ nasId, authorised: count }, 'authmon authorised clients');
      return text('ack');
    }
    case 'deauthed': {
      const notice = parseDeauthNotice(payload);
      if (notice === undefined) throw new ApiError('INVALID_REQUEST', { message: 'payload: not a BinAuth deauthentication notice.' });
      const sessionId = await deps.store.deauthed(
        nasId,
        hidOfToken(notice.token),
        notice.method,
        {
          bytesIncoming: notice.bytesIncoming,
          bytesOutgoing: notice.bytesOutgoing,
          seconds: Math.max(0, notice.sessionEnd - notice.sessionStart),
        },
        now,
      );
      if (sessionId === undefined) {
        deps.logger.info({ nasId, method: notice.method }, 'BinAuth notice for no open authorisation (unknown token): ignored');
        return text('ack');
      }
      deps.logger.info({ nasId, sessionId, method: notice.method }, 'openNDS ended a client');
      // The person logged out at the gateway: the network session ends (as a RADIUS User-Request Stop);
      // idle, timeout and quota ends keep the entitlement, so a new sign-in may follow.
      if (notice.method === 'client_deauth' && !(await deps.peer.revoke(sessionId, correlationId))) {
        deps.logger.warn({ sessionId }, 'session service did not revoke after a logout at the gateway');
      }
      return text('ack');
    }
    case 'custom': {
      if (payload.trim() === REVOCATIONS_REQUEST) return text(revocationList(await deps.store.revoking(nasId), askUsage(nasId, now)));
      if (payload.trim().split(/\s+/)[0] === USAGE_REQUEST) {
        const clients = parseUsageReport(payload);
        if (clients === undefined) throw new ApiError('INVALID_REQUEST', { message: 'payload: a malformed usage report.' });
        // openNDS's kB are KiB (bytes / 1024, floor): BinAuth's exact bytes at the end are never fewer.
        const written = await deps.store.runningUsage(
          nasId,
          clients.map((c) => ({ hid: hidOfToken(c.token), inputOctets: c.downloadKB * 1024, outputOctets: c.uploadKB * 1024 })),
          now,
        );
        deps.logger.debug({ nasId, reported: clients.length, written }, 'openNDS running counters');
        return text('ack');
      }
      const ended = revokedRhids(payload);
      if (ended === undefined) throw new ApiError('INVALID_REQUEST', { message: 'payload: neither "revocations", a "revoked" report nor a "usage" report.' });
      const count = await deps.store.revoked(nasId, ended, now);
      deps.logger.info({ nasId, revoked: count }, 'revocation-poll deauthenticated clients');
      return text('ack');
    }
    default:
      throw new ApiError('INVALID_REQUEST', { message: 'auth_get: not an authmon action.' });
  }
}

/**
 * The openNDS side of the gateway service. The portal queues a signed-in client
 * (POST /api/v1/opennds/authorisations) and relays each request of the router's authmon,
 * BinAuth and revocation-poll.sh (POST /api/v1/opennds/authmon/{nasId}). A captive guest reaches
 * the FAS from the router's address and can compute `gatewayhash`, so a request counts only when
 * it also carries the signing post-request.php's HMAC under the gateway's faskey, made within
 * the signature window, with a nonce not seen before; a BinAuth notice also needs a token whose
 * sha256 is a hid this gateway was authorised for.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a route table: each route one declaration (schema, statuses, handler) read beside the OpenAPI it generates
export function openndsRoutes(deps: OpenndsDeps): Route[] {
  const key = requireApiKey(deps.apiKeys, 'credentials');
  const askUsage = usageAsker(deps.usageSeconds);
  /** The gateway's last poll, and whether it is recent enough to count as polling. */
  const pollOf = async (nasId: string) => {
    const polledAt = await deps.store.lastPoll(nasId);
    return { polledAt, polling: polledAt !== undefined && deps.now().getTime() - polledAt.getTime() <= deps.pollFreshSeconds * 1000 };
  };
  return [
    route({
      method: 'post',
      path: '/api/v1/opennds/authorisations',
      summary: "Queues an openNDS client of a GRANTED session for its gateway's authmon poll, with the session's limits.",
      security: 'apiKey',
      body: OpenndsAuthorisationBody,
      steps: [key],
      responses: {
        201: {
          description: 'Queued: authmon authorises it at its next poll.',
          schema: z.object({ nasId: z.string(), state: z.literal('PENDING'), sessionSeconds: z.number().int() }),
        },
        400: { description: 'INVALID_REQUEST: no such openNDS gateway.' },
        403: {
          description:
            "FORBIDDEN: the session belongs to another device, this hid was authorised already, or the person's allowance for the period is used up (the message says when it renews).",
        },
        404: { description: 'NOT_FOUND: no such session.' },
        409: { description: 'SESSION_EXPIRED: the session is not GRANTED or has expired.' },
        502: {
          description: "UPSTREAM_UNAVAILABLE: the session service did not answer, or the gateway's authmon has not polled within OPENNDS_POLL_FRESH_SECONDS.",
        },
      },
      handle: async ({ body, correlationId }) => {
        const gateway = deps.gateways.get(body.nasId);
        if (gateway?.profile !== 'opennds' || gateway.faskey === undefined)
          throw new ApiError('INVALID_REQUEST', { message: 'nasId: no such openNDS gateway.' });
        const lookup = await deps.peer.read(body.sessionId, correlationId);
        if (lookup.kind === 'unavailable') throw new ApiError('UPSTREAM_UNAVAILABLE');
        if (lookup.kind === 'not-found') throw new ApiError('NOT_FOUND', { message: 'No session has this id.' });
        const now = deps.now();
        const end = lookup.session.expiresAt === null ? 0 : Date.parse(lookup.session.expiresAt);
        if (lookup.session.state !== 'GRANTED' || end <= now.getTime() || (await deps.ended(body.sessionId))) throw new ApiError('SESSION_EXPIRED');
        if (lookup.session.deviceRef !== body.deviceRef) throw new ApiError('FORBIDDEN', { message: 'The session belongs to another device.' });
        // The gateway went silent since the arrival (authmon stopped, the router offline): nothing
        // would fetch this client, so the sign-in fails (and is rolled back) instead of waiting forever.
        if (!(await pollOf(gateway.nasId)).polling) {
          deps.logger.warn({ nasId: gateway.nasId }, "openNDS client not queued: the gateway's authmon is not polling");
          throw new ApiError('UPSTREAM_UNAVAILABLE', { message: 'The openNDS gateway is not polling the platform.' });
        }
        const left = allowanceLimits(lookup.session.remaining ?? null);
        if (left.usedUp) throw new ApiError('FORBIDDEN', { message: `The allowance for this period is used up; it renews at ${left.renewsAt}.` });
        const limits = withQuota(limitsFor(deps.qos, lookup.session.tier, lookup.session.qosClass), left.quotaKB);
        const sessionSeconds = Math.min(Math.floor((end - now.getTime()) / 1000), left.seconds);
        const queued = await deps.store.queue(
          {
            rhid: rhidOf(body.hid, gateway.faskey),
            hid: body.hid,
            nasId: gateway.nasId,
            sessionId: body.sessionId,
            deviceRef: body.deviceRef,
            sessionMinutes: sessionMinutesOf(sessionSeconds),
            uploadKbitPerSecond: Math.floor(limits.up / 1000),
            downloadKbitPerSecond: Math.floor(limits.down / 1000),
            uploadQuotaKB: limits.upQuotaKB,
            downloadQuotaKB: limits.downQuotaKB,
            // Handed to BinAuth and listed to authmon: opaque, so the list names no session.
            custom: randomBytes(12).toString('base64'),
          },
          now,
        );
        if (!queued) throw new ApiError('FORBIDDEN', { message: 'This client (hid) was authorised already: a replayed arrival.' });
        deps.logger.info({ sessionId: body.sessionId, nasId: gateway.nasId }, 'openNDS client queued for authmon');
        return { status: 201, body: { nasId: gateway.nasId, state: 'PENDING', sessionSeconds } };
      },
    }),
    route({
      method: 'get',
      path: '/api/v1/opennds/gateways/:nasId',
      summary: 'Whether an openNDS gateway polls the platform (its authmon reached it lately): the portal takes arrivals only from one that does.',
      security: 'apiKey',
      params: { nasId: z.string().regex(NAS_ID_PATTERN) },
      steps: [key],
      responses: {
        200: { description: "The gateway's last poll, and whether it is within OPENNDS_POLL_FRESH_SECONDS.", schema: OpenndsGatewayStatus },
        400: { description: 'INVALID_REQUEST: a malformed nasId.' },
        404: { description: 'NOT_FOUND: no openNDS gateway has this id.' },
      },
      handle: async ({ params: { nasId } }) => {
        const gateway = deps.gateways.get(nasId);
        if (gateway?.profile !== 'opennds') throw new ApiError('NOT_FOUND', { message: 'No openNDS gateway has this id.' });
        const { polledAt, polling } = await pollOf(gateway.nasId);
        return { status: 200, body: { nasId: gateway.nasId, polling, polledAt: polledAt?.toISOString() ?? null } };
      },
    }),
    route({
      method: 'post',
      path: '/api/v1/opennds/authmon/:nasId',
      summary: "One request of an openNDS router's authmon, BinAuth or revocation-poll.sh, relayed by the portal; answers the text for the router.",
      security: 'apiKey',
      params: { nasId: z.string().regex(NAS_ID_PATTERN) },
      body: AuthmonBody,
      steps: [key],
      responses: {
        200: { description: 'The text to answer the router with.', schema: z.object({ text: z.string() }) },
        400: { description: 'INVALID_REQUEST: an action or payload the router does not send (a malformed usage report included); nothing is changed.' },
        403: {
          description:
            "FORBIDDEN: not from the gateway's outside addresses, a gatewayhash that is not its name's, or no valid signature under its faskey (unsigned, stale, forged or a replayed nonce).",
        },
        404: { description: 'NOT_FOUND: no openNDS gateway has this id.' },
      },
      handle: async ({ params: { nasId }, body, req }) => {
        const now = await checkedAuthmon(deps, nasId, body);
        return authmonAnswer(deps, nasId, body, now, req.get('X-Correlation-ID') ?? 'corr-opennds', askUsage);
      },
    }),
  ];
}
