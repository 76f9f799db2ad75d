import type { Database } from '../kit/store/index.js';

/** Spec 2.6 as answered (without `replayed`). */
export type EntitlementBody = Record<string, unknown> & { entitlementId: string; subjectId: string };

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'settled'; entitlement: EntitlementBody | undefined; denialReason: string | null }
  | { kind: 'in-flight' }
  | { kind: 'reused' };

/** What a key settled before answers: its original outcome, or 422 for another subject or session. */
export type Prior = Extract<Claim, { kind: 'settled' | 'reused' }>;

export type Saved = { kind: 'saved'; entitlement: EntitlementBody; replayed: boolean } | Prior;

export interface EntitlementStore {
  /** Claims a key for this subject and session before any work (IETF Idempotency-Key draft). */
  claim(key: string, subjectId: string, sessionId: string | null): Promise<Claim>;
  /** Gives a claim up after a failure, so a retry with the same key can run. */
  release(key: string): Promise<void>;
  /**
   * Stores an entitlement (and settles the key); the one already stored for the subject and
   * session wins, and so does a key settled before (PGlite: a claim is not stored, see below).
   */
  save(entitlement: EntitlementBody, sessionId: string | null, key: string | undefined): Promise<Saved>;
  /** Settles a key with a denial; a key settled before answers its original outcome instead. */
  settleDenial(key: string, reason: string, subjectId: string, sessionId: string | null): Promise<Prior | undefined>;
  /** PGlite only (elsewhere the claim has answered it): the key's settlement, if it has one. */
  settledBefore(key: string, subjectId: string, sessionId: string | null): Promise<Prior | undefined>;
  bySession(subjectId: string, sessionId: string): Promise<EntitlementBody | undefined>;
  byId(entitlementId: string): Promise<EntitlementBody | undefined>;
}

// A claim older than this whose process never settled it (a crash) may be taken over.
const STALE_CLAIM_MS = 60_000;

interface RequestRow {
  subject_id: string;
  session_id: string | null;
  entitlement_id: string | null;
  denial_reason: string | null;
  [column: string]: unknown;
}

/**
 * On PGlite this process is the store's only writer, so a claim needs no row: the keys
 * in flight are kept in memory (a crash loses them with the work they guarded), and the key's row
 * is written settled, in the statement that stores the entitlement or the denial, which also
 * finds a settlement made before (a retry after the first answer): one statement per evaluation
 * instead of two. On a PostgreSQL server other instances take keys too: the claim is a row.
 */
const settledRequest = (key: string) => `SELECT subject_id, session_id, entitlement_id, denial_reason FROM entitlement_requests
    WHERE idempotency_key = ${key} AND (entitlement_id IS NOT NULL OR denial_reason IS NOT NULL)`;

/** A key's row written settled with an entitlement, taking over a claim row left unsettled. */
const SETTLE_WITH_ENTITLEMENT = 'ON CONFLICT (idempotency_key) DO UPDATE SET entitlement_id = EXCLUDED.entitlement_id, settled_at = EXCLUDED.settled_at';

const SAVE_ALONE = `WITH prior AS (${settledRequest('$6')}),
  inserted AS (
    INSERT INTO entitlements (entitlement_id, subject_id, session_id, body, created_at)
    SELECT $1, $2, $3, $4, $5 WHERE NOT EXISTS (SELECT 1 FROM prior)
    ON CONFLICT DO NOTHING RETURNING entitlement_id),
  settled AS (
    INSERT INTO entitlement_requests (idempotency_key, subject_id, session_id, entitlement_id, claimed_at, settled_at)
    SELECT $6, $2, $3, entitlement_id, $5, $5 FROM inserted WHERE $6::text IS NOT NULL
    ${SETTLE_WITH_ENTITLEMENT}
    RETURNING idempotency_key)
  SELECT 'inserted' AS outcome, entitlement_id, NULL::text AS subject_id, NULL::text AS session_id, NULL::text AS denial_reason FROM inserted
  UNION ALL
  SELECT 'prior', entitlement_id, subject_id, session_id, denial_reason FROM prior`;

const DENY_ALONE = `WITH prior AS (${settledRequest('$1')}),
  settled AS (
    INSERT INTO entitlement_requests (idempotency_key, subject_id, session_id, denial_reason, claimed_at, settled_at)
    SELECT $1, $2, $3, $4, $5, $5 WHERE NOT EXISTS (SELECT 1 FROM prior)
    ON CONFLICT (idempotency_key) DO UPDATE SET denial_reason = EXCLUDED.denial_reason, settled_at = EXCLUDED.settled_at
    RETURNING idempotency_key)
  SELECT subject_id, session_id, entitlement_id, denial_reason FROM prior`;

/**
 * A claim of an Idempotency-Key where several instances share the database: the row is the claim;
 * a settled one answers its outcome, and a claim left by a crashed instance is taken over once stale.
 */
async function claimInDatabase(
  db: Database,
  byId: (entitlementId: string) => Promise<EntitlementBody | undefined>,
  key: string,
  subjectId: string,
  sessionId: string | null,
  at: Date,
): Promise<Claim> {
  const claimed = await db.query(
    `INSERT INTO entitlement_requests (idempotency_key, subject_id, session_id, claimed_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (idempotency_key) DO NOTHING RETURNING idempotency_key`,
    [key, subjectId, sessionId, at],
  );
  if (claimed.length === 1) return { kind: 'claimed' };
  const existing = (
    await db.query<{ subject_id: string; session_id: string | null; entitlement_id: string | null; denial_reason: string | null }>(
      'SELECT subject_id, session_id, entitlement_id, denial_reason FROM entitlement_requests WHERE idempotency_key = $1',
      [key],
    )
  )[0];
  if (existing === undefined) return claimInDatabase(db, byId, key, subjectId, sessionId, at);
  if (existing.subject_id !== subjectId || existing.session_id !== sessionId) return { kind: 'reused' };
  if (existing.entitlement_id !== null || existing.denial_reason !== null) {
    return {
      kind: 'settled',
      entitlement: existing.entitlement_id === null ? undefined : await byId(existing.entitlement_id),
      denialReason: existing.denial_reason,
    };
  }
  const takenOver = await db.query(
    `UPDATE entitlement_requests SET claimed_at = $2
     WHERE idempotency_key = $1 AND entitlement_id IS NULL AND denial_reason IS NULL AND claimed_at < $3 RETURNING idempotency_key`,
    [key, at, new Date(at.getTime() - STALE_CLAIM_MS)],
  );
  return takenOver.length === 1 ? { kind: 'claimed' } : { kind: 'in-flight' };
}

/** One statement (atomic on its own): the entitlement, and the settlement of its key when there is one. */
const INSERT_SETTLING = `WITH inserted AS (
     INSERT INTO entitlements (entitlement_id, subject_id, session_id, body, created_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT DO NOTHING RETURNING entitlement_id),
   settled AS (
     UPDATE entitlement_requests SET entitlement_id = $1, settled_at = $5
     WHERE idempotency_key = $6 AND EXISTS (SELECT 1 FROM inserted) RETURNING idempotency_key)
   SELECT entitlement_id FROM inserted`;
const insertSettling = (db: Database, values: unknown[]) => db.query(INSERT_SETTLING, values);

export function createEntitlementStore(db: Database, now: () => Date): EntitlementStore {
  const byId = async (entitlementId: string) =>
    (await db.query<{ body: EntitlementBody }>('SELECT body FROM entitlements WHERE entitlement_id = $1', [entitlementId]))[0]?.body;
  const alone = db.writes() !== undefined;
  const inFlight = new Map<string, { subjectId: string; sessionId: string | null }>();
  const priorOf = async (row: RequestRow, subjectId: string, sessionId: string | null): Promise<Prior> =>
    row.subject_id !== subjectId || row.session_id !== sessionId
      ? { kind: 'reused' }
      : { kind: 'settled', entitlement: row.entitlement_id === null ? undefined : await byId(row.entitlement_id), denialReason: row.denial_reason };
  // The original of a (subject, session) that already holds an entitlement, with the key settled to it.
  const original = (entitlement: EntitlementBody, sessionId: string, key: string | undefined, at: Date): Promise<Saved> =>
    db.transaction(async (tx) => {
      const stored = (
        await tx.query<{ body: EntitlementBody }>('SELECT body FROM entitlements WHERE subject_id = $1 AND session_id = $2', [entitlement.subjectId, sessionId])
      )[0];
      if (stored === undefined) throw new Error('entitlement conflict without an original');
      if (key !== undefined) {
        await tx.query(
          `INSERT INTO entitlement_requests (idempotency_key, subject_id, session_id, entitlement_id, claimed_at, settled_at) VALUES ($1, $2, $3, $4, $5, $5)
           ${SETTLE_WITH_ENTITLEMENT}`,
          [key, entitlement.subjectId, sessionId, stored.body.entitlementId, at],
        );
      }
      return { kind: 'saved' as const, entitlement: stored.body, replayed: true };
    });
  return {
    async claim(key, subjectId, sessionId) {
      if (alone) {
        const holder = inFlight.get(key);
        if (holder !== undefined) return holder.subjectId !== subjectId || holder.sessionId !== sessionId ? { kind: 'reused' } : { kind: 'in-flight' };
        inFlight.set(key, { subjectId, sessionId });
        return { kind: 'claimed' };
      }
      return claimInDatabase(db, byId, key, subjectId, sessionId, now());
    },

    async release(key) {
      if (alone) {
        inFlight.delete(key);
        return;
      }
      await db.query('DELETE FROM entitlement_requests WHERE idempotency_key = $1 AND entitlement_id IS NULL AND denial_reason IS NULL', [key]);
    },

    async save(entitlement, sessionId, key) {
      const at = now();
      const body = JSON.stringify(entitlement);
      if (alone) {
        let rows: ({ outcome: 'inserted' | 'prior' } & RequestRow)[];
        try {
          rows = await db.query(SAVE_ALONE, [entitlement.entitlementId, entitlement.subjectId, sessionId, body, at, key ?? null]);
        } finally {
          if (key !== undefined) inFlight.delete(key);
        }
        const row = rows[0];
        if (row?.outcome === 'inserted') return { kind: 'saved', entitlement, replayed: false };
        if (row !== undefined) return priorOf(row, entitlement.subjectId, sessionId);
      } else {
        const inserted = await insertSettling(db, [entitlement.entitlementId, entitlement.subjectId, sessionId, body, at, key ?? null]);
        if (inserted.length === 1) return { kind: 'saved', entitlement, replayed: false };
      }
      // Nothing inserted: this subject and session already hold an entitlement (spec 4.3 rule 3);
      // the original is answered and the key, if any, settled with it.
      if (sessionId === null) throw new Error('entitlement id conflict without a session');
      return original(entitlement, sessionId, key, at);
    },

    async settleDenial(key, reason, subjectId, sessionId) {
      if (!alone) {
        await db.query('UPDATE entitlement_requests SET denial_reason = $2, settled_at = $3 WHERE idempotency_key = $1', [key, reason, now()]);
        return undefined;
      }
      let rows: RequestRow[];
      try {
        rows = await db.query<RequestRow>(DENY_ALONE, [key, subjectId, sessionId, reason, now()]);
      } finally {
        inFlight.delete(key);
      }
      return rows[0] === undefined ? undefined : priorOf(rows[0], subjectId, sessionId);
    },

    async settledBefore(key, subjectId, sessionId) {
      if (!alone) return undefined;
      const row = (await db.query<RequestRow>(settledRequest('$1'), [key]))[0];
      return row === undefined ? undefined : priorOf(row, subjectId, sessionId);
    },

    async bySession(subjectId, sessionId) {
      return (await db.query<{ body: EntitlementBody }>('SELECT body FROM entitlements WHERE subject_id = $1 AND session_id = $2', [subjectId, sessionId]))[0]
        ?.body;
    },

    byId,
  };
}
