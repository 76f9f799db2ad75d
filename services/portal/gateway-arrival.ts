import { CONTROLLER_PROFILES, profileOfArrival, type ArrivalContext, type ProfileId } from '../../contract/controllers/index.js';
import { arrivalIntegrityHolds, arrivalNeedsOutsideAddress, deviceRefFor, fromGatewayOutside, gatewayForArrival, type GatewayRegistry } from '../kit/index.js';
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
 * Issue 27: what an arrival at `/gateway` is. The controller is recognised by its parameters and
 * its profile reads them; the gateway must be registered, of that controller, and the login
 * address the arrival names must be one the registry holds for it (the login URL kept is the
 * registry's); a controller that signs its redirect (CoovaChilli `md` with a UAM secret) must have
 * signed this one (`signedUrl`: the arrival's URL as the controller built it). An arrival nothing
 * signs binds a device only when it comes from the gateway's outside addresses (`callerAddress`).
 */
export function readGatewayArrival(deps: ArrivalDeps, query: Record<string, unknown>, signedUrl: string, callerAddress: string): ArrivalOutcome {
  const repeated = Object.keys(query).filter((key) => typeof query[key] !== 'string');
  const single = Object.fromEntries(Object.entries(query).filter(([, value]) => typeof value === 'string')) as Record<string, string>;
  const profileId: ProfileId | undefined = profileOfArrival(single);
  if (profileId === undefined) return repeated.length > 0 ? { kind: 'refused', why: 'malformed', problems: repeated } : { kind: 'none' };
  if (repeated.length > 0) return { kind: 'refused', why: 'malformed', problems: repeated };
  const profile = CONTROLLER_PROFILES[profileId];
  const read = profile.arrival.read(single);
  if (!read.ok) return { kind: 'refused', why: 'malformed', problems: read.problems };
  const arrival = read.arrival;
  const match = gatewayForArrival(deps.registry, profileId, arrival.nasId, arrival.loginUrl);
  if (match.kind === 'unknown-gateway') return { kind: 'refused', why: 'unknown-gateway', problems: [] };
  if (match.kind !== 'found') return { kind: 'refused', why: 'unregistered-login-address', problems: [] };
  if (!arrivalIntegrityHolds(profile.arrival.integrity, signedUrl, match.gateway.uamSecret)) return { kind: 'refused', why: 'unverified', problems: [] };
  const bindable = (arrival.state === 'login' || arrival.state === 'failed') && arrival.mac !== null && (profile.login.chap === 'none' || arrival.challenge !== null);
  const deviceRef = bindable && arrival.mac !== null ? deviceRefFor(deps.deviceRefKey, match.gateway.nasId, arrival.mac) : undefined;
  if (deviceRef === undefined) {
    return arrival.state === 'login' ? { kind: 'refused', why: 'malformed', problems: ['mac'] } : { kind: 'state', arrival };
  }
  if (arrivalNeedsOutsideAddress(match.gateway) && !fromGatewayOutside(match.gateway, callerAddress)) return { kind: 'refused', why: 'off-network', problems: [] };
  return {
    kind: 'context',
    arrival,
    context: { profile: profileId, nasId: match.gateway.nasId, deviceRef, loginUrl: match.loginUrl, challenge: arrival.challenge, chapId: arrival.chapId, returnUrl: arrival.returnUrl },
  };
}
