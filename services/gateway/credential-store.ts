import type { Queryable } from '../kit/store/index.js';

/**
 * What a credential is bound to. None of it changes after issue; whether the credential may still
 * be used (unused, not revoked, unexpired, its session not ended) is decided by `consume` alone.
 */
export interface CredentialBinding {
  usernameHash: string;
  sessionId: string;
  deviceRef: string;
  nasId: string;
  expiresAt: Date;
}

interface CredentialRow {
  username_hash: string;
  session_id: string;
  device_ref: string;
  nas_id: string;
  expires_at: Date;
  [column: string]: unknown;
}

const toBinding = (row: CredentialRow): CredentialBinding => ({
  usernameHash: row.username_hash,
  sessionId: row.session_id,
  deviceRef: row.device_ref,
  nasId: row.nas_id,
  expiresAt: row.expires_at,
});

/** The session a returning device signed in under, and how its connections stand (accounting). */
export interface ReturningSession {
  sessionId: string;
  /** Whether one of its connections is open: a Start with no Stop yet (nor an acknowledged Disconnect). */
  open: boolean;
  /** When its last connection stopped (the Stop's event time); null when none has. */
  lastStopAt: Date | null;
}

/** Most bindings of credentials issued by this process kept in memory (each lives at most 120 s). */
const ISSUED_IN_MEMORY = 50_000;

/** The gateway service's one-time credentials and the sessions they stand for. */
export interface CredentialStore {
  /** A credential issued for a session's device at a NAS, usable once until it expires. */
  issue(credential: { usernameHash: string; sessionId: string; deviceRef: string; nasId: string; issuedAt: Date; expiresAt: Date }): Promise<void>;
  /** The binding of a credential, used or not; undefined for one never issued. */
  find(usernameHash: string): Promise<CredentialBinding | undefined>;
  /** Marks the credential used; false when it was used, revoked, expired or its session ended meanwhile. */
  consume(usernameHash: string, now: Date): Promise<boolean>;
  /**
   * Whether a used credential still stands for its connection (pfSense re-asks RADIUS
   * every minute with it): used, not revoked, its session not ended. Its 120 s to first use do
   * not bound this; the caller checks the session is still GRANTED for the same device and NAS.
   */
  stillInUse(usernameHash: string): Promise<boolean>;
  /**
   * Whether a credential of this session was used at this NAS, i.e. whether the NAS
   * got the Access-Accept carrying the session as `Class`. Only then is its accounting's Class
   * believed; a yes is remembered (it cannot turn into a no).
   */
  usedAt(sessionId: string, nasId: string): Promise<boolean>;
  /**
   * The session a returning device signed in under: the newest credential used
   * by any of `deviceRefs` (the device at each gateway of its venue), not revoked, whose session
   * has not ended; with how its connections stand (one statement). The caller checks the session
   * is still GRANTED and unexpired.
   */
  liveSessionOf(deviceRefs: readonly string[]): Promise<ReturningSession | undefined>;
  /** A MAC authentication accepted at `nasId` counts as a credential of the session used there. */
  acceptedAt(binding: { usernameHash: string; sessionId: string; deviceRef: string; nasId: string }, now: Date): Promise<void>;
  /** Whether the session service has ended this session (its feed reached this store). */
  ended(sessionId: string): Promise<boolean>;
  /**
   * What an Access-Accept of this session at this NAS gave its connection (Session-Timeout, and the
   * volume cap sent or null), kept on the session's newest used credential there (a returning
   * device's MAC authentication may have made none of its own): a controller without CoA keeps
   * these caps while the connection runs. The latest one recorded is the running connection's.
   */
  gave(sessionId: string, nasId: string, given: GivenCaps, now: Date): Promise<void>;
}

/** The caps an Access-Accept sent: Session-Timeout in seconds, the volume attribute's octets (null: none sent). */
export interface GivenCaps {
  seconds: number;
  octets: number | null;
}

/**
 * Credentials and ended sessions as SQL; "used once" is decided by a conditional UPDATE. The
 * bindings of the credentials this process issued are also kept in memory until they expire or
 * are used, so an Access-Request of one of them costs one statement (the UPDATE), not two; a
 * credential another process issued (several gateway services on one PostgreSQL) is read.
 */
export function createCredentialStore(db: Queryable): CredentialStore {
  const issued = new Map<string, CredentialBinding>();
  const usedPairs = new Set<string>();
  const forgetExpired = (now: Date) => {
    // Insertion order is issue order, and every credential lives CREDENTIAL_TTL_SECONDS.
    for (const [hash, binding] of issued) {
      if (binding.expiresAt > now && issued.size < ISSUED_IN_MEMORY) break;
      issued.delete(hash);
    }
  };
  return {
    async issue(credential: { usernameHash: string; sessionId: string; deviceRef: string; nasId: string; issuedAt: Date; expiresAt: Date }): Promise<void> {
      await db.query(`INSERT INTO credentials (username_hash, session_id, device_ref, nas_id, issued_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`, [
        credential.usernameHash,
        credential.sessionId,
        credential.deviceRef,
        credential.nasId,
        credential.issuedAt,
        credential.expiresAt,
      ]);
      forgetExpired(credential.issuedAt);
      const { usernameHash, sessionId, deviceRef, nasId, expiresAt } = credential;
      issued.set(usernameHash, { usernameHash, sessionId, deviceRef, nasId, expiresAt });
    },

    async find(usernameHash: string): Promise<CredentialBinding | undefined> {
      const known = issued.get(usernameHash);
      if (known !== undefined) return known;
      const rows = await db.query<CredentialRow>('SELECT username_hash, session_id, device_ref, nas_id, expires_at FROM credentials WHERE username_hash = $1', [
        usernameHash,
      ]);
      return rows[0] === undefined ? undefined : toBinding(rows[0]);
    },

    async consume(usernameHash: string, now: Date): Promise<boolean> {
      const rows = await db.query(
        `UPDATE credentials SET used_at = $2
         WHERE username_hash = $1 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > $2
           AND NOT EXISTS (SELECT 1 FROM ended_sessions e WHERE e.session_id = credentials.session_id)
         RETURNING username_hash`,
        [usernameHash, now],
      );
      if (rows.length === 1) issued.delete(usernameHash);
      return rows.length === 1;
    },

    async stillInUse(usernameHash: string): Promise<boolean> {
      const rows = await db.query(
        `SELECT 1 FROM credentials c WHERE c.username_hash = $1 AND c.used_at IS NOT NULL AND c.revoked_at IS NULL
           AND NOT EXISTS (SELECT 1 FROM ended_sessions e WHERE e.session_id = c.session_id)`,
        [usernameHash],
      );
      return rows.length === 1;
    },

    async usedAt(sessionId: string, nasId: string): Promise<boolean> {
      const pair = `${nasId}\n${sessionId}`;
      if (usedPairs.has(pair)) return true;
      const found =
        (await db.query('SELECT 1 FROM credentials WHERE session_id = $1 AND nas_id = $2 AND used_at IS NOT NULL LIMIT 1', [sessionId, nasId])).length > 0;
      if (found) {
        if (usedPairs.size >= ISSUED_IN_MEMORY) usedPairs.clear();
        usedPairs.add(pair);
      }
      return found;
    },

    async liveSessionOf(deviceRefs: readonly string[]): Promise<ReturningSession | undefined> {
      const rows = await db.query<{ session_id: string; open: boolean; last_stop: Date | null }>(
        `SELECT c.session_id,
           EXISTS (SELECT 1 FROM connections k WHERE k.session_id = c.session_id AND k.stopped_at IS NULL AND k.disconnect_status IS DISTINCT FROM 'ACKED') AS open,
           (SELECT max(k.stopped_at) FROM connections k WHERE k.session_id = c.session_id) AS last_stop
         FROM credentials c WHERE c.device_ref = ANY($1::text[]) AND c.used_at IS NOT NULL AND c.revoked_at IS NULL
           AND NOT EXISTS (SELECT 1 FROM ended_sessions e WHERE e.session_id = c.session_id)
         ORDER BY c.used_at DESC LIMIT 1`,
        [deviceRefs],
      );
      const row = rows[0];
      return row === undefined ? undefined : { sessionId: row.session_id, open: row.open, lastStopAt: row.last_stop };
    },

    async acceptedAt(binding: { usernameHash: string; sessionId: string; deviceRef: string; nasId: string }, now: Date): Promise<void> {
      const pair = `${binding.nasId}\n${binding.sessionId}`;
      if (usedPairs.has(pair)) return;
      await db.query(
        `INSERT INTO credentials (username_hash, session_id, device_ref, nas_id, issued_at, expires_at, used_at) VALUES ($1, $2, $3, $4, $5, $5, $5)
         ON CONFLICT (username_hash) DO NOTHING`,
        [binding.usernameHash, binding.sessionId, binding.deviceRef, binding.nasId, now],
      );
      if (usedPairs.size >= ISSUED_IN_MEMORY) usedPairs.clear();
      usedPairs.add(pair);
    },

    async ended(sessionId: string): Promise<boolean> {
      return (await db.query('SELECT 1 FROM ended_sessions WHERE session_id = $1', [sessionId])).length > 0;
    },

    async gave(sessionId: string, nasId: string, given: GivenCaps, now: Date): Promise<void> {
      await db.query(
        `UPDATE credentials SET given_seconds = $3, given_octets = $4, given_at = $5
         WHERE username_hash = (SELECT username_hash FROM credentials WHERE session_id = $1 AND nas_id = $2 AND used_at IS NOT NULL ORDER BY used_at DESC LIMIT 1)`,
        [sessionId, nasId, given.seconds, given.octets, now],
      );
    },
  };
}
