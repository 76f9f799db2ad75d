import type { Entitlement } from '../../contract/entitlement.js';
import type { Session } from '../../contract/session.js';
import type { Database } from '../kit/store/index.js';
import type { GatewayContext } from './gateway-context.js';
import type { Sealer } from '../kit/index.js';
import { PREVIOUS_LIFETIME_MS } from './cookies.js';
import { sidHash } from './token-crypto.js';

export interface PortalSessionData {
  subjectId: string;
  client: string;
  accessToken: string;
  refreshToken: string | null;
  claims: Record<string, unknown>;
  entitlement: Entitlement;
  networkSessionId: string;
  /** The network session (spec 2.7) as last read; null for sign-ins from before it was kept. */
  networkSession: Session | null;
  /** The gateway this sign-in went through, or null without a gateway context. */
  gateway: GatewayContext | null;
}

export interface StoredPortalSession extends PortalSessionData {
  expiresAt: Date;
}

export interface PortalSessionStore {
  put(sid: string, data: PortalSessionData, expiresAt: Date): Promise<void>;
  /** The live session behind a cookie value; expired ones read as absent. */
  get(sid: string): Promise<StoredPortalSession | undefined>;
  /**
   * A sign-in by its store key (the sid's hash, cookie `psid`), live or expired
   * up to PREVIOUS_LIFETIME_MS ago, only so that the next sign-in in that browser can end it.
   */
  getToEnd(key: string): Promise<StoredPortalSession | undefined>;
  /** Keeps the network session as just read, for when the session service cannot be reached. */
  noteNetworkSession(sid: string, session: Session): Promise<void>;
  drop(sid: string): Promise<void>;
  dropByKey(key: string): Promise<void>;
  /** Every portal session of a subject (an erased person's, in every browser); how many there were. */
  dropSubject(subjectId: string): Promise<number>;
}

interface Row {
  subject_id: string;
  client: string;
  access_token_enc: string;
  refresh_token_enc: string | null;
  claims: Record<string, unknown>;
  // What the portal parsed by the contract's schemas before it stored it.
  entitlement: Entitlement;
  network_session_id: string;
  network_session: Session | null;
  gateway: GatewayContext | null;
  expires_at: Date;
  [column: string]: unknown;
}

export function createPortalSessionStore(db: Database, cipher: Sealer, now: () => Date): PortalSessionStore {
  const dropByKey = async (key: string) => {
    await db.query('DELETE FROM portal_sessions WHERE sid_hash = $1', [key]);
  };
  // An expired sign-in is kept PREVIOUS_LIFETIME_MS for ending only (getToEnd); get() never reads it.
  const read = async (key: string, liveOnly: boolean): Promise<StoredPortalSession | undefined> => {
    const at = now();
    await db.query('DELETE FROM portal_sessions WHERE expires_at <= $1', [new Date(at.getTime() - PREVIOUS_LIFETIME_MS)]);
    const row = (await db.query<Row>('SELECT * FROM portal_sessions WHERE sid_hash = $1', [key]))[0];
    if (row === undefined || (liveOnly && row.expires_at.getTime() <= at.getTime())) return undefined;
    let accessToken: string;
    let refreshToken: string | null;
    try {
      accessToken = cipher.open(row.access_token_enc);
      refreshToken = row.refresh_token_enc === null ? null : cipher.open(row.refresh_token_enc);
    } catch {
      // Sealed under another PORTAL_TOKEN_KEY (the key was changed) or damaged: the sign-in
      // cannot be used any more, so it reads as signed out and is removed.
      await dropByKey(key);
      return undefined;
    }
    return {
      subjectId: row.subject_id,
      client: row.client,
      accessToken,
      refreshToken,
      claims: row.claims,
      entitlement: row.entitlement,
      networkSessionId: row.network_session_id,
      networkSession: row.network_session,
      gateway: row.gateway,
      expiresAt: row.expires_at,
    };
  };
  return {
    async dropSubject(subjectId) {
      return (await db.query('DELETE FROM portal_sessions WHERE subject_id = $1 RETURNING 1 AS gone', [subjectId])).length;
    },
    async put(sid, data, expiresAt) {
      await db.query(
        `INSERT INTO portal_sessions (sid_hash, subject_id, client, access_token_enc, refresh_token_enc, claims, entitlement,
           network_session_id, network_session, created_at, expires_at, gateway)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [
          sidHash(sid),
          data.subjectId,
          data.client,
          cipher.seal(data.accessToken),
          data.refreshToken === null ? null : cipher.seal(data.refreshToken),
          JSON.stringify(data.claims),
          JSON.stringify(data.entitlement),
          data.networkSessionId,
          data.networkSession === null ? null : JSON.stringify(data.networkSession),
          now(),
          expiresAt,
          data.gateway === null ? null : JSON.stringify(data.gateway),
        ],
      );
    },
    get: (sid) => read(sidHash(sid), true),
    getToEnd: (key) => read(key, false),
    async noteNetworkSession(sid, session) {
      await db.query('UPDATE portal_sessions SET network_session = $2 WHERE sid_hash = $1', [sidHash(sid), JSON.stringify(session)]);
    },
    drop: (sid) => dropByKey(sidHash(sid)),
    dropByKey,
  };
}
