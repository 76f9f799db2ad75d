import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { deviceRefFor } from '../../edge/index.js';
import type { Queryable } from '../kit/store/index.js';

/**
 * 802.1X device credentials (EAP-TTLS, inner PAP): a random user name `<random>@<realm>` and a
 * random password, shown once to the signed-in person and kept only as HMAC(DEVICE_CREDENTIAL_KEY, ...).
 * Both are 128 bits or more from the CSPRNG, so there is no dictionary a slow hash (argon2, scrypt)
 * would hold back, while it would cost every authentication milliseconds of CPU; the key makes a
 * copied table useless without the service's configuration (decision 0096).
 */
export function newDeviceCredential(realm: string): { deviceId: string; username: string; password: string } {
  return {
    deviceId: `dev-${randomBytes(12).toString('hex')}`,
    username: `${randomBytes(16).toString('hex')}@${realm}`,
    password: randomBytes(18).toString('base64url'),
  };
}

/**
 * A calling station (Calling-Station-Id) as the connections keep it: a keyed HMAC of the normalised
 * MAC, the same at every gateway (a device roaming between a venue's controllers is one station),
 * never the MAC. Undefined for something that is not a MAC.
 */
export function stationRefFor(key: string, mac: string): string | undefined {
  return deviceRefFor(key, '802.1x-station', mac);
}

/** HMAC of one half of a credential; the label keeps a user name's hash from ever matching a password's. */
export function deviceHash(key: string, kind: 'username' | 'password', value: string): string {
  return createHmac('sha256', key).update(`device-${kind}\n${value}`).digest('hex');
}

export function deviceHashMatches(expected: string, actual: string): boolean {
  const a = Buffer.from(expected, 'hex');
  const b = Buffer.from(actual, 'hex');
  return a.length === b.length && a.length > 0 && timingSafeEqual(a, b);
}

export interface DeviceCredential {
  deviceId: string;
  sessionId: string;
  label: string;
  createdAt: Date;
}

export interface LiveDeviceCredential extends DeviceCredential {
  passwordHash: string;
}

/** A live credential as an authentication reads it: with whether the gateway already knows its sign-in ended. */
export interface FoundDeviceCredential extends LiveDeviceCredential {
  sessionEnded: boolean;
}

/** The device credentials of the sign-ins, and the removal of each. */
export interface DeviceCredentialStore {
  /** Stores a credential unless the session holds `maxPerSession` live ones already (false then). */
  issue(credential: LiveDeviceCredential & { usernameHash: string }, maxPerSession: number): Promise<boolean>;
  /** The live (not removed) credentials of a session, oldest first. */
  list(sessionId: string): Promise<DeviceCredential[]>;
  /** Removes a live credential of the session; false when it has none by that id. */
  remove(sessionId: string, deviceId: string, now: Date): Promise<boolean>;
  /** The live credential with this user name hash; undefined for one never issued or removed. */
  find(usernameHash: string): Promise<FoundDeviceCredential | undefined>;
  /**
   * Whether the credential has a live 802.1X connection from a station other than `stationRef`:
   * accounting started, not stopped, and heard of since `since`.
   */
  liveElsewhere(deviceId: string, stationRef: string, since: Date): Promise<boolean>;
  /** Deletes every credential of these sessions (a person's erasure); the number deleted. */
  erase(sessionIds: readonly string[]): Promise<number>;
}

interface Row {
  device_id: string;
  session_id: string;
  label: string;
  created_at: Date;
  password_hash: string;
  [column: string]: unknown;
}

const toCredential = (row: Row): DeviceCredential => ({ deviceId: row.device_id, sessionId: row.session_id, label: row.label, createdAt: row.created_at });

export function createDeviceCredentialStore(db: Queryable): DeviceCredentialStore {
  return {
    async issue(credential, maxPerSession) {
      // One statement: the count and the insert cannot be split by another issue of the session.
      const rows = await db.query(
        `INSERT INTO device_credentials (device_id, username_hash, password_hash, session_id, label, created_at)
         SELECT $1, $2, $3, $4, $5, $6
         WHERE (SELECT count(*) FROM device_credentials WHERE session_id = $4 AND removed_at IS NULL) < $7
         RETURNING device_id`,
        [credential.deviceId, credential.usernameHash, credential.passwordHash, credential.sessionId, credential.label, credential.createdAt, maxPerSession],
      );
      return rows.length === 1;
    },
    async list(sessionId) {
      const rows = await db.query<Row>(
        'SELECT device_id, session_id, label, created_at, password_hash FROM device_credentials WHERE session_id = $1 AND removed_at IS NULL ORDER BY created_at, device_id',
        [sessionId],
      );
      return rows.map(toCredential);
    },
    async remove(sessionId, deviceId, now) {
      const rows = await db.query(
        'UPDATE device_credentials SET removed_at = $3 WHERE session_id = $1 AND device_id = $2 AND removed_at IS NULL RETURNING device_id',
        [sessionId, deviceId, now],
      );
      return rows.length === 1;
    },
    async find(usernameHash) {
      // The ended-sessions record is read in the same statement: one query per 802.1X authentication instead of two.
      const rows = await db.query<Row & { session_ended: boolean }>(
        `SELECT device_id, session_id, label, created_at, password_hash,
                EXISTS (SELECT 1 FROM ended_sessions e WHERE e.session_id = device_credentials.session_id) AS session_ended
         FROM device_credentials WHERE username_hash = $1 AND removed_at IS NULL`,
        [usernameHash],
      );
      const row = rows[0];
      return row === undefined ? undefined : { ...toCredential(row), passwordHash: row.password_hash, sessionEnded: row.session_ended === true };
    },
    async liveElsewhere(deviceId, stationRef, since) {
      const rows = await db.query(
        `SELECT 1 FROM connections WHERE device_id = $1 AND stopped_at IS NULL AND updated_at >= $3 AND station_ref IS DISTINCT FROM $2 LIMIT 1`,
        [deviceId, stationRef, since],
      );
      return rows.length > 0;
    },
    async erase(sessionIds) {
      if (sessionIds.length === 0) return 0;
      return (await db.query('DELETE FROM device_credentials WHERE session_id = ANY($1::text[]) RETURNING device_id', [sessionIds])).length;
    },
  };
}
