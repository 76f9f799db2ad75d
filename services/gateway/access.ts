import { CONTROLLER_PROFILES } from '../../edge/controllers/index.js';
import { volumeAttributes, volumeCapOf } from '../../edge/controllers/types.js';
import type { Reply } from '../kit/index.js';
import { deviceRefFor, normalizeMac, venueOf, type Gateway, type GatewayRegistry } from '../../edge/index.js';
import type { CredentialStore, GivenCaps } from './credential-store.js';
import { chapMatches, papMatches, passwordFor, usernameHash } from './credentials.js';
import { limitsFor, type QosTable } from './qos.js';
import { octets, reject, text, type RadiusAttributes } from './radius-request.js';
import type { SessionPeer, SessionView } from './session-client.js';

export interface AccessDeps {
  gateways: GatewayRegistry;
  credentials: CredentialStore;
  peer: SessionPeer;
  now: () => Date;
  settings: {
    DEVICE_REF_KEY: string;
    CREDENTIAL_KEY: string;
    ACCT_INTERIM_SECONDS: number;
    IDLE_TIMEOUT_SECONDS: number;
    MAC_AUTH_WINDOW_SECONDS: number;
    QOS_TABLE: QosTable;
  };
}

/** A profile's attributes as the rest module's reply (`reply:` list). */
const replyOf = (attributes: Record<string, number | string>) =>
  Object.fromEntries(Object.entries(attributes).map(([name, value]) => [`reply:${name}`, value]));

const NOT_VALID = 'The sign-in code is not valid; sign in again at the portal.';
const SIGN_IN_AGAIN = 'This device has no live sign-in; sign in again at the portal.';
const MAC_AUTH_OFF = 'This gateway does not let devices back in by MAC address; sign in at the portal.';
const CONNECTED_ELSEWHERE = 'This sign-in is connected on another device or gateway; sign in again at the portal.';
/** The Reply-Message of a sign-in with nothing left: it names the renewal (UTC), never a silent failure. */
const allowanceUsed = (renewsAt: string) => `Your allowance for this period is used up; it renews at ${renewsAt}.`;
const ALLOWANCE_USED = /^Your allowance for this period is used up;/;

/** A reject's Reply-Message as the bounded reason its metric counts. */
const REJECT_REASONS: Readonly<Record<string, string>> = {
  'Unknown gateway.': 'unknown-gateway',
  'Malformed request.': 'malformed',
  [NOT_VALID]: 'not-valid',
  'This sign-in code belongs to another device.': 'other-device',
  'Sign-in is unavailable right now; try again shortly.': 'unavailable',
  'The session has ended.': 'session-ended',
  [SIGN_IN_AGAIN]: 'no-live-session',
  [MAC_AUTH_OFF]: 'mac-auth-off',
  [CONNECTED_ELSEWHERE]: 'connected-elsewhere',
};
export const rejectReasonOf = (reply: Reply): string => {
  const message = String((reply.body as Record<string, unknown> | undefined)?.['reply:Reply-Message']);
  return REJECT_REASONS[message] ?? (ALLOWANCE_USED.test(message) ? 'allowance-used' : 'other');
};

/** The password presented, PAP or CHAP, checked against the one derived for `username`. */
function passwordMatches(attributes: RadiusAttributes, expected: string): boolean | undefined {
  const pap = text(attributes, 'User-Password');
  if (pap !== undefined) return papMatches(expected, pap);
  const chap = octets(attributes, 'CHAP-Password');
  const challenge = octets(attributes, 'CHAP-Challenge');
  if (chap !== undefined && challenge !== undefined) return chapMatches(expected, chap, challenge);
  return undefined;
}

/**
 * Access-Request: accept only a valid, unused credential of a GRANTED, unexpired session
 * whose device is the one asking (Calling-Station-Id), at the gateway it was issued for. Anything
 * else, the session service's silence included, is a reject (fail closed). The credential is used
 * up only by an accept; a controller whose profile `reauthenticates` may present it again.
 */
export async function decideAccess(deps: AccessDeps, nasId: string, attributes: RadiusAttributes, correlationId: string): Promise<Reply> {
  const gateway = deps.gateways.get(nasId);
  if (gateway === undefined) return reject('Unknown gateway.');
  const username = text(attributes, 'User-Name');
  const mac = text(attributes, 'Calling-Station-Id');
  const deviceRef = mac === undefined ? undefined : deviceRefFor(deps.settings.DEVICE_REF_KEY, gateway.nasId, mac);
  if (username === undefined || username.length > 64 || mac === undefined || deviceRef === undefined) return reject('Malformed request.');
  if (isMacAuthentication(username, mac)) return returningDevice(deps, gateway, mac, correlationId);
  const matches = passwordMatches(attributes, passwordFor(deps.settings.CREDENTIAL_KEY, username));
  if (matches === undefined) return reject('Malformed request.');
  const hash = usernameHash(username);
  const credential = await deps.credentials.find(hash);
  const now = deps.now();
  if (!matches || credential === undefined || credential.nasId !== gateway.nasId) return reject(NOT_VALID);
  if (credential.deviceRef !== deviceRef) return reject('This sign-in code belongs to another device.');
  // Used, revoked, expired or ended: decided once, by `consume` below, after the session is checked.
  const lookup = await deps.peer.read(credential.sessionId, correlationId);
  if (lookup.kind === 'unavailable') return reject('Sign-in is unavailable right now; try again shortly.');
  if (lookup.kind === 'not-found') return reject('The session has ended.');
  const session = lookup.session;
  const seconds = secondsLeft(session, now);
  if (session.state !== 'GRANTED' || !(seconds > 0) || session.deviceRef !== credential.deviceRef) return reject('The session has ended.');
  // Nothing left of the allowance: refused before the credential is used up.
  const usedUp = allowanceRefusal(session);
  if (usedUp !== undefined) return usedUp;
  const profile = CONTROLLER_PROFILES[gateway.profile];
  // A controller that re-asks for a device it let in (pfSense) gets the same answer
  // while the session lives; the checks above (NAS, device, live session) hold for it too.
  const consumed = await deps.credentials.consume(hash, now);
  if (!consumed && !(profile.reauthenticates === true && (await deps.credentials.stillInUse(hash)))) return reject(NOT_VALID);
  // A controller without CoA keeps this Accept's caps while the connection runs: recorded, so that
  // a shrunk allowance can be compared with them (disconnect-sender.ts). A reauthentication's
  // Accept (pfSense) is not taken for them: nothing says the controller applies it.
  if (consumed && !profile.coa) await deps.credentials.gave(session.sessionId, gateway.nasId, givenCaps(gateway, session, seconds), now);
  return accept(deps, gateway, session, seconds);
}

/** The refusal of a sign-in whose person has nothing left of the session's allowance (time or data); undefined otherwise. */
export function allowanceRefusal(session: SessionView): Reply | undefined {
  const left = session.remaining ?? null;
  if (left === null || (left.secondsRemaining !== 0 && left.bytesRemaining !== 0)) return undefined;
  return reject(allowanceUsed(left.renewsAt));
}

/** A session's limits as the gateway's controller reads them (Access-Accept and CoA-Request alike). */
export function limitAttributesOf(settings: AccessDeps['settings'], gateway: Gateway, session: SessionView, seconds: number): Record<string, number | string> {
  const limits = limitsFor(settings.QOS_TABLE, session.tier, session.qosClass);
  return CONTROLLER_PROFILES[gateway.profile].replyAttributes({
    sessionSeconds: seconds,
    idleSeconds: settings.IDLE_TIMEOUT_SECONDS,
    interimSeconds: settings.ACCT_INTERIM_SECONDS,
    upBitsPerSecond: limits.up,
    downBitsPerSecond: limits.down,
  });
}

/**
 * A running connection's limits for a CoA-Request: those of an Access-Accept, with the allowance
 * applied to what the connection already used. A controller counts the caps of a CoA from the
 * connection's start (CoovaChilli applies the CoA's session attributes to the running session,
 * its octets and time so far included), so each cap is what the session service counted of this
 * connection plus what the person has left now: a shrunk allowance ends the connection where
 * the new one is used up, a person's other devices' usage included.
 */
export function runningLimitAttributes(
  settings: AccessDeps['settings'],
  gateway: Gateway,
  session: SessionView,
  seconds: number,
  counted: { octets: number; seconds: number },
): Record<string, number | string> {
  const left = session.remaining ?? null;
  const capped = left?.secondsRemaining == null ? seconds : Math.min(seconds, counted.seconds + left.secondsRemaining);
  const declared = CONTROLLER_PROFILES[gateway.profile].volume;
  const volume = left?.bytesRemaining == null || declared?.byCoa !== true ? {} : volumeAttributes(declared, counted.octets + left.bytesRemaining);
  return { ...limitAttributesOf(settings, gateway, session, capped), ...volume };
}

/**
 * Whether a running connection at a controller without CoA holds caps past what the person has
 * left now: the caps its Access-Accept gave (`given`; undefined when not recorded: never a
 * shrink) against what the session service counted of this connection plus what is left, the
 * measure a CoA-Request's caps take (runningLimitAttributes). Time always counts (every profile
 * takes Session-Timeout); data only where the profile has a volume attribute, since only there
 * does the next Accept carry a lower one (elsewhere the counters' Disconnect ends it at zero).
 */
export function exceedsAllowance(gateway: Gateway, session: SessionView, counted: { octets: number; seconds: number }, given: GivenCaps | undefined): boolean {
  const left = session.remaining ?? null;
  if (left === null || given === undefined) return false;
  if (left.secondsRemaining != null && counted.seconds + left.secondsRemaining < given.seconds) return true;
  const volume = CONTROLLER_PROFILES[gateway.profile].volume;
  if (left.bytesRemaining == null || volume === null) return false;
  return given.octets === null || volumeCapOf(volume, counted.octets + left.bytesRemaining) < given.octets;
}

/** What an Access-Accept gives a connection: Session-Timeout no longer than the time left, and the volume cap of the data left (null: none sent). */
export function givenCaps(gateway: Gateway, session: SessionView, seconds: number): GivenCaps {
  const left = session.remaining ?? null;
  const volume = CONTROLLER_PROFILES[gateway.profile].volume;
  return {
    seconds: left?.secondsRemaining == null ? seconds : Math.min(seconds, left.secondsRemaining),
    octets: left?.bytesRemaining == null || volume === null ? null : volumeCapOf(volume, left.bytesRemaining),
  };
}

/**
 * The Access-Accept: the session's limits as the gateway's controller reads them, and the session
 * as Class. With an allowance, Session-Timeout is no longer than the time left of it, and the
 * controller's volume attribute (where its profile has one) carries the data left.
 */
export function accept(deps: AccessDeps, gateway: Gateway, session: SessionView, seconds: number): Reply {
  const left = session.remaining ?? null;
  const given = givenCaps(gateway, session, seconds);
  const volume = left?.bytesRemaining == null ? {} : volumeAttributes(CONTROLLER_PROFILES[gateway.profile].volume, left.bytesRemaining);
  return {
    status: 200,
    body: {
      ...replyOf({ ...limitAttributesOf(deps.settings, gateway, session, given.seconds), ...volume }),
      'reply:Class': session.sessionId,
    },
  };
}

/**
 * MAC authentication, as every profile's controller sends it (CoovaChilli
 * `macauth`, MikroTik `login-by=mac`, Cisco MAB, pfSense's RADIUS MAC authentication): the
 * User-Name is the device's own MAC (Calling-Station-Id), in whatever spelling. Its password is
 * a controller setting, not a secret of the person's, and is not what lets the device in.
 */
function isMacAuthentication(username: string, mac: string): boolean {
  const asMac = normalizeMac(username);
  return asMac !== undefined && asMac === normalizeMac(mac);
}

/**
 * A returning device (it slept past Idle-Timeout, or moved to another gateway of
 * its venue) is let back in with no typing, at a gateway whose registry entry enables it. A MAC
 * proves nothing (anyone can copy one off the air), so the platform takes it only where the real
 * device cannot be at the same time: never while a connection of the session is open (a Start
 * without Stop), and only within MAC_AUTH_WINDOW_SECONDS of its last Stop. The Accept claims no
 * more than that: its Session-Timeout is what is left of the window, or of the session if less.
 */
async function returningDevice(deps: AccessDeps, gateway: Gateway, mac: string, correlationId: string): Promise<Reply> {
  if (!gateway.macAuthentication) return reject(MAC_AUTH_OFF);
  const refs = venueOf(deps.gateways, gateway).map((member) => deviceRefFor(deps.settings.DEVICE_REF_KEY, member.nasId, mac) as string);
  const returning = await deps.credentials.liveSessionOf(refs);
  if (returning === undefined) return reject(SIGN_IN_AGAIN);
  if (returning.open) return reject(CONNECTED_ELSEWHERE);
  const windowLeft = windowSecondsLeft(returning.lastStopAt, deps.settings.MAC_AUTH_WINDOW_SECONDS, deps.now());
  if (!(windowLeft > 0)) return reject(SIGN_IN_AGAIN);
  const lookup = await deps.peer.read(returning.sessionId, correlationId);
  if (lookup.kind === 'unavailable') return reject('Sign-in is unavailable right now; try again shortly.');
  if (lookup.kind === 'not-found') return reject(SIGN_IN_AGAIN);
  const session = lookup.session;
  const seconds = secondsLeft(session, deps.now());
  if (session.state !== 'GRANTED' || !(seconds > 0) || session.deviceRef === null || !refs.includes(session.deviceRef)) return reject(SIGN_IN_AGAIN);
  const nothingLeft = allowanceRefusal(session);
  if (nothingLeft !== undefined) return nothingLeft;
  const here = deviceRefFor(deps.settings.DEVICE_REF_KEY, gateway.nasId, mac) as string;
  await deps.credentials.acceptedAt(
    { usernameHash: usernameHash(`mac\n${gateway.nasId}\n${session.sessionId}`), sessionId: session.sessionId, deviceRef: here, nasId: gateway.nasId },
    deps.now(),
  );
  const acceptSeconds = Math.min(seconds, windowLeft);
  if (!CONTROLLER_PROFILES[gateway.profile].coa)
    await deps.credentials.gave(session.sessionId, gateway.nasId, givenCaps(gateway, session, acceptSeconds), deps.now());
  return accept(deps, gateway, session, acceptSeconds);
}

/** Whole seconds left of the window after the last Stop (NaN when no connection ever stopped). */
function windowSecondsLeft(lastStopAt: Date | null, windowSeconds: number, now: Date): number {
  if (lastStopAt === null) return Number.NaN;
  return Math.floor((lastStopAt.getTime() + windowSeconds * 1000 - now.getTime()) / 1000);
}

/** Whole seconds from now to the session's expiresAt (NaN when it has none). */
export function secondsLeft(session: SessionView, now: Date): number {
  const expiresAt = session.expiresAt === null ? Number.NaN : Date.parse(session.expiresAt);
  return Math.floor((expiresAt - now.getTime()) / 1000);
}
