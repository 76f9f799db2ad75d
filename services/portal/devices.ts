import { z } from 'zod';
import { PATH_ID_PATTERN } from '../../contract/ids.js';
import { ApiError, callJson, OutboundError, route, type Route } from '../kit/index.js';
import type { PortalConfig } from './config.js';
import { crossSiteGuard } from './cross-site.js';
import type { PortalSessions } from './portal-session.js';
import { replyOf, UPSTREAM_TIMEOUT_MS, type PeerAnswer } from './upstreams.js';

/**
 * "Connect automatically next time": an 802.1X device credential for the signed-in person's
 * sign-in, issued, listed and removed by the gateway service (which keeps only its HMAC and checks
 * it for FreeRADIUS). The portal adds the person: the sign-in is always the cookie's own, never one
 * the request names.
 */
export interface DeviceGateway {
  /** `maxDevices`: the entitlement's device slots, when it names them. */
  issue(sessionId: string, label: string | undefined, correlationId: string, maxDevices?: number): Promise<PeerAnswer>;
  list(sessionId: string, correlationId: string): Promise<PeerAnswer>;
  remove(sessionId: string, deviceId: string, correlationId: string): Promise<PeerAnswer>;
}

export function createDeviceGateway(config: Pick<PortalConfig, 'GATEWAY_URL' | 'GATEWAY_API_KEY'>): DeviceGateway {
  const headers = { 'X-API-Key': config.GATEWAY_API_KEY };
  const ask = async (call: { method: 'GET' | 'POST' | 'DELETE'; path: string; body?: unknown; correlationId: string }): Promise<PeerAnswer> => {
    try {
      const reply = await callJson({ ...call, url: `${config.GATEWAY_URL}${call.path}`, headers, timeoutMs: UPSTREAM_TIMEOUT_MS });
      const body = typeof reply.body === 'object' && reply.body !== null ? (reply.body as Record<string, unknown>) : {};
      return { kind: 'answer', status: reply.status, body };
    } catch (error) {
      if (error instanceof OutboundError) return { kind: 'unreachable', failure: error.failure };
      throw error;
    }
  };
  const q = (sessionId: string) => `sessionId=${encodeURIComponent(sessionId)}`;
  return {
    issue: (sessionId, label, correlationId, maxDevices) =>
      ask({
        method: 'POST',
        path: '/api/v1/devices',
        body: { sessionId, ...(label === undefined ? {} : { label }), ...(maxDevices === undefined ? {} : { maxDevices }) },
        correlationId,
      }),
    list: (sessionId, correlationId) => ask({ method: 'GET', path: `/api/v1/devices?${q(sessionId)}`, correlationId }),
    remove: (sessionId, deviceId, correlationId) =>
      ask({ method: 'DELETE', path: `/api/v1/devices/${encodeURIComponent(deviceId)}?${q(sessionId)}`, correlationId }),
  };
}

const Device = z.object({ deviceId: z.string(), label: z.string(), createdAt: z.string() });
export const IssuedDevice = Device.extend({
  username: z.string().describe('The inner identity to type into the device (or the profile carries it).'),
  password: z.string().describe('Shown once: nobody keeps it readable, the portal included.'),
  anonymousIdentity: z.string().describe('The outer identity: `anonymous@<realm>`.'),
  realm: z.string(),
});
const DeviceList = z.object({ devices: z.array(Device) });
const DeviceRequest = z.object({ label: z.string().trim().min(1).max(64).optional() }).strict();

const unavailable = () => new ApiError('UPSTREAM_UNAVAILABLE', { message: 'Your devices cannot be reached just now; try again shortly.' });

/** What `issueDevice` needs of the signed-in person's stored sign-in. */
export interface SignedInDevices {
  networkSessionId: string;
  entitlement: { permission?: { deviceSlots?: number } | null };
}

/** The 409s a credential may be refused with: all slots in use, or the sign-in ended. */
export const ISSUE_REFUSALS = 'DEVICE_SLOTS_FULL: every device slot of the entitlement (its deviceSlots) is in use; SESSION_EXPIRED: the sign-in has ended.';

/**
 * A new device credential of the sign-in, within its entitlement's device slots (the gateway
 * service counts the live ones and refuses past them): all slots in use is DEVICE_SLOTS_FULL,
 * an ended sign-in SESSION_EXPIRED, the gateway's silence UPSTREAM_UNAVAILABLE.
 */
export async function issueDevice(gateway: DeviceGateway, signedIn: SignedInDevices, label: string | undefined, correlationId: string) {
  const slots = signedIn.entitlement.permission?.deviceSlots;
  const answer = await gateway.issue(signedIn.networkSessionId, label, correlationId, typeof slots === 'number' ? slots : undefined);
  if (answer.kind === 'answer' && answer.status === 409 && answer.body['code'] === 'DEVICE_SLOTS_FULL')
    throw new ApiError('DEVICE_SLOTS_FULL', { message: 'Every device place of your access is in use; remove a device first.' });
  if (answer.kind === 'answer' && (answer.status === 409 || answer.status === 404))
    throw new ApiError('SESSION_EXPIRED', { message: 'Your sign-in has ended; sign in again.' });
  const issued = replyOf(IssuedDevice, answer, [201]);
  if (issued === undefined) throw unavailable();
  return issued;
}

/** The signed-in person's device credentials: issue (password once), list, remove. */
export function deviceRoutes(config: PortalConfig, sessions: PortalSessions, gateway: DeviceGateway): Route[] {
  const { sameOrigin } = crossSiteGuard(config.PORTAL_PUBLIC_URL);
  const signedIn = async (req: Parameters<PortalSessions['current']>[0], correlationId: string) => {
    const found = await sessions.current(req, correlationId);
    if (found === undefined) throw new ApiError('UNAUTHORIZED', { message: 'Sign in to manage your devices.' });
    return found.stored;
  };
  return [
    route({
      method: 'post',
      path: '/api/v1/me/devices',
      summary: 'Connect automatically next time: an 802.1X (EAP-TTLS) credential for one device of the signed-in person; its password is in this answer only.',
      steps: [sameOrigin],
      body: DeviceRequest,
      responses: {
        201: { description: 'The credential (Cache-Control: no-store).', schema: IssuedDevice },
        400: { description: 'INVALID_REQUEST: a malformed label.' },
        401: { description: 'UNAUTHORIZED: nobody is signed in.' },
        403: { description: 'FORBIDDEN: a cross-site request.' },
        409: { description: ISSUE_REFUSALS },
        502: { description: 'UPSTREAM_UNAVAILABLE: the gateway service did not answer.' },
      },
      handle: async ({ req, res, body, correlationId }) => {
        const issued = await issueDevice(gateway, await signedIn(req, correlationId), body.label, correlationId);
        res.setHeader('Cache-Control', 'no-store');
        return { status: 201, body: issued };
      },
    }),
    route({
      method: 'get',
      path: '/api/v1/me/devices',
      summary: "The signed-in person's devices that connect automatically (never their passwords).",
      responses: {
        200: { description: 'The devices, oldest first.', schema: DeviceList },
        401: { description: 'UNAUTHORIZED: nobody is signed in.' },
        502: { description: 'UPSTREAM_UNAVAILABLE: the gateway service did not answer.' },
      },
      handle: async ({ req, correlationId }) => {
        const listed = replyOf(DeviceList, await gateway.list((await signedIn(req, correlationId)).networkSessionId, correlationId), [200]);
        if (listed === undefined) throw unavailable();
        return { status: 200, body: listed };
      },
    }),
    route({
      method: 'delete',
      path: '/api/v1/me/devices/:deviceId',
      summary: 'Removes a device: its next authentication is refused.',
      steps: [sameOrigin],
      params: { deviceId: z.string().regex(PATH_ID_PATTERN) },
      responses: {
        204: { description: 'Removed.' },
        400: { description: 'INVALID_REQUEST: a malformed device id.' },
        401: { description: 'UNAUTHORIZED: nobody is signed in.' },
        403: { description: 'FORBIDDEN: a cross-site request.' },
        404: { description: 'NOT_FOUND: the signed-in person has no such device.' },
        502: { description: 'UPSTREAM_UNAVAILABLE: the gateway service did not answer.' },
      },
      handle: async ({ req, params: { deviceId }, correlationId }) => {
        const answer = await gateway.remove((await signedIn(req, correlationId)).networkSessionId, deviceId, correlationId);
        if (answer.kind === 'answer' && answer.status === 404) throw new ApiError('NOT_FOUND', { message: 'You have no device by this id.' });
        if (answer.kind !== 'answer' || answer.status !== 204) throw unavailable();
        return { status: 204, body: undefined };
      },
    }),
  ];
}
