import type { Database } from '../kit/store/index.js';
import type { GatewayContext } from './gateway-context.js';
import { newSid, sidHash } from './token-crypto.js';

export interface GatewayContextStore {
  /** Keeps a context (the MAC only as its deviceRef) for `ttlMs` (the store's default without it) and answers the cookie value naming it. */
  put(context: GatewayContext, ttlMs?: number): Promise<string>;
  /** The live context behind a cookie value; expired ones read as absent (and are removed). */
  get(id: string): Promise<GatewayContext | undefined>;
  /** A context is used once; the sign-in that used it drops it. */
  drop(id: string): Promise<void>;
  /** Spends an openNDS hid as its context is made; false when an arrival spent it already (a replay). */
  spendHid(hid: string): Promise<boolean>;
}

interface Row {
  profile: string;
  nas_id: string;
  device_ref: string;
  login_url: string;
  challenge: string | null;
  chap_id: string | null;
  return_url: string | null;
  hid: string | null;
  [column: string]: unknown;
}

export function createGatewayContextStore(db: Database, ttlMs: number, now: () => Date): GatewayContextStore {
  return {
    async put(context, lifeMs = ttlMs) {
      const id = newSid();
      await db.query(
        `INSERT INTO gateway_contexts (id_hash, profile, nas_id, device_ref, login_url, challenge, chap_id, return_url, hid, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          sidHash(id),
          context.profile,
          context.nasId,
          context.deviceRef,
          context.loginUrl,
          context.challenge,
          context.chapId,
          context.returnUrl,
          context.hid ?? null,
          new Date(now().getTime() + lifeMs),
        ],
      );
      return id;
    },
    async get(id) {
      await db.query('DELETE FROM gateway_contexts WHERE expires_at <= $1', [now()]);
      const row = (await db.query<Row>('SELECT * FROM gateway_contexts WHERE id_hash = $1', [sidHash(id)]))[0];
      if (row === undefined) return undefined;
      return {
        profile: row.profile,
        nasId: row.nas_id,
        deviceRef: row.device_ref,
        loginUrl: row.login_url,
        challenge: row.challenge,
        chapId: row.chap_id,
        returnUrl: row.return_url,
        hid: row.hid,
      };
    },
    async drop(id) {
      await db.query('DELETE FROM gateway_contexts WHERE id_hash = $1', [sidHash(id)]);
    },
    async spendHid(hid) {
      // A day is far longer than openNDS keeps a captive client's token; older ones name no client.
      await db.query("DELETE FROM opennds_used_hids WHERE used_at < $1::timestamptz - interval '1 day'", [now()]);
      const rows = await db.query('INSERT INTO opennds_used_hids (hid, used_at) VALUES ($1, $2) ON CONFLICT (hid) DO NOTHING RETURNING hid', [hid, now()]);
      return rows.length === 1;
    },
  };
}
