// The gateway service's openNDS side as its tests drive it (opennds.test.ts, opennds-usage.test.ts):
// a registry with one openNDS gateway, the router's signed requests as the portal relays them, and
// clients signed in and queued.
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import { createSealer } from '../../../services/kit/index.js';
import { rhidOf } from '../../../edge/opennds-crypto.js';
import { GatewayConfig } from '../../../services/gateway/config.js';
import type { Answer } from '../../helpers/service.js';
import { authmonSignature, type SigningOptions } from '../../opennds/authmon-signing.js';
import { bootGateway, deviceRef, grantedSession, openGatewayDb, PORTAL_KEY, sessionWorld, tempDir, type World } from './platform.js';

export const NDS = 'nds-venue-1';
export const FASKEY = 'test-faskey-0123456789abcdef';
export const ROUTER = '203.0.113.1';
export const GATEWAYHASH = createHash('sha256').update(NDS).digest('hex');
export const MAC = '02:6e:64:73:00:11';
const SEAL_KEY = GatewayConfig.parse({}).GATEWAY_SEAL_KEY;

function registry(t: ExecutionContext): string {
  const file = join(tempDir(t, 'wifi-nds-'), 'gateways.json');
  const faskey = createSealer(SEAL_KEY).seal(FASKEY);
  writeFileSync(file, JSON.stringify({ gateways: [{ nasId: NDS, profile: 'opennds', address: ROUTER, faskey, loginUrls: ['http://192.168.77.1:2050/'] }] }));
  return file;
}

/** A gateway service with the test registry; its gateway has polled once (authmon's `clear`) unless `polled` is false. */
export async function setup(t: ExecutionContext, env: Record<string, string> = {}, options: { now?: () => Date; polled?: boolean } = {}) {
  const world = await sessionWorld(t);
  const db = await openGatewayDb('memory');
  t.teardown(() => db.close());
  const gateway = await bootGateway(t, db, { SESSION_URL: world.session.url, GATEWAYS_FILE: registry(t), ...env }, options.now);
  /** A request as the router's signing post-request.php sends it; `signing` null sends it unsigned (as openNDS's own does). */
  const authmon = async (auth_get: string, payload: string, from = ROUTER, gatewayhash = GATEWAYHASH, signing: SigningOptions | null = {}) => {
    const request = { auth_get, gatewayhash, payload: Buffer.from(payload).toString('base64') };
    const signature = signing === null ? {} : authmonSignature(FASKEY, request, { at: options.now?.(), ...signing });
    const answer = await gateway.request('POST', `/api/v1/opennds/authmon/${NDS}`, {
      json: { ...request, ...signature, callerAddress: from },
      headers: PORTAL_KEY,
    });
    return { status: answer.status, text: String(answer.body['text'] ?? answer.body['code']) };
  };
  const authorise = (sessionId: string, hid: string, device = deviceRef(MAC, NDS)) =>
    gateway.request('POST', '/api/v1/opennds/authorisations', { json: { sessionId, deviceRef: device, nasId: NDS, hid }, headers: PORTAL_KEY });
  if (options.polled !== false && (await authmon('clear', '')).status !== 200) throw new Error('authmon clear refused');
  return { world, gateway, authmon, authorise };
}

/** A client as openNDS knows it: its token, and the hid the FAS saw (sha256 of the token). */
export function client() {
  const token = randomBytes(4).toString('hex');
  const hid = createHash('sha256').update(token).digest('hex');
  return { token, hid, rhid: rhidOf(hid, FASKEY) };
}

export type Authorise = (sessionId: string, hid: string, device?: string) => Promise<Answer>;

/** BinAuth's deauthentication notice (binauth_log.sh's log line) for a client's token. */
export const deauthNotice = (method: string, token: string) =>
  `method=${method}, clientmac=${MAC}, bytes_incoming=4096, bytes_outgoing=1024, session_start=1700000000, session_end=1700000600, token=${token}, custom=x`;

export const entries = (list: string) =>
  list
    .split(' ')
    .slice(1)
    .map((item) => decodeURIComponent(item).split(' '));

export async function signedIn(world: World, authorise: Authorise, seconds = 1800, extra: Record<string, unknown> = {}) {
  const c = client();
  const sessionId = await grantedSession(world, deviceRef(MAC, NDS), seconds, extra);
  const queued = await authorise(sessionId, c.hid);
  if (queued.status !== 201) throw new Error(queued.text);
  return { ...c, sessionId };
}
