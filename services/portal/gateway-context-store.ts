import type { Database } from '../kit/store/index.js';
import type { GatewayContext } from './gateway-context.js';
import { newSid, sidHash } from './token-crypto.js';

export interface GatewayContextStore {
  /** Keeps a context (the MAC only as its deviceRef) and answers the cookie value naming it. */
  put(context: GatewayContext): Promise<string>;
  /** The live context behind a cookie value; expired ones read as absent (and are removed). */
  get(id: string): Promise<GatewayContext | undefined>;
  /** Issue 27: a context is used once; the sign-in that used it drops it. */
  drop(id: string): Promise<void>;
}

interface Row {
  profile: string;
  nas_id: string;
  device_ref: string;
  login_url: string;
  challenge: string | null;
  chap_id: string | null;
  return_url: string | null;
  [column: string]: unknown;
}

export function createGatewayContextStore(db: Database, ttlMs: number, now: () => Date): GatewayContextStore {
  return {
    async put(context) {
      const id = newSid();
      await db.query(
        `INSERT INTO gateway_contexts (id_hash, profile, nas_id, device_ref, login_url, challenge, chap_id, return_url, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [sidHash(id), context.profile, context.nasId, context.deviceRef, context.loginUrl, context.challenge, context.chapId, context.returnUrl, new Date(now().getTime() + ttlMs)],
      );
      return id;
    },
    async get(id) {
      await db.query('DELETE FROM gateway_contexts WHERE expires_at <= $1', [now()]);
      const row = (await db.query<Row>('SELECT * FROM gateway_contexts WHERE id_hash = $1', [sidHash(id)]))[0];
      if (row === undefined) return undefined;
      return { profile: row.profile, nasId: row.nas_id, deviceRef: row.device_ref, loginUrl: row.login_url, challenge: row.challenge, chapId: row.chap_id, returnUrl: row.return_url };
    },
    async drop(id) {
      await db.query('DELETE FROM gateway_contexts WHERE id_hash = $1', [sidHash(id)]);
    },
  };
}
