import { CONTROLLER_PROFILES, profileOfArrival, type ArrivalContext, type ProfileId } from '../../edge/controllers/index.js';
import { withoutEmpty } from '../../edge/controllers/types.js';
import {
  arrivalIntegrityHolds,
  arrivalNeedsOutsideAddress,
  deviceRefFor,
  fromGatewayOutside,
  gatewayForArrival,
  type GatewayRegistry,
} from '../../edge/index.js';
import type { GatewayContext } from './gateway-context.js';

/** Why an arrival is refused before any password is typed (each a page, never a JSON error). */
export type ArrivalRefusal = 'malformed' | 'unknown-gateway' | 'unregistered-login-address' | 'unverified' | 'off-network';

export type ArrivalOutcome =
  /** No gateway parameters: the portal works as before (API mode). */
  | { kind: 'none' }
  | { kind: 'refused'; why: ArrivalRefusal; problems: string[] }
  /** A device to sign in (a first arrival, or one to try again after a refused login). */
  | { kind: 'context'; arrival: ArrivalContext; context: GatewayContext }
  /** A state to tell the person (connected, logged off, already, or failed without a way to bind the device). */
  | { kind: 'state'; arrival: ArrivalContext };

export interface ArrivalDeps {
  registry: GatewayRegistry;
  deviceRefKey: string;
}

/**
 * CoovaChilli with `uamhomepage` set (HS_UAMHOMEPAGE) sends a captive device to that page with
 * one parameter, `loginurl`: the redirect it would otherwise have sent (to HS_UAMFORMAT, signed
 * with `md` when it has a UAM secret), URL-encoded (redir.c, its homepage branch). Read as that
 * redirect: its parameters and the URL it signed. Every check below still applies to it.
 */
function unwrapLoginUrl(query: Readonly<Record<string, unknown>>, signedUrl: string): { query: Readonly<Record<string, unknown>>; signedUrl: string } {
  const loginUrl = query['loginurl'];
  if (typeof loginUrl !== 'string' || profileOfArrival(withoutEmpty(query)) !== undefined) return { query, signedUrl };
  let inner: URL;
  try {
    inner = new URL(loginUrl);
  } catch {
    return { query, signedUrl };
  }
  if (inner.protocol !== 'http:' && inner.protocol !== 'https:') return { query, signedUrl };
  const params: Record<string, string | string[]> = {};
  for (const key of new Set(inner.searchParams.keys())) {
    const [first, ...more] = inner.searchParams.getAll(key);
    params[key] = more.length === 0 ? (first ?? '') : [first ?? '', ...more];
  }
  return { query: params, signedUrl: loginUrl };
}

/**
 * What an arrival at `/gateway` is. The controller is recognised by its parameters and
 * its profile reads them; the gateway must be registered, of that controller, and the login
 * address the arrival names must be one the registry holds for it (the login URL kept is the
 * registry's); a controller that signs its redirect (CoovaChilli `md` with a UAM secret) must have
 * signed this one (`signedUrl`: the arrival's URL as the controller built it). What real
 * controllers send besides is tolerated: a parameter sent empty is absent, one the profile does
 * not name is ignored; one it names sent twice is refused (which of the two would be the
 * controller's?), as a page that says what to do. An arrival nothing signs binds a device only
 * when it comes from the gateway's outside addresses (`callerAddress`).
 */
export function readGatewayArrival(deps: ArrivalDeps, received: Record<string, unknown>, receivedUrl: string, callerAddress: string): ArrivalOutcome {
  const { query, signedUrl } = unwrapLoginUrl(received, receivedUrl);
  const profileId: ProfileId | undefined = profileOfArrival(withoutEmpty(query));
  if (profileId === undefined) return { kind: 'none' };
  const profile = CONTROLLER_PROFILES[profileId];
  const read = profile.arrival.read(query);
  if (!read.ok) return { kind: 'refused', why: 'malformed', problems: read.problems };
  const arrival = read.arrival;
  const match = gatewayForArrival(deps.registry, profileId, arrival.nasId, arrival.loginUrl);
  if (match.kind === 'unknown-gateway') return { kind: 'refused', why: 'unknown-gateway', problems: [] };
  if (match.kind !== 'found') return { kind: 'refused', why: 'unregistered-login-address', problems: [] };
  if (!arrivalIntegrityHolds(profile.arrival.integrity, signedUrl, match.gateway.uamSecret)) return { kind: 'refused', why: 'unverified', problems: [] };
  const bindable =
    (arrival.state === 'login' || arrival.state === 'failed') && arrival.mac !== null && (profile.login.chap === 'none' || arrival.challenge !== null);
  const deviceRef = bindable && arrival.mac !== null ? deviceRefFor(deps.deviceRefKey, match.gateway.nasId, arrival.mac) : undefined;
  if (deviceRef === undefined) {
    return arrival.state === 'login' ? { kind: 'refused', why: 'malformed', problems: ['mac'] } : { kind: 'state', arrival };
  }
  if (arrivalNeedsOutsideAddress(match.gateway) && !fromGatewayOutside(match.gateway, callerAddress))
    return { kind: 'refused', why: 'off-network', problems: [] };
  return {
    kind: 'context',
    arrival,
    context: {
      profile: profileId,
      nasId: match.gateway.nasId,
      deviceRef,
      loginUrl: match.loginUrl,
      challenge: arrival.challenge,
      chapId: arrival.chapId,
      returnUrl: arrival.returnUrl,
    },
  };
}
