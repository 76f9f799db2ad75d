import { randomUUID } from 'node:crypto';
import type { Allowance } from '../../contract/entitlement.js';
import type { Database, Queryable } from '../kit/store/index.js';

export type SessionState = 'CREATED' | 'GRANTED' | 'REVOKED' | 'EXPIRED';

/** Spec 2.7, as stored (without the per-answer `replayed`). */
export interface SessionRecord {
  sessionId: string;
  subjectId: string;
  deviceRef: string | null;
  state: SessionState;
  entitlementId: string | null;
  entitlementType: string | null;
  tier: string | null;
  qosClass: string | null;
  grantedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  createdAt: string;
  updatedAt: string;
  allowance: Allowance | null;
}

export interface CreateInput {
  subjectId: string;
  deviceRef: string | null;
  idempotencyKey: string | undefined;
}

export interface GrantInput {
  entitlementId: string;
  entitlementType: string | null;
  tier: string | null;
  qosClass: string | null;
  validUntil: Date;
  deviceSlots: number;
  /** Absent or null: no limit. */
  allowance?: Allowance | null;
}

export type CreateOutcome = { kind: 'created'; session: SessionRecord } | { kind: 'replayed'; session: SessionRecord } | { kind: 'key-reused' };

export type GrantOutcome =
  | { kind: 'granted'; session: SessionRecord; revokedForSlots: string[] }
  | { kind: 'replayed'; session: SessionRecord }
  | { kind: 'ended'; session: SessionRecord }
  | { kind: 'not-found' };

export type RevokeOutcome = { kind: 'revoked' | 'unchanged'; session: SessionRecord } | { kind: 'not-found' };

export interface SessionStore {
  create(input: CreateInput, correlationId: string): Promise<CreateOutcome>;
  /** Reads a session; a GRANTED one past `expiresAt` is stored and answered as EXPIRED (spec 4.4 rule 5). */
  read(sessionId: string, correlationId: string): Promise<SessionRecord | undefined>;
  grant(sessionId: string, input: GrantInput, correlationId: string): Promise<GrantOutcome>;
  revoke(sessionId: string, correlationId: string): Promise<RevokeOutcome>;
  /** Ends every open (CREATED or GRANTED) session of a subject, e.g. a terminated employee; answers their ids. */
  revokeSubject(subjectId: string, reason: string, correlationId: string): Promise<string[]>;
}

interface SessionRow {
  session_id: string;
  subject_id: string;
  device_ref: string | null;
  state: SessionState;
  entitlement_id: string | null;
  entitlement_type: string | null;
  tier: string | null;
  qos_class: string | null;
  granted_at: Date | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
  updated_at: Date;
  allowance: Allowance | null;
  [column: string]: unknown;
}

const iso = (value: Date | null): string | null => (value === null ? null : value.toISOString());

function toRecord(row: SessionRow): SessionRecord {
  return {
    sessionId: row.session_id,
    subjectId: row.subject_id,
    deviceRef: row.device_ref,
    state: row.state,
    entitlementId: row.entitlement_id,
    entitlementType: row.entitlement_type,
    tier: row.tier,
    qosClass: row.qos_class,
    grantedAt: iso(row.granted_at),
    expiresAt: iso(row.expires_at),
    revokedAt: iso(row.revoked_at),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    allowance: row.allowance,
  };
}

const COLUMNS = `session_id, subject_id, device_ref, state, entitlement_id, entitlement_type, tier, qos_class,
  granted_at, expires_at, revoked_at, created_at, updated_at, allowance`;
const EVENT_COLUMNS = 'session_id, at, from_state, to_state, entitlement_id, reason, correlation_id';

// On PGlite every statement is a round trip into WebAssembly costing about a third of a
// millisecond of CPU, so a state change and the events recording it are written by one
// statement (data-modifying WITH) wherever the rule allows: a sign-in makes two session calls.

interface Transition {
  sessionId: string;
  from: SessionState | null;
  to: SessionState;
  at: Date;
  entitlementId?: string | null;
  reason?: string;
  correlationId: string;
}

async function recordEvent(db: Queryable, event: Transition): Promise<void> {
  await db.query(`INSERT INTO session_events (${EVENT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
    event.sessionId,
    event.at,
    event.from,
    event.to,
    event.entitlementId ?? null,
    event.reason ?? null,
    event.correlationId,
  ]);
}

/** Marks GRANTED sessions past their expiry as EXPIRED, durably, with one event each. */
export async function expireDue(db: Queryable, where: string, params: unknown[], now: Date, correlationId: string): Promise<void> {
  await db.query(
    `WITH expired AS (
       UPDATE sessions SET state = 'EXPIRED', updated_at = $1
       WHERE state = 'GRANTED' AND expires_at <= $1 AND ${where}
       RETURNING session_id, entitlement_id)
     INSERT INTO session_events (${EVENT_COLUMNS})
     SELECT session_id, $1, 'GRANTED', 'EXPIRED', entitlement_id, 'EXPIRES_AT_PASSED', $${params.length + 2}::text FROM expired`,
    [now, ...params, correlationId],
  );
}

async function select(db: Queryable, sessionId: string, lock = false): Promise<SessionRow | undefined> {
  const rows = await db.query<SessionRow>(`SELECT ${COLUMNS} FROM sessions WHERE session_id = $1${lock ? ' FOR UPDATE' : ''}`, [sessionId]);
  return rows[0];
}

/**
 * Finds the session and takes its subject's transaction lock (PostgreSQL advisory lock on a hash
 * of the subject id) in one statement: concurrent grants for one subject count and revoke device
 * slots one after the other. Answers undefined for an unknown session (no lock taken).
 */
async function lockSubjectOf(db: Queryable, sessionId: string): Promise<string | undefined> {
  const rows = await db.query<{ subject_id: string }>(
    `SELECT subject_id, pg_advisory_xact_lock(hashtext('wifi-session-subject:' || subject_id))::text AS locked
     FROM sessions WHERE session_id = $1`,
    [sessionId],
  );
  return rows[0]?.subject_id;
}

/** A GRANTED session whose expiresAt has passed, whether or not its expiry is stored yet. */
const ranOut = (row: SessionRow, at: Date): boolean => row.state === 'GRANTED' && row.expires_at !== null && row.expires_at <= at;

/**
 * Spec 3.1 on SQL. Every transition is a conditional statement on the current state inside a
 * transaction, so two processes on one PostgreSQL cannot both win it.
 */
export function createSessionStore(db: Database, now: () => Date = () => new Date()): SessionStore {
  return {
    async create(input, correlationId) {
      const at = now();
      const sessionId = `sess-${randomUUID()}`;
      // The row and its CREATED event in one statement (atomic on its own); a key already
      // claimed inserts nothing and goes on to the replay below.
      const inserted = (
        await db.query<SessionRow>(
          `WITH inserted AS (
           INSERT INTO sessions (session_id, subject_id, device_ref, state, created_at, updated_at, idempotency_key)
           VALUES ($1, $2, $3, 'CREATED', $4, $4, $5)
           ON CONFLICT (idempotency_key) DO NOTHING
           RETURNING ${COLUMNS}),
         event AS (
           INSERT INTO session_events (${EVENT_COLUMNS})
           SELECT session_id, $4, NULL, 'CREATED', NULL, NULL, $6 FROM inserted)
         SELECT ${COLUMNS} FROM inserted`,
          [sessionId, input.subjectId, input.deviceRef, at, input.idempotencyKey ?? null, correlationId],
        )
      )[0];
      if (inserted !== undefined) return { kind: 'created', session: toRecord(inserted) };
      return db.transaction(async (tx) => {
        // Spec 3.1: the same Idempotency-Key returns the original; with another payload the key
        // is refused (IETF httpapi Idempotency-Key draft).
        const original = (await tx.query<SessionRow>(`SELECT ${COLUMNS} FROM sessions WHERE idempotency_key = $1`, [input.idempotencyKey]))[0];
        if (original === undefined) throw new Error('idempotency conflict without an original row');
        if (original.subject_id !== input.subjectId || original.device_ref !== input.deviceRef) return { kind: 'key-reused' };
        await expireDue(tx, 'session_id = $2', [original.session_id], at, correlationId);
        const current = await select(tx, original.session_id);
        return { kind: 'replayed', session: toRecord(current ?? original) };
      });
    },

    async read(sessionId, correlationId) {
      // Most reads find nothing due (the gateway asks once per Access-Request), so the plain
      // SELECT comes first and is the answer unless it shows a GRANTED session past expiresAt.
      // Only then the expiry is stored and the row read again: two statements, deliberately not
      // one, because the read must see what a concurrent read's expiry committed, and a
      // statement sees the database as it was when it began.
      const at = now();
      const row = await select(db, sessionId);
      if (row === undefined) return undefined;
      if (!ranOut(row, at)) return toRecord(row);
      await expireDue(db, 'session_id = $2', [sessionId], at, correlationId);
      const current = await select(db, sessionId);
      return current === undefined ? undefined : toRecord(current);
    },

    async grant(sessionId, input, correlationId) {
      const at = now();
      // On PGlite (one connection, every statement run alone) the grant statement is atomic by
      // itself: one round trip. On a PostgreSQL server, concurrent grants for one subject are put
      // one after the other by the subject's advisory lock, taken first in the same transaction;
      // the grant statement that follows sees every grant committed before the lock was had.
      const outcome =
        db.kind === 'postgres'
          ? await db.transaction(async (tx) =>
              (await lockSubjectOf(tx, sessionId)) === undefined ? { kind: 'not-found' as const } : grantStatement(tx, sessionId, input, at, correlationId),
            )
          : await grantStatement(db, sessionId, input, at, correlationId);
      if (outcome.kind !== 'lost') return outcome;
      // Only on a server: a single-session revoke (which takes no subject lock) ended the session
      // between the statement's snapshot and its UPDATE. Answer the session as it is now.
      const ended = await select(db, sessionId);
      return ended === undefined ? { kind: 'not-found' } : { kind: 'ended', session: toRecord(ended) };
    },

    async revoke(sessionId, correlationId) {
      return db.transaction(async (tx): Promise<RevokeOutcome> => {
        const at = now();
        await expireDue(tx, 'session_id = $2', [sessionId], at, correlationId);
        const current = await select(tx, sessionId, true);
        if (current === undefined) return { kind: 'not-found' };
        // Spec 3.1: revoking again is a no-op; an EXPIRED session stays EXPIRED (README).
        if (current.state === 'REVOKED' || current.state === 'EXPIRED') return { kind: 'unchanged', session: toRecord(current) };
        const revoked = await tx.query<SessionRow>(
          `UPDATE sessions SET state = 'REVOKED', revoked_at = $2, revoke_reason = 'REVOKED', updated_at = $2
           WHERE session_id = $1 AND state IN ('CREATED', 'GRANTED')
           RETURNING ${COLUMNS}`,
          [sessionId, at],
        );
        const row = revoked[0];
        if (row === undefined) throw new Error('revoke lost its row inside the transaction');
        await recordEvent(tx, { sessionId, from: current.state, to: 'REVOKED', at, entitlementId: row.entitlement_id, reason: 'REVOKED', correlationId });
        return { kind: 'revoked', session: toRecord(row) };
      });
    },

    async revokeSubject(subjectId, reason, correlationId) {
      return db.transaction(async (tx) => {
        const at = now();
        // Under the subject's lock, so a grant running at the same time cannot outlive this.
        await tx.query(`SELECT pg_advisory_xact_lock(hashtext('wifi-session-subject:' || $1::text))::text AS locked`, [subjectId]);
        await expireDue(tx, 'subject_id = $2', [subjectId], at, correlationId);
        const rows = await tx.query<{ session_id: string }>(
          `WITH open AS (
             SELECT session_id, state FROM sessions WHERE subject_id = $1 AND state IN ('CREATED', 'GRANTED') FOR UPDATE),
           revoked AS (
             UPDATE sessions SET state = 'REVOKED', revoked_at = $2, revoke_reason = $3, updated_at = $2
             FROM open WHERE sessions.session_id = open.session_id
             RETURNING sessions.session_id, sessions.entitlement_id, open.state AS from_state),
           events AS (
             INSERT INTO session_events (${EVENT_COLUMNS})
             SELECT session_id, $2, from_state, 'REVOKED', entitlement_id, $3, $4 FROM revoked)
           SELECT session_id FROM revoked ORDER BY session_id`,
          [subjectId, at, reason, correlationId],
        );
        return rows.map((row) => row.session_id);
      });
    },
  };
}

const QUALIFIED = COLUMNS.split(',')
  .map((column) => `sessions.${column.trim()}`)
  .join(', ');

/**
 * Spec 3.1's grant in one statement (a cost cut: it was five round trips). It reads the
 * session (locking its row), decides, and writes:
 * - an unknown session: no row;
 * - REVOKED or EXPIRED: `ended`, nothing written;
 * - GRANTED past its expiry: the subject's sessions past their expiry (this one too) are stored
 *   EXPIRED, and the answer is `ended`;
 * - GRANTED under the same entitlement: `replayed`, nothing written;
 * - otherwise the grant. Grant is declarative (docs/decisions/0028-grant-with-a-different-entitlement-on-a.md): a GRANTED session now
 *   carries the entitlement supplied last. The subject's other sessions past their expiry are
 *   stored EXPIRED first (they hold no slot). The same device signing in again replaces its own
 *   session (another GRANTED session of the subject with this deviceRef is revoked, reason
 *   SAME_DEVICE, and takes no slot). Device slots (docs/decisions/0032-device-slots.md): a subject never
 *   holds more GRANTED, unexpired sessions than the entitlement allows; making room revokes the
 *   oldest others (all but the newest `deviceSlots - 1`), so a person moving from phone to laptop
 *   is never locked out.
 * Each change gets its event. `lost`: the statement decided to write but the row had changed
 * under it (a concurrent revoke on a server).
 */
async function grantStatement(db: Queryable, sessionId: string, input: GrantInput, at: Date, correlationId: string): Promise<GrantOutcome | { kind: 'lost' }> {
  const rows = await db.query<SessionRow & { outcome: 'granted' | 'ended' | 'replayed' | 'lost'; revoked_for_slots: string[] | null }>(
    `WITH current AS (
       SELECT ${COLUMNS}, (state = 'GRANTED' AND expires_at <= $8) AS ran_out FROM sessions WHERE session_id = $1 FOR UPDATE),
     decision AS (
       SELECT current.*, CASE
         WHEN ran_out THEN 'ran-out'
         WHEN state IN ('REVOKED', 'EXPIRED') THEN 'ended'
         WHEN state = 'GRANTED' AND entitlement_id = $2 THEN 'replayed'
         ELSE 'grant' END AS outcome
       FROM current),
     expired AS (
       UPDATE sessions SET state = 'EXPIRED', updated_at = $8
       FROM decision
       WHERE decision.outcome IN ('grant', 'ran-out') AND sessions.subject_id = decision.subject_id
         AND sessions.state = 'GRANTED' AND sessions.expires_at <= $8
       RETURNING ${QUALIFIED}),
     others AS (
       SELECT sessions.session_id, COALESCE(sessions.device_ref = decision.device_ref, false) AS same_device, sessions.granted_at
       FROM sessions JOIN decision ON decision.outcome = 'grant' AND sessions.subject_id = decision.subject_id
       WHERE sessions.state = 'GRANTED' AND sessions.session_id <> $1 AND (sessions.expires_at IS NULL OR sessions.expires_at > $8)),
     victims AS (
       SELECT session_id, 'SAME_DEVICE' AS reason FROM others WHERE same_device
       UNION ALL
       SELECT session_id, 'DEVICE_SLOTS' FROM (
         SELECT session_id FROM others WHERE NOT same_device
         ORDER BY granted_at DESC, session_id DESC
         OFFSET GREATEST($6::integer - 1, 0)) AS beyond_slots),
     revoked AS (
       UPDATE sessions SET state = 'REVOKED', revoked_at = $8, revoke_reason = victims.reason, updated_at = $8
       FROM victims WHERE sessions.session_id = victims.session_id AND sessions.state = 'GRANTED'
       RETURNING sessions.session_id, sessions.entitlement_id, sessions.granted_at, victims.reason),
     granted AS (
       UPDATE sessions SET state = 'GRANTED', entitlement_id = $2, entitlement_type = $3, tier = $4, qos_class = $5,
         device_slots = $6, expires_at = $7, allowance = $10::jsonb, granted_at = COALESCE(sessions.granted_at, $8), updated_at = $8
       FROM decision
       WHERE decision.outcome = 'grant' AND sessions.session_id = $1 AND sessions.state IN ('CREATED', 'GRANTED')
       RETURNING ${QUALIFIED}, decision.state AS from_state),
     events AS (
       INSERT INTO session_events (${EVENT_COLUMNS})
       SELECT session_id, $8, 'GRANTED', 'EXPIRED', entitlement_id, 'EXPIRES_AT_PASSED', $9 FROM expired
       UNION ALL
       SELECT session_id, $8, 'GRANTED', 'REVOKED', entitlement_id, reason, $9
       FROM (SELECT * FROM revoked ORDER BY granted_at, session_id) AS oldest_first
       UNION ALL
       SELECT session_id, $8, from_state, 'GRANTED', $2, NULL, $9 FROM granted)
     SELECT 'granted' AS outcome, ${COLUMNS}, (SELECT array_agg(session_id ORDER BY granted_at, session_id) FROM revoked) AS revoked_for_slots FROM granted
     UNION ALL
     SELECT 'ended', ${COLUMNS}, NULL FROM expired WHERE session_id = $1
     UNION ALL
     SELECT CASE WHEN outcome IN ('ended', 'replayed') THEN outcome ELSE 'lost' END, ${COLUMNS}, NULL FROM decision
     WHERE outcome IN ('ended', 'replayed')
       OR (outcome = 'grant' AND NOT EXISTS (SELECT 1 FROM granted))
       OR (outcome = 'ran-out' AND NOT EXISTS (SELECT 1 FROM expired WHERE session_id = $1))`,
    [
      sessionId,
      input.entitlementId,
      input.entitlementType,
      input.tier,
      input.qosClass,
      input.deviceSlots,
      input.validUntil,
      at,
      correlationId,
      input.allowance ? JSON.stringify(input.allowance) : null,
    ],
  );
  const row = rows[0];
  if (row === undefined) return { kind: 'not-found' };
  switch (row.outcome) {
    case 'granted':
      return { kind: 'granted', session: toRecord(row), revokedForSlots: row.revoked_for_slots ?? [] };
    case 'ended':
      return { kind: 'ended', session: toRecord(row) };
    case 'replayed':
      return { kind: 'replayed', session: toRecord(row) };
    case 'lost':
      return { kind: 'lost' };
  }
}
