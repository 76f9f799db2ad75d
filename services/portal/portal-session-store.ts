import type { Database } from '../kit/store/index.js';
import type { TokenCipher } from './token-crypto.js';
import { sidHash } from './token-crypto.js';

export interface PortalSessionData {
  subjectId: string;
  client: string;
  accessToken: string;
  refreshToken: string | null;
  claims: Record<string, unknown>;
  entitlement: Record<string, unknown>;
  networkSessionId: string;
}

export interface StoredPortalSession extends PortalSessionData {
  expiresAt: Date;
}

export interface PortalSessionStore {
  put(sid: string, data: PortalSessionData, expiresAt: Date): Promise<void>;
  /** The live session behind a cookie value; expired ones read as absent (and are removed). */
  get(sid: string): Promise<StoredPortalSession | undefined>;
  drop(sid: string): Promise<void>;
}

interface Row {
  subject_id: string;
  client: string;
  access_token_enc: string;
  refresh_token_enc: string | null;
  claims: Record<string, unknown>;
  entitlement: Record<string, unknown>;
  network_session_id: string;
  expires_at: Date;
  [column: string]: unknown;
}

export function createPortalSessionStore(db: Database, cipher: TokenCipher, now: () => Date): PortalSessionStore {
  return {
    async put(sid, data, expiresAt) {
      await db.query(
        `INSERT INTO portal_sessions (sid_hash, subject_id, client, access_token_enc, refresh_token_enc, claims, entitlement,
           network_session_id, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          sidHash(sid),
          data.subjectId,
          data.client,
          cipher.seal(data.accessToken),
          data.refreshToken === null ? null : cipher.seal(data.refreshToken),
          JSON.stringify(data.claims),
          JSON.stringify(data.entitlement),
          data.networkSessionId,
          now(),
          expiresAt,
        ],
      );
    },
    async get(sid) {
      const at = now();
      await db.query('DELETE FROM portal_sessions WHERE expires_at <= $1', [at]);
      const row = (await db.query<Row>('SELECT * FROM portal_sessions WHERE sid_hash = $1', [sidHash(sid)]))[0];
      if (row === undefined) return undefined;
      return {
        subjectId: row.subject_id,
        client: row.client,
        accessToken: cipher.open(row.access_token_enc),
        refreshToken: row.refresh_token_enc === null ? null : cipher.open(row.refresh_token_enc),
        claims: row.claims,
        entitlement: row.entitlement,
        networkSessionId: row.network_session_id,
        expiresAt: row.expires_at,
      };
    },
    async drop(sid) {
      await db.query('DELETE FROM portal_sessions WHERE sid_hash = $1', [sidHash(sid)]);
    },
  };
}
