import type { Database } from '../kit/store/index.js';
import { deviceRefFor } from '../kit/device-ref.js';
import { loginUrlOf, type GatewayContext, type StoredContext } from './gateway-context.js';
import { newSid, sidHash } from './token-crypto.js';

export interface GatewayContextStore {
  /** Keeps a context (its MAC only as the deviceRef) and answers the cookie value naming it. */
  put(context: GatewayContext): Promise<string>;
  /** The live context behind a cookie value; expired ones read as absent (and are removed). */
  get(id: string): Promise<StoredContext | undefined>;
}

interface Row {
  style: 'uam' | 'cisco';
  nas_id: string;
  device_ref: string;
  login_url: string;
  challenge: string | null;
  return_url: string | null;
  [column: string]: unknown;
}

export function createGatewayContextStore(db: Database, deviceRefKey: string, ttlMs: number, now: () => Date): GatewayContextStore {
  return {
    async put(context) {
      const id = newSid();
      const deviceRef = deviceRefFor(deviceRefKey, context.nasId, context.mac);
      if (deviceRef === undefined) throw new Error('a parsed gateway context holds no MAC address');
      const returnUrl = context.style === 'uam' ? context.userUrl : context.redirect;
      await db.query(
        `INSERT INTO gateway_contexts (id_hash, style, nas_id, device_ref, login_url, challenge, return_url, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [sidHash(id), context.style, context.nasId, deviceRef, loginUrlOf(context), context.style === 'uam' ? context.challenge : null, returnUrl, new Date(now().getTime() + ttlMs)],
      );
      return id;
    },
    async get(id) {
      await db.query('DELETE FROM gateway_contexts WHERE expires_at <= $1', [now()]);
      const row = (await db.query<Row>('SELECT * FROM gateway_contexts WHERE id_hash = $1', [sidHash(id)]))[0];
      if (row === undefined) return undefined;
      return { style: row.style, nasId: row.nas_id, deviceRef: row.device_ref, loginUrl: row.login_url, challenge: row.challenge, returnUrl: row.return_url };
    },
  };
}
