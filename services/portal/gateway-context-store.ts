import type { Database, Queryable } from '../kit/store/index.js';
import type { GatewayContext } from './gateway-context.js';
import { newSid, sidHash } from './token-crypto.js';

export interface GatewayContextStore {
  /** Keeps a context (the MAC only as its deviceRef) for `ttlMs` (the store's default without it) and answers the cookie value naming it. */
  put(context: GatewayContext, ttlMs?: number): Promise<string>;
  /** The live context behind a cookie value; expired ones read as absent (and are removed). */
  get(id: string): Promise<GatewayContext | undefined>;
  /** A context is used once; the sign-in that used it drops it. */
  drop(id: string): Promise<void>;
  /**
   * Makes an openNDS arrival's context, which holds its hid while it lives: one hand-off per hid at
   * a time. Answers the context's cookie value: a new one, or `ownId` again when that cookie names
   * the live context holding this hid (the same browser arriving again). Undefined when a grant
   * spent the hid or another live context holds it (a replayed link).
   */
  holdHid(context: GatewayContext & { hid: string }, lifeMs: number, ownId: string | undefined): Promise<string | undefined>;
  /** A grant queued at the gateway with this hid spends it: no arrival takes it again. */
  spendHid(hid: string): Promise<void>;
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
  const insert = async (q: Queryable, context: GatewayContext, lifeMs: number) => {
    const id = newSid();
    await q.query(
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
  };
  return {
    put: (context, lifeMs = ttlMs) => insert(db, context, lifeMs),
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
    holdHid(context, lifeMs, ownId) {
      return db.transaction(async (tx) => {
        // Two arrivals with one link at once: the second waits for the first's context.
        await tx.query(`SELECT pg_advisory_xact_lock(hashtext('wifi-opennds-hid:' || $1::text))::text AS locked`, [context.hid]);
        if ((await tx.query('SELECT 1 FROM opennds_used_hids WHERE hid = $1', [context.hid])).length > 0) return undefined;
        const holders = await tx.query<{ id_hash: string }>('SELECT id_hash FROM gateway_contexts WHERE hid = $1 AND nas_id = $2 AND expires_at > $3', [
          context.hid,
          context.nasId,
          now(),
        ]);
        if (holders.length > 0) return ownId !== undefined && holders.some((holder) => holder.id_hash === sidHash(ownId)) ? ownId : undefined;
        return insert(tx, context, lifeMs);
      });
    },
    async spendHid(hid) {
      // A day is far longer than openNDS keeps a captive client's token; older ones name no client.
      await db.query("DELETE FROM opennds_used_hids WHERE used_at < $1::timestamptz - interval '1 day'", [now()]);
      await db.query('INSERT INTO opennds_used_hids (hid, used_at) VALUES ($1, $2) ON CONFLICT (hid) DO NOTHING', [hid, now()]);
    },
  };
}
