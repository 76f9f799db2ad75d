import type { Database } from '../kit/store/index.js';

/** Spec 2.6 as answered (without `replayed`). */
export type EntitlementBody = Record<string, unknown> & { entitlementId: string; subjectId: string };

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'settled'; entitlement: EntitlementBody | undefined; denialReason: string | null }
  | { kind: 'in-flight' }
  | { kind: 'reused' };

export interface EntitlementStore {
  /** Claims a key for this subject and session before any work (IETF Idempotency-Key draft). */
  claim(key: string, subjectId: string, sessionId: string | null): Promise<Claim>;
  /** Gives a claim up after a failure, so a retry with the same key can run. */
  release(key: string): Promise<void>;
  /** Stores an entitlement (and settles the key); the one already stored for the subject and session wins. */
  save(entitlement: EntitlementBody, sessionId: string | null, key: string | undefined): Promise<{ entitlement: EntitlementBody; replayed: boolean }>;
  settleDenial(key: string, reason: string): Promise<void>;
  bySession(subjectId: string, sessionId: string): Promise<EntitlementBody | undefined>;
  byId(entitlementId: string): Promise<EntitlementBody | undefined>;
}

// A claim older than this whose process never settled it (a crash) may be taken over.
const STALE_CLAIM_MS = 60_000;

export function createEntitlementStore(db: Database, now: () => Date): EntitlementStore {
  const byId = async (entitlementId: string) =>
    (await db.query<{ body: EntitlementBody }>('SELECT body FROM entitlements WHERE entitlement_id = $1', [entitlementId]))[0]?.body;
  return {
    async claim(key, subjectId, sessionId) {
      const at = now();
      const claimed = await db.query(
        `INSERT INTO entitlement_requests (idempotency_key, subject_id, session_id, claimed_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (idempotency_key) DO NOTHING RETURNING idempotency_key`,
        [key, subjectId, sessionId, at],
      );
      if (claimed.length === 1) return { kind: 'claimed' };
      const existing = (await db.query<{ subject_id: string; session_id: string | null; entitlement_id: string | null; denial_reason: string | null }>(
        'SELECT subject_id, session_id, entitlement_id, denial_reason FROM entitlement_requests WHERE idempotency_key = $1',
        [key],
      ))[0];
      if (existing === undefined) return this.claim(key, subjectId, sessionId);
      if (existing.subject_id !== subjectId || existing.session_id !== sessionId) return { kind: 'reused' };
      if (existing.entitlement_id !== null || existing.denial_reason !== null) {
        return { kind: 'settled', entitlement: existing.entitlement_id === null ? undefined : await byId(existing.entitlement_id), denialReason: existing.denial_reason };
      }
      const takenOver = await db.query(
        `UPDATE entitlement_requests SET claimed_at = $2
         WHERE idempotency_key = $1 AND entitlement_id IS NULL AND denial_reason IS NULL AND claimed_at < $3 RETURNING idempotency_key`,
        [key, at, new Date(at.getTime() - STALE_CLAIM_MS)],
      );
      return takenOver.length === 1 ? { kind: 'claimed' } : { kind: 'in-flight' };
    },

    async release(key) {
      await db.query('DELETE FROM entitlement_requests WHERE idempotency_key = $1 AND entitlement_id IS NULL AND denial_reason IS NULL', [key]);
    },

    async save(entitlement, sessionId, key) {
      const row = [entitlement.entitlementId, entitlement.subjectId, sessionId, JSON.stringify(entitlement), now()];
      // Neither a key to settle nor a session to deduplicate: one statement, no transaction.
      if (key === undefined && sessionId === null) {
        await db.query('INSERT INTO entitlements (entitlement_id, subject_id, session_id, body, created_at) VALUES ($1, $2, $3, $4, $5)', row);
        return { entitlement, replayed: false };
      }
      return db.transaction(async (tx) => {
        const inserted = await tx.query(
          `INSERT INTO entitlements (entitlement_id, subject_id, session_id, body, created_at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT DO NOTHING RETURNING entitlement_id`,
          row,
        );
        let stored = entitlement;
        let replayed = false;
        if (inserted.length === 0 && sessionId !== null) {
          const original = (await tx.query<{ body: EntitlementBody }>('SELECT body FROM entitlements WHERE subject_id = $1 AND session_id = $2', [entitlement.subjectId, sessionId]))[0];
          if (original === undefined) throw new Error('entitlement conflict without an original');
          stored = original.body;
          replayed = true;
        }
        if (key !== undefined) {
          await tx.query('UPDATE entitlement_requests SET entitlement_id = $2, settled_at = $3 WHERE idempotency_key = $1', [key, stored.entitlementId, now()]);
        }
        return { entitlement: stored, replayed };
      });
    },

    async settleDenial(key, reason) {
      await db.query('UPDATE entitlement_requests SET denial_reason = $2, settled_at = $3 WHERE idempotency_key = $1', [key, reason, now()]);
    },

    async bySession(subjectId, sessionId) {
      return (await db.query<{ body: EntitlementBody }>('SELECT body FROM entitlements WHERE subject_id = $1 AND session_id = $2', [subjectId, sessionId]))[0]?.body;
    },

    byId,
  };
}
