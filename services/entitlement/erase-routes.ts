import { z } from 'zod';
import { EntitlementsErased } from '../../contract/entitlement.js';
import { requireApiKey, route, type CallerKey, type Route } from '../kit/index.js';
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

/** The entitlement service's part of a person's erasure (a key-authenticated leg: no person's token is involved). */
export function eraseRoutes(db: Database, keys: readonly CallerKey<EntitlementScope>[]): Route[] {
  return [
    route({
      method: 'post',
      path: '/api/v1/subjects/:subjectId/erase',
      summary: "Deletes a subject's entitlements and the requests that asked for them; repeating it deletes nothing more.",
      security: 'apiKey',
      params: { subjectId: z.uuid('must be a UUID') },
      steps: [requireApiKey(keys, 'erase')],
      responses: {
        200: { description: 'Erased (zero counts when an earlier call already did).', schema: EntitlementsErased },
        400: { description: 'INVALID_REQUEST: the subject is not a UUID.' },
        401: { description: 'UNAUTHORIZED' },
        403: { description: "FORBIDDEN: the key is known but lacks this route's scope." },
      },
      handle: async ({ params: { subjectId } }) => ({ status: 200, body: await eraseEntitlements(db, subjectId) }),
    }),
  ];
}
