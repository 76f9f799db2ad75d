import { SubjectErased } from '../../contract/session.js';
import { route, SUBJECT_KEY_REFUSALS, subjectKeyRoute, type CallerKey, type Route } from '../kit/index.js';
import type { Database } from '../kit/store/index.js';
import type { SessionScope } from './config.js';
import type { SessionStore } from './session-store.js';

/**
 * What an erased person's sessions name instead of them. Not a UUID, so no subject's read, copy
 * or erase ever finds these rows again, and the same for everyone, so nothing ties them together.
 */
export const ERASED_SUBJECT = 'erased';

/**
 * Erases one subject from the session service: their open sessions revoked first (the
 * revocation is a change-feed event, so the gateways disconnect them), then every session of
 * theirs anonymised rather than deleted: the feed's events and the gateway's connection records
 * name the session id, and a session deleted before a follower read its REVOKED change would
 * read as unknown. The subject, device reference, Idempotency-Key and correlation ids go; the
 * retention purge removes the anonymous rows in their time. Allowance counters are per person
 * and go whole. Repeating it finds nothing and changes nothing.
 */
export async function eraseSubject(db: Database, store: SessionStore, subjectId: string, correlationId: string): Promise<SubjectErased> {
  const revoked = await store.revokeSubject(subjectId, 'ERASED', correlationId);
  const anonymised = await db.transaction(async (tx) => {
    // The subject's lock, as a grant or a revoke of theirs takes it: nothing of theirs is mid-change.
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('wifi-session-subject:' || $1::text))::text AS locked`, [subjectId]);
    await tx.query('UPDATE session_events SET correlation_id = NULL WHERE session_id IN (SELECT session_id FROM sessions WHERE subject_id = $1)', [subjectId]);
    const rows = await tx.query<{ session_id: string }>(
      `UPDATE sessions SET subject_id = $2, device_ref = NULL, idempotency_key = NULL WHERE subject_id = $1 RETURNING session_id`,
      [subjectId, ERASED_SUBJECT],
    );
    await tx.query('DELETE FROM usage_counters WHERE subject_id = $1', [subjectId]);
    await tx.query('DELETE FROM usage_connections WHERE subject_id = $1', [subjectId]);
    return rows.map((row) => row.session_id).sort();
  });
  return { subjectId, revoked, anonymised };
}

/** The session service's part of a person's erasure (the portal calls it for the signed-in person, svc-admin for an operator's). */
export function eraseRoutes(db: Database, store: SessionStore, keys: readonly CallerKey<SessionScope>[]): Route[] {
  return [
    route({
      method: 'post',
      path: '/api/v1/subjects/:subjectId/erase',
      summary:
        "Erases a subject: open sessions revoked (the gateways disconnect them through the change feed), every session anonymised, the person's allowance counters deleted; repeating it changes nothing.",
      ...subjectKeyRoute(keys, 'erase'),
      responses: {
        200: { description: 'Erased (empty lists when an earlier call already did).', schema: SubjectErased },
        ...SUBJECT_KEY_REFUSALS,
      },
      handle: async ({ params: { subjectId }, correlationId }) => ({ status: 200, body: await eraseSubject(db, store, subjectId, correlationId) }),
    }),
  ];
}
