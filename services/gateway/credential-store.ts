import type { Queryable } from '../kit/store/index.js';

export interface CredentialRecord {
  usernameHash: string;
  sessionId: string;
  deviceRef: string;
  nasId: string;
  expiresAt: Date;
  usedAt: Date | null;
  revokedAt: Date | null;
}

interface CredentialRow {
  username_hash: string;
  session_id: string;
  device_ref: string;
  nas_id: string;
  expires_at: Date;
  used_at: Date | null;
  revoked_at: Date | null;
  [column: string]: unknown;
}

const toRecord = (row: CredentialRow): CredentialRecord => ({
  usernameHash: row.username_hash,
  sessionId: row.session_id,
  deviceRef: row.device_ref,
  nasId: row.nas_id,
  expiresAt: row.expires_at,
  usedAt: row.used_at,
  revokedAt: row.revoked_at,
});

/** Credentials and ended sessions as SQL; "used once" is decided by a conditional UPDATE. */
export function createCredentialStore(db: Queryable) {
  return {
    async issue(credential: { usernameHash: string; sessionId: string; deviceRef: string; nasId: string; issuedAt: Date; expiresAt: Date }): Promise<void> {
      await db.query(
        `INSERT INTO credentials (username_hash, session_id, device_ref, nas_id, issued_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
        [credential.usernameHash, credential.sessionId, credential.deviceRef, credential.nasId, credential.issuedAt, credential.expiresAt],
      );
    },

    async find(usernameHash: string): Promise<CredentialRecord | undefined> {
      const rows = await db.query<CredentialRow>('SELECT * FROM credentials WHERE username_hash = $1', [usernameHash]);
      return rows[0] === undefined ? undefined : toRecord(rows[0]);
    },

    /** Marks the credential used; false when it was used, revoked, expired or its session ended meanwhile. */
    async consume(usernameHash: string, now: Date): Promise<boolean> {
      const rows = await db.query(
        `UPDATE credentials SET used_at = $2
         WHERE username_hash = $1 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > $2
           AND NOT EXISTS (SELECT 1 FROM ended_sessions e WHERE e.session_id = credentials.session_id)
         RETURNING username_hash`,
        [usernameHash, now],
      );
      return rows.length === 1;
    },

    async ended(sessionId: string): Promise<boolean> {
      return (await db.query('SELECT 1 FROM ended_sessions WHERE session_id = $1', [sessionId])).length > 0;
    },
  };
}
export type CredentialStore = ReturnType<typeof createCredentialStore>;
