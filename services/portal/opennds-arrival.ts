import { FAS_QUERY_PARAMETERS, parseLevel1Fas } from '../../edge/controllers/opennds.js';
import { decryptFasQuery } from '../../edge/opennds-crypto.js';
import { deviceRefFor, fromGatewayOutside, normalUrl, type GatewayRegistry } from '../../edge/index.js';
import type { GatewayContext } from './gateway-context.js';

/** Why an openNDS arrival is refused before any password (each a page: 4xx, or 503 when the gateway service does not answer). */
export type OpenndsRefusal =
  | 'malformed'
  | 'unknown-gateway'
  | 'unverified'
  | 'unregistered-login-address'
  | 'off-network'
  | 'replayed'
  | 'insecure-level'
  | 'not-polling'
  | 'gateway-unavailable';

/** A context made (or this browser's own found again): `id` is its cookie value. */
export type OpenndsArrival = { kind: 'refused'; why: OpenndsRefusal; problems: string[] } | { kind: 'context'; context: GatewayContext; id: string };

export interface OpenndsArrivalDeps {
  registry: GatewayRegistry;
  deviceRefKey: string;
  /**
   * Keeps the context, holding its hid (gateway-context-store.ts `holdHid`): its cookie value, or
   * undefined when a grant spent the hid or another browser's live context holds it.
   */
  holdHid(context: GatewayContext & { hid: string }): Promise<string | undefined>;
  /** Whether the gateway's authmon polls the platform (gateway service); undefined when that could not be asked. */
  polling(nasId: string): Promise<boolean | undefined>;
}

/**
 * A device openNDS sent to `/opennds/<nasId>` (the router's `faspath`) at FAS level 3.
 * The gateway is the registry's entry of that id, of profile `opennds`; its faskey must decrypt
 * the query (AES-256-CBC) into an openNDS query (a wrong key or a changed ciphertext does not),
 * whose `gatewayname` is the registered id and whose `gatewayaddress` is one the entry registered
 * (`http://<gatewayaddress>/`). The link carries no time and no binding to the browser that
 * opens it, so it is taken only from the gateway's outside addresses (`callerAddress`, as the
 * trusted proxies report it: a copy opened elsewhere binds nothing), and its `hid` makes one
 * hand-off at a time: held by the context made here while it lives (another browser's arrival
 * with it is a replay; the same browser, by its cookie, gets its context again) and spent by the
 * grant a sign-in queues with it. A hand-off that ended without a grant (the sign-in refused, the
 * context expired) leaves the hid to the device's next arrival: openNDS 9.10 gives a client a new
 * token only when it was authenticated and is deauthenticated, or forgets it (docs/decisions/0097).
 * The MAC leaves here
 * only as the keyed deviceRef; the hid is kept for the rhid the gateway service computes.
 * Levels 1 and 2 are refused before any password (docs/operate/opennds.md): a level 1 query (plain
 * base64, no `iv`) can be forged; a level 2 query is encrypted as level 3's, but no authmon runs
 * there, so the gateway is taken only while its authmon polls the platform (which also refuses a
 * level 3 gateway that stopped polling: its device would wait for an authorisation forever).
 */
export async function readOpenndsArrival(
  deps: OpenndsArrivalDeps,
  nasId: string,
  query: Record<string, unknown>,
  callerAddress: string,
): Promise<OpenndsArrival> {
  const fas = query[FAS_QUERY_PARAMETERS.fas];
  const iv = query[FAS_QUERY_PARAMETERS.iv];
  if (typeof fas === 'string' && iv === undefined && parseLevel1Fas(fas) !== undefined) return { kind: 'refused', why: 'insecure-level', problems: [] };
  const problems = [FAS_QUERY_PARAMETERS.fas, FAS_QUERY_PARAMETERS.iv].filter((name) => typeof query[name] !== 'string');
  if (typeof fas !== 'string' || typeof iv !== 'string') return { kind: 'refused', why: 'malformed', problems };
  const gateway = deps.registry.get(nasId);
  if (gateway === undefined || gateway.profile !== 'opennds' || gateway.faskey === undefined) return { kind: 'refused', why: 'unknown-gateway', problems: [] };
  if (!fromGatewayOutside(gateway, callerAddress)) return { kind: 'refused', why: 'off-network', problems: [] };
  const fields = decryptFasQuery(fas, iv, gateway.faskey);
  if (fields === undefined || fields.gatewayname !== gateway.nasId) return { kind: 'refused', why: 'unverified', problems: [] };
  const address = normalUrl(`http://${fields.gatewayaddress}/`);
  if (address === undefined || !gateway.loginUrls.includes(address)) return { kind: 'refused', why: 'unregistered-login-address', problems: [] };
  const deviceRef = deviceRefFor(deps.deviceRefKey, gateway.nasId, fields.clientmac);
  if (deviceRef === undefined) return { kind: 'refused', why: 'malformed', problems: ['clientmac'] };
  const polling = await deps.polling(gateway.nasId);
  if (polling !== true) return { kind: 'refused', why: polling === undefined ? 'gateway-unavailable' : 'not-polling', problems: [] };
  const returnUrl = fields.originurl !== undefined && /^https?:\/\//.test(fields.originurl) && fields.originurl.length <= 2048 ? fields.originurl : null;
  const context = {
    profile: 'opennds',
    nasId: gateway.nasId,
    deviceRef,
    loginUrl: address,
    challenge: null,
    chapId: null,
    returnUrl,
    hid: fields.hid,
  } as const;
  const id = await deps.holdHid(context);
  if (id === undefined) return { kind: 'refused', why: 'replayed', problems: [] };
  return { kind: 'context', context, id };
}
