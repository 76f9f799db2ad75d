import { randomUUID } from 'node:crypto';
import test from 'ava';
import { SubjectEntitlements } from '../../../contract/entitlement.js';
import { createEntitlementStore } from '../../../services/entitlement/entitlement-store.js';
import { assertError } from '../../helpers/error-shape.js';
import { bootEntitlement, openEntitlementDb } from './harness.js';

// svc-admin's read of a person's entitlements (an operator answering a request): one subject's
// entitlements as granted, for a key with the copy scope only.
const KEYCLOAK_KEY = { 'X-API-Key': 'dev-entitlement-keycloak-key' };
const PORTAL_KEY = { 'X-API-Key': 'dev-entitlement-portal-key' };
const at = '2026-11-20T10:00:00.000Z';

const entitlement = (subjectId: string) => ({
  entitlementId: `ent-${randomUUID()}`,
  subjectId,
  sessionId: null,
  eligible: true,
  entitlementType: 'CUSTOMER',
  status: 'ACTIVE',
  validFrom: at,
  validUntil: at,
  permission: { tier: 'BASIC', qosClass: 'STANDARD', deviceSlots: 1, sourceType: 'IDP_ID_LOGIN', sourceRef: null },
  issuedAt: at,
});

test("a key with the copy scope reads exactly one subject's entitlements (svc-admin's and, by default, the portal's); an erase-only key is refused", async (t) => {
  const db = await openEntitlementDb('memory');
  t.teardown(() => db.close());
  const service = await bootEntitlement(t, db, {});
  const [person, other] = [randomUUID(), randomUUID()];
  const mine = entitlement(person);
  // Stored as the evaluate route stores them (the store keeps the body without `replayed`).
  const store = createEntitlementStore(db, () => new Date(at));
  for (const body of [mine, entitlement(other)]) await store.save(body, null, undefined);
  const reply = await service.request('GET', `/api/v1/subjects/${person}/entitlements`, { headers: KEYCLOAK_KEY });
  t.is(reply.status, 200, reply.text);
  t.deepEqual(reply.body, { subjectId: person, entitlements: [mine] });
  // What svc-admin parses the answer with (it reads nothing it cannot parse: a 502 to the operator).
  t.true(SubjectEntitlements.safeParse(reply.body).success, JSON.stringify(SubjectEntitlements.safeParse(reply.body).error?.issues));
  // The portal's own key reads them too, for the person's copy of their data.
  const portal = await service.request('GET', `/api/v1/subjects/${person}/entitlements`, { headers: PORTAL_KEY });
  t.is(portal.status, 200, portal.text);
  t.deepEqual(portal.body, reply.body);
  const eraseOnly = await bootEntitlement(t, db, { ENTITLEMENT_API_KEYS: 'eraser:dev-entitlement-eraser-key:erase' });
  const refused = await eraseOnly.request('GET', `/api/v1/subjects/${person}/entitlements`, { headers: { 'X-API-Key': 'dev-entitlement-eraser-key' } });
  assertError(t, refused, 403, 'FORBIDDEN');
  assertError(t, await service.request('GET', `/api/v1/subjects/${person}/entitlements`), 401, 'UNAUTHORIZED');
  assertError(t, await service.request('GET', '/api/v1/subjects/not-a-uuid/entitlements', { headers: KEYCLOAK_KEY }), 400, 'INVALID_REQUEST');
});
