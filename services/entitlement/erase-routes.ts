import type { z } from 'zod';
import { type Entitlement, EntitlementsErased, SubjectEntitlements } from '../../contract/entitlement.js';
import { route, SUBJECT_KEY_REFUSALS, subjectKeyRoute, type CallerKey, type Route } from '../kit/index.js';
import type { Database } from '../kit/store/index.js';
import type { EntitlementScope } from './config.js';

/**
 * Deletes everything the entitlement service holds of one subject: the requests (their
 * Idempotency-Keys) first, since they name the entitlements, then the entitlements, whose bodies
 * carry the subject and an employee or member reference. Nothing here counts toward accounting
 * totals, so nothing is kept. Repeating it deletes nothing more.
 */
export async function eraseEntitlements(db: Database, subjectId: string): Promise<z.output<typeof EntitlementsErased>> {
  return db.transaction(async (tx) => {
    const requests = await tx.query('DELETE FROM entitlement_requests WHERE subject_id = $1 RETURNING 1 AS gone', [subjectId]);
    const entitlements = await tx.query('DELETE FROM entitlements WHERE subject_id = $1 RETURNING 1 AS gone', [subjectId]);
    return { subjectId, entitlements: entitlements.length, requests: requests.length };
  });
}

/** Every entitlement of one subject, oldest first, as it was granted (svc-admin's operator reads a person's records). */
export async function entitlementsOfSubject(db: Database, subjectId: string): Promise<z.output<typeof SubjectEntitlements>> {
  const rows = await db.query<{ body: z.output<typeof Entitlement> }>(
    'SELECT body FROM entitlements WHERE subject_id = $1 ORDER BY created_at, entitlement_id',
    [subjectId],
  );
  return { subjectId, entitlements: rows.map((row) => row.body) };
}

/** The entitlement service's part of a person's erasure (a key-authenticated leg: no person's token is involved). */
export function eraseRoutes(db: Database, keys: readonly CallerKey<EntitlementScope>[]): Route[] {
  return [
    route({
      method: 'get',
      path: '/api/v1/subjects/:subjectId/entitlements',
      summary: "A subject's entitlements, oldest first, for an operator's read of a person's records (svc-admin).",
      ...subjectKeyRoute(keys, 'copy'),
      responses: {
        200: { description: 'The entitlements (none when the subject has none).', schema: SubjectEntitlements },
        ...SUBJECT_KEY_REFUSALS,
      },
      handle: async ({ params: { subjectId } }) => ({ status: 200, body: await entitlementsOfSubject(db, subjectId) }),
    }),
    route({
      method: 'post',
      path: '/api/v1/subjects/:subjectId/erase',
      summary: "Deletes a subject's entitlements and the requests that asked for them; repeating it deletes nothing more.",
      ...subjectKeyRoute(keys, 'erase'),
      responses: {
        200: { description: 'Erased (zero counts when an earlier call already did).', schema: EntitlementsErased },
        ...SUBJECT_KEY_REFUSALS,
      },
      handle: async ({ params: { subjectId } }) => ({ status: 200, body: await eraseEntitlements(db, subjectId) }),
    }),
  ];
}
