import { z } from 'zod';
import { PATH_ID_PATTERN } from '../../contract/ids.js';
import { deviceRefFor } from '../../edge/index.js';
import { ApiError, requireApiKey, route, type CallerKey, type Reply, type Route } from '../kit/index.js';
import { CONTROLLER_PROFILES } from '../../edge/controllers/index.js';
import { accept, allowanceRefusal, givenCaps, secondsLeft, type AccessDeps } from './access.js';
import type { GatewayScope } from './config.js';
import { deviceHash, deviceHashMatches, newDeviceCredential, stationRefFor, type DeviceCredentialStore } from './device-credentials.js';
import { radiusAccess } from './metrics.js';
import { usernameHash } from './credentials.js';
import { nasQuery } from './radius-routes.js';
import { AcceptBody, RadiusAttributes, RejectBody, reject, text } from './radius-request.js';

export interface DeviceDeps {
  access: AccessDeps;
  devices: DeviceCredentialStore;
  key: string;
  realm: string;
  maxPerSession: number;
  /** How long a connection counts as live after its last accounting packet: the stale bound (2 x Acct-Interim-Interval and a grace). */
  liveForMs: number;
}

const NOT_VALID = 'This device credential is not valid; sign in at the portal and add the device again.';
const ENDED = 'The sign-in this device credential belongs to has ended; sign in at the portal again.';
const MALFORMED = 'Malformed request.';
const UNAVAILABLE = 'Sign-in is unavailable right now; try again shortly.';
const IN_USE = 'This device credential is connected on another device; disconnect that device first, or add this one at the portal.';

/** A reject's Reply-Message as the bounded reason its metric counts. */
const REASONS: Readonly<Record<string, string>> = {
  [NOT_VALID]: 'not-valid',
  [ENDED]: 'session-ended',
  [MALFORMED]: 'malformed',
  [UNAVAILABLE]: 'unavailable',
  [IN_USE]: 'in-use-elsewhere',
};

/**
 * The inner identity of an EAP-TTLS tunnel (FreeRADIUS's inner server posts it; the outer identity,
 * `anonymous@<realm>` or anything else, never reaches this): a live device credential whose
 * password matches, of a GRANTED, unexpired sign-in with allowance left. The Accept carries the
 * sign-in's limits, the session as Class (accounting finds the session by it) and the credential's
 * id as Chargeable-User-Identity (RFC 4372), never the person.
 */
export async function decideDeviceAccess(deps: DeviceDeps, nasId: string, attributes: RadiusAttributes, correlationId: string): Promise<Reply> {
  const { access } = deps;
  const gateway = access.gateways.get(nasId);
  if (gateway === undefined) return reject('Unknown gateway.');
  const username = text(attributes, 'User-Name');
  const password = text(attributes, 'User-Password');
  const mac = text(attributes, 'Calling-Station-Id');
  const deviceRef = mac === undefined ? undefined : deviceRefFor(access.settings.DEVICE_REF_KEY, gateway.nasId, mac);
  if (username === undefined || password === undefined || username.length > 128 || deviceRef === undefined) return reject(MALFORMED);
  const credential = await deps.devices.find(deviceHash(deps.key, 'username', username));
  if (credential === undefined || !deviceHashMatches(credential.passwordHash, deviceHash(deps.key, 'password', password))) return reject(NOT_VALID);
  if (credential.sessionEnded) return reject(ENDED);
  // One credential, one device at a time (as FreeRADIUS's Simultaneous-Use := 1): refused while it
  // has a live connection from another calling station; the same station again (roaming, a
  // re-association, a reconnect before the Stop arrived) is let in. A connection silent past the
  // stale bound is not live, so a lost Stop frees the credential after at most that long.
  const station = stationRefFor(access.settings.DEVICE_REF_KEY, mac as string) as string;
  if (await deps.devices.liveElsewhere(credential.deviceId, station, new Date(access.now().getTime() - deps.liveForMs))) return reject(IN_USE);
  const lookup = await access.peer.read(credential.sessionId, correlationId);
  if (lookup.kind === 'unavailable') return reject(UNAVAILABLE);
  if (lookup.kind === 'not-found') return reject(ENDED);
  const session = lookup.session;
  const seconds = secondsLeft(session, access.now());
  if (session.state !== 'GRANTED' || !(seconds > 0)) return reject(ENDED);
  const usedUp = allowanceRefusal(session);
  if (usedUp !== undefined) return usedUp;
  // Recorded as a credential of the session used at this NAS: its accounting's Class is then believed.
  await access.credentials.acceptedAt(
    { usernameHash: usernameHash(`eap\n${gateway.nasId}\n${credential.deviceId}`), sessionId: session.sessionId, deviceRef, nasId: gateway.nasId },
    access.now(),
  );
  // A controller without CoA keeps this Accept's caps while the 802.1X connection runs, as for a
  // portal sign-in: recorded, so that a shrunk allowance below them ends it by Disconnect. Every
  // 802.1X Accept counts (a reauthentication's too): the authenticator applies each one's
  // Session-Timeout to the port it opens.
  if (!CONTROLLER_PROFILES[gateway.profile].coa)
    await access.credentials.gave(session.sessionId, gateway.nasId, givenCaps(gateway, session, seconds), access.now());
  const reply = accept(access, gateway, session, seconds);
  return { ...reply, body: { ...(reply.body as Record<string, unknown>), 'reply:Chargeable-User-Identity': credential.deviceId } };
}

const DeviceRequest = z
  .object({
    sessionId: z.string().regex(PATH_ID_PATTERN),
    label: z.string().trim().min(1).max(64).optional().describe('What the person calls the device ("my phone"); shown in their list.'),
    maxDevices: z
      .number()
      .int()
      .min(0)
      .max(1000)
      .optional()
      .describe(
        "The entitlement's device slots (its permission's deviceSlots): live credentials the sign-in may hold, never more than DEVICE_CREDENTIALS_PER_SESSION.",
      ),
  })
  .strict();
const Device = z.object({ deviceId: z.string(), label: z.string(), createdAt: z.string() });
const IssuedDevice = Device.extend({
  username: z.string().describe('The inner identity, `<random>@<realm>`.'),
  password: z.string().describe('Shown only here: the service keeps an HMAC of it.'),
  anonymousIdentity: z.string().describe('The outer identity the device sends: `anonymous@<realm>`.'),
  realm: z.string(),
});
const DeviceList = z.object({ devices: z.array(Device) });
const sessionQuery = { sessionId: z.string().regex(PATH_ID_PATTERN).describe('The sign-in (network session) the devices belong to.') };

const view = (d: { deviceId: string; label: string; createdAt: Date }) => ({ deviceId: d.deviceId, label: d.label, createdAt: d.createdAt.toISOString() });

/** The device credentials of a sign-in, as the portal asks for them (key scope `credentials`). */
export function deviceRoutes(deps: DeviceDeps, apiKeys: readonly CallerKey<GatewayScope>[]): Route[] {
  const key = requireApiKey(apiKeys, 'credentials');
  return [
    route({
      method: 'post',
      path: '/api/v1/devices',
      summary: 'Issues an 802.1X device credential (EAP-TTLS, inner PAP) for a GRANTED sign-in; the password is in this answer only.',
      security: 'apiKey',
      body: DeviceRequest,
      steps: [key],
      responses: {
        201: { description: 'The credential.', schema: IssuedDevice },
        404: { description: 'NOT_FOUND: no such session.' },
        409: {
          description:
            'SESSION_EXPIRED: the session is not GRANTED or has expired; DEVICE_SLOTS_FULL: it already holds maxDevices (at most DEVICE_CREDENTIALS_PER_SESSION) live devices.',
        },
        502: { description: 'UPSTREAM_UNAVAILABLE: the session service did not answer.' },
      },
      handle: async ({ body, correlationId }) => {
        const { access } = deps;
        const lookup = await access.peer.read(body.sessionId, correlationId);
        if (lookup.kind === 'unavailable') throw new ApiError('UPSTREAM_UNAVAILABLE');
        if (lookup.kind === 'not-found') throw new ApiError('NOT_FOUND', { message: 'No session has this id.' });
        const now = access.now();
        if (lookup.session.state !== 'GRANTED' || !(secondsLeft(lookup.session, now) > 0) || (await access.credentials.ended(body.sessionId)))
          throw new ApiError('SESSION_EXPIRED');
        const issued = newDeviceCredential(deps.realm);
        const label = body.label ?? 'Device';
        // The entitlement's slots, which only the portal holds, within the service's own ceiling.
        const slots = Math.min(body.maxDevices ?? deps.maxPerSession, deps.maxPerSession);
        const stored = await deps.devices.issue(
          {
            deviceId: issued.deviceId,
            usernameHash: deviceHash(deps.key, 'username', issued.username),
            passwordHash: deviceHash(deps.key, 'password', issued.password),
            sessionId: body.sessionId,
            label,
            createdAt: now,
          },
          slots,
        );
        if (!stored)
          throw new ApiError('DEVICE_SLOTS_FULL', {
            message: slots === 1 ? 'This sign-in already has its one device; remove it first.' : `This sign-in already has ${slots} devices; remove one first.`,
          });
        return {
          status: 201,
          body: {
            ...view({ deviceId: issued.deviceId, label, createdAt: now }),
            username: issued.username,
            password: issued.password,
            anonymousIdentity: `anonymous@${deps.realm}`,
            realm: deps.realm,
          },
        };
      },
    }),
    route({
      method: 'get',
      path: '/api/v1/devices',
      summary: "A sign-in's live device credentials (never their secrets).",
      security: 'apiKey',
      query: sessionQuery,
      steps: [key],
      responses: {
        200: { description: 'The devices, oldest first.', schema: DeviceList },
        400: { description: 'INVALID_REQUEST: a missing or malformed session id.' },
      },
      handle: async ({ query }) => ({ status: 200, body: { devices: (await deps.devices.list(String(query['sessionId']))).map(view) } }),
    }),
    route({
      method: 'delete',
      path: '/api/v1/devices/:deviceId',
      summary: 'Removes a device credential: its next authentication is refused.',
      security: 'apiKey',
      params: { deviceId: z.string().regex(PATH_ID_PATTERN) },
      query: sessionQuery,
      steps: [key],
      responses: {
        204: { description: 'Removed.' },
        400: { description: 'INVALID_REQUEST: a missing or malformed id.' },
        404: { description: 'NOT_FOUND: the sign-in has no live device by this id.' },
      },
      handle: async ({ params: { deviceId }, query }) => {
        if (!(await deps.devices.remove(String(query['sessionId']), deviceId, deps.access.now())))
          throw new ApiError('NOT_FOUND', { message: 'No such device.' });
        return { status: 204, body: undefined };
      },
    }),
  ];
}

/** What FreeRADIUS's inner (EAP-TTLS) server calls for the tunnel's PAP identity. */
export function deviceRadiusRoutes(apiKey: string, deps: DeviceDeps): Route[] {
  return [
    route({
      method: 'post',
      path: '/radius/device',
      summary: 'The inner identity of an EAP-TTLS/PAP tunnel: 200 with the Access-Accept attributes, or 401 with the Reply-Message of an Access-Reject.',
      security: 'apiKey',
      query: nasQuery,
      body: RadiusAttributes,
      steps: [requireApiKey(apiKey)],
      responses: {
        200: { description: 'Accept.', schema: AcceptBody },
        401: { description: 'Reject (or UNAUTHORIZED without the key).', schema: z.union([RejectBody, z.object({ code: z.string() }).loose()]) },
      },
      handle: async ({ body, query, correlationId }) => {
        const nas = String(query['nas']);
        const reply = await decideDeviceAccess(deps, nas, body, correlationId);
        const message = String((reply.body as Record<string, unknown> | undefined)?.['reply:Reply-Message']);
        radiusAccess.inc({
          nas: deps.access.gateways.has(nas) ? nas : 'unknown',
          outcome: reply.status === 200 ? 'accept' : 'reject',
          reason: reply.status === 200 ? '' : `eap-${REASONS[message] ?? 'other'}`,
        });
        return reply;
      },
    }),
  ];
}
