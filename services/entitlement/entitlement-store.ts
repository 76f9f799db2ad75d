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
      const at = now();
      // One statement (atomic on its own; on PGlite each statement is a round trip into
      // WebAssembly): the entitlement, and the settlement of its key when there is one.
      const inserted = await db.query(
        `WITH inserted AS (
           INSERT INTO entitlements (entitlement_id, subject_id, session_id, body, created_at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT DO NOTHING RETURNING entitlement_id),
         settled AS (
           UPDATE entitlement_requests SET entitlement_id = $1, settled_at = $5
           WHERE idempotency_key = $6 AND EXISTS (SELECT 1 FROM inserted) RETURNING idempotency_key)
         SELECT entitlement_id FROM inserted`,
        [entitlement.entitlementId, entitlement.subjectId, sessionId, JSON.stringify(entitlement), at, key ?? null],
      );
      if (inserted.length === 1) return { entitlement, replayed: false };
      // Nothing inserted: this subject and session already hold an entitlement (spec 4.3 rule 3);
      // the original is answered and the key, if any, settled with it.
      if (sessionId === null) throw new Error('entitlement id conflict without a session');
      return db.transaction(async (tx) => {
        const original = (await tx.query<{ body: EntitlementBody }>('SELECT body FROM entitlements WHERE subject_id = $1 AND session_id = $2', [entitlement.subjectId, sessionId]))[0];
        if (original === undefined) throw new Error('entitlement conflict without an original');
        if (key !== undefined) {
          await tx.query('UPDATE entitlement_requests SET entitlement_id = $2, settled_at = $3 WHERE idempotency_key = $1', [key, original.body.entitlementId, at]);
        }
        return { entitlement: original.body, replayed: true };
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
