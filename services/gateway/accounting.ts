import { BUFFERED_USERNAME_HASH } from '../../contract/index.js';
import type { ConnectionStore, Usage } from './connection-store.js';
import type { CredentialStore } from './credential-store.js';
import { usernameHash } from './credentials.js';
import { count, octets, text, type RadiusAttributes } from './radius-request.js';

/** What an accounting packet did; `logged-off`: the caller ends the network session. */
export type AccountingOutcome =
  | { kind: 'recorded' }
  | { kind: 'ignored' }
  | { kind: 'nas-restart'; closed: number }
  | { kind: 'logged-off'; sessionId: string };

/** The attributes a controller's Disconnect-Request may have to name the session by, as the NAS sent them. */
export const IDENTITY_ATTRIBUTES = ['User-Name', 'Calling-Station-Id', 'Framed-IP-Address', 'NAS-IP-Address', 'NAS-Identifier'] as const;
export type SessionIdentity = Partial<Record<(typeof IDENTITY_ATTRIBUTES)[number], string>>;

/** The attributes a Disconnect may need, or undefined when the packet has none (one replayed from FreeRADIUS's buffer, which keeps none of them). */
function identityOf(attributes: RadiusAttributes): SessionIdentity | undefined {
  const identity: SessionIdentity = {};
  let any = false;
  for (const name of IDENTITY_ATTRIBUTES) {
    const value = text(attributes, name);
    if (value !== undefined && value.length <= 253) {
      identity[name] = value;
      any = true;
    }
  }
  return any ? identity : undefined;
}

/**
 * When the packet's event happened: its arrival less Acct-Delay-Time (RFC 2866 5.2;
 * FreeRADIUS's detail reader adds the time an entry waited in the buffer). A delay over
 * `maxDelaySeconds` is ignored (the arrival time is used): a NAS's nonsense must not move a
 * connection's times by years.
 */
export function eventTime(attributes: RadiusAttributes, arrival: Date, maxDelaySeconds: number): Date {
  const delay = count(attributes, 'Acct-Delay-Time');
  return delay > maxDelaySeconds ? arrival : new Date(arrival.getTime() - delay * 1000);
}

const sealIdentity = (seal: (text: string) => string, identity: SessionIdentity | undefined) =>
  identity === undefined ? null : seal(JSON.stringify(identity));

const DEVICE_ID = /^dev-[0-9a-f]{24}$/;

/**
 * An 802.1X connection's device credential (the Chargeable-User-Identity its Accept carried, which
 * the NAS echoes, RFC 4372) and its calling station as a keyed HMAC: what lets one credential serve
 * one device at a time (decision 0113). Neither is the person or a MAC.
 */
function deviceStation(attributes: RadiusAttributes, stationOf: (mac: string) => string | undefined) {
  // FreeRADIUS's dictionary has it as octets (sent as 0x...); a NAS-side text form is taken too.
  const cui = octets(attributes, 'Chargeable-User-Identity')?.toString('utf8') ?? text(attributes, 'Chargeable-User-Identity');
  const mac = text(attributes, 'Calling-Station-Id');
  return {
    deviceId: cui !== undefined && DEVICE_ID.test(cui) ? cui : null,
    stationRef: mac === undefined ? null : (stationOf(mac) ?? null),
  };
}

const SESSION_ID = /^sess-[A-Za-z0-9-]{1,59}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;
const STATUSES = new Set<Usage['status']>(['Start', 'Interim-Update', 'Stop']);
/** RFC 2866 5.1: a NAS announcing it started (after a reboot) or is going down. */
const NAS_RESTARTS = new Set(['Accounting-On', 'Accounting-Off']);
const GIGAWORD = 2 ** 32;

/**
 * Accounting: Start, Interim-Update and Stop recorded per gateway session. The network
 * session is the `Class` the Access-Accept carried (the NAS copies it into accounting) when that
 * NAS used the session's credential, else the one the credential in User-Name was issued for at
 * this NAS. Accounting-On/Off closes every connection the NAS had open; a Stop with
 * Acct-Terminate-Cause User-Request (the person logged off at the gateway) ends the network
 * session. Packets of no session of ours are acknowledged and ignored: a NAS would resend them
 * forever otherwise.
 */
export async function recordAccounting(
  connections: ConnectionStore,
  credentials: CredentialStore,
  seal: (text: string) => string,
  nasId: string,
  attributes: RadiusAttributes,
  arrival: Date,
  maxDelaySeconds: number,
  stationOf: (mac: string) => string | undefined = () => undefined,
): Promise<AccountingOutcome> {
  const now = eventTime(attributes, arrival, maxDelaySeconds);
  const status = text(attributes, 'Acct-Status-Type') as Usage['status'] | undefined;
  if (status !== undefined && NAS_RESTARTS.has(status)) return { kind: 'nas-restart', closed: await connections.closeAllOf(nasId, now) };
  const acctSessionId = text(attributes, 'Acct-Session-Id');
  if (status === undefined || !STATUSES.has(status) || acctSessionId === undefined || acctSessionId.length > 253) return { kind: 'ignored' };
  const username = text(attributes, 'User-Name');
  // A buffered entry (replayed by FreeRADIUS after an outage) has no User-Name, only its hash.
  const buffered = text(attributes, BUFFERED_USERNAME_HASH);
  const hash = username !== undefined ? usernameHash(username) : buffered !== undefined && SHA256_HEX.test(buffered) ? buffered : null;
  const fromClass = octets(attributes, 'Class')?.toString('utf8');
  const classForm = fromClass !== undefined && SESSION_ID.test(fromClass);
  const counters = {
    inputOctets: count(attributes, 'Acct-Input-Octets') + count(attributes, 'Acct-Input-Gigawords') * GIGAWORD,
    outputOctets: count(attributes, 'Acct-Output-Octets') + count(attributes, 'Acct-Output-Gigawords') * GIGAWORD,
    sessionTime: count(attributes, 'Acct-Session-Time'),
  };
  // The many Interim-Updates of a running connection: its counters, one statement.
  if (
    status === 'Interim-Update' &&
    (await connections.interim({ nasId, acctSessionId, sessionId: classForm ? fromClass : null, usernameHash: classForm ? null : hash }, counters, now))
  )
    return { kind: 'recorded' };
  // Class is believed only from the NAS the session's credential was used at; the
  // credential in User-Name only at the NAS it was issued for.
  const classTrusted = classForm && (await credentials.usedAt(fromClass, nasId));
  const credential = classTrusted || hash === null ? undefined : await credentials.find(hash);
  const sessionId = classTrusted ? fromClass : credential?.nasId === nasId ? credential.sessionId : undefined;
  if (sessionId === undefined) return { kind: 'ignored' };
  const stopCause = status === 'Stop' ? (text(attributes, 'Acct-Terminate-Cause') ?? null) : null;
  await connections.record(
    {
      nasId,
      acctSessionId,
      sessionId,
      usernameHash: hash,
      status,
      ...counters,
      // Sealed: a MAC (Calling-Station-Id) and the user name never rest in clear.
      sealedIdentity: status === 'Stop' ? null : sealIdentity(seal, identityOf(attributes)),
      stopCause: stopCause !== null && stopCause.length <= 64 ? stopCause : null,
      ...deviceStation(attributes, stationOf),
    },
    now,
  );
  // The person logged off at the gateway: the network session ends (its slot is free).
  return stopCause === 'User-Request' ? { kind: 'logged-off', sessionId } : { kind: 'recorded' };
}
