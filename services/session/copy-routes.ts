import { SubjectSessions, type SessionState } from '../../contract/session.js';
import { route, SUBJECT_KEY_REFUSALS, subjectKeyRoute, type CallerKey, type Route } from '../kit/index.js';
import type { Queryable } from '../kit/store/index.js';
import type { SessionScope } from './config.js';

interface CopyRow {
  session_id: string;
  state: SessionState;
  entitlement_id: string | null;
  entitlement_type: string | null;
  tier: string | null;
  qos_class: string | null;
  granted_at: Date | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  revoke_reason: string | null;
  created_at: Date;
  updated_at: Date;
  [column: string]: unknown;
}

interface EventRow {
  session_id: string;
  at: Date;
  from_state: SessionState | null;
  to_state: SessionState;
  reason: string | null;
  [column: string]: unknown;
}

const iso = (value: Date | null): string | null => (value === null ? null : value.toISOString());

/** Every network session of one subject with its state changes, oldest first: the rows name that subject, and only those are read. */
export async function sessionsOfSubject(db: Queryable, subjectId: string, now: Date): Promise<SubjectSessions> {
  const rows = await db.query<CopyRow>(
    `SELECT session_id, state, entitlement_id, entitlement_type, tier, qos_class, granted_at, expires_at, revoked_at, revoke_reason, created_at, updated_at
       FROM sessions WHERE subject_id = $1 ORDER BY created_at, session_id`,
    [subjectId],
  );
  const events = await db.query<EventRow>(
    `SELECT e.session_id, e.at, e.from_state, e.to_state, e.reason FROM session_events e JOIN sessions s USING (session_id)
      WHERE s.subject_id = $1 ORDER BY e.id`,
    [subjectId],
  );
  return {
    subjectId,
    sessions: rows.map((row) => ({
      sessionId: row.session_id,
      // A granted session past its end reads as expired, as every other read answers it.
      state: row.state === 'GRANTED' && row.expires_at !== null && row.expires_at <= now ? 'EXPIRED' : row.state,
      entitlementId: row.entitlement_id,
      entitlementType: row.entitlement_type,
      tier: row.tier,
      qosClass: row.qos_class,
      grantedAt: iso(row.granted_at),
      expiresAt: iso(row.expires_at),
      revokedAt: iso(row.revoked_at),
      revokeReason: row.revoke_reason,
      createdAt: row.created_at.toISOString(),
      updatedAt: row.updated_at.toISOString(),
      events: events
        .filter((event) => event.session_id === row.session_id)
        .map((event) => ({ at: event.at.toISOString(), fromState: event.from_state, state: event.to_state, reason: event.reason })),
    })),
  };
}

/** A person's copy of their data: what the session service holds about one subject (the portal asks for the signed-in person only). */
export function copyRoutes(db: Queryable, keys: readonly CallerKey<SessionScope>[], now: () => Date): Route[] {
  return [
    route({
      method: 'get',
      path: '/api/v1/subjects/:subjectId/sessions',
      summary: "Every network session of a subject with its state changes, for the person's copy of their data; no device reference.",
      ...subjectKeyRoute(keys, 'copy'),
      responses: {
        200: { description: 'The sessions, oldest first (none when the subject has none).', schema: SubjectSessions },
        ...SUBJECT_KEY_REFUSALS,
      },
      handle: async ({ params: { subjectId } }) => ({ status: 200, body: await sessionsOfSubject(db, subjectId, now()) }),
    }),
  ];
}
