import { randomUUID } from 'node:crypto';
import test from 'ava';
import type { Database } from '../../../services/kit/store/index.js';
import { assertError } from '../../helpers/error-shape.js';
import { startPostgres, type PostgresServer } from '../../helpers/postgres-server.js';
import { bootEntitlement, openEntitlementDb } from './harness.js';

// A person's erasure at the entitlement service, on PGlite and on a PostgreSQL server: every
// entitlement of theirs and every request that asked for one go; another person's stay.
let server: PostgresServer;
let postgresUrl: string;
test.before(async () => {
  server = await startPostgres();
  postgresUrl = await server.createDatabase();
});
test.after.always(() => server?.stop());

const KEY = { 'X-API-Key': 'dev-entitlement-portal-key' };

async function entitle(db: Database, subjectId: string): Promise<void> {
  const id = `ent-${randomUUID()}`;
  const body = { entitlementId: id, subjectId, permission: { sourceRef: 'EMP-CANARY' } };
  await db.query('INSERT INTO entitlements VALUES ($1, $2, $3, $4, now())', [id, subjectId, `sess-${randomUUID()}`, JSON.stringify(body)]);
  await db.query('INSERT INTO entitlement_requests (idempotency_key, subject_id, entitlement_id, claimed_at) VALUES ($1, $2, $3, now())', [
    randomUUID(),
    subjectId,
    id,
  ]);
  await db.query("INSERT INTO entitlement_requests (idempotency_key, subject_id, denial_reason, claimed_at) VALUES ($1, $2, 'COMPANY_NOT_ELIGIBLE', now())", [
    randomUUID(),
    subjectId,
  ]);
}

for (const backend of ['memory', 'postgres'] as const) {
  test.serial(`${backend}: erasing a subject deletes their entitlements and requests, and repeating it deletes nothing more`, async (t) => {
    const db = await openEntitlementDb(backend, backend === 'postgres' ? postgresUrl : undefined);
    t.teardown(() => db.close());
    const service = await bootEntitlement(t, db, {});
    const [person, other] = [randomUUID(), randomUUID()];
    await entitle(db, person);
    await entitle(db, person);
    await entitle(db, other);

    const reply = await service.request('POST', `/api/v1/subjects/${person}/erase`, { headers: KEY });

    t.is(reply.status, 200, reply.text);
    t.deepEqual(reply.body, { subjectId: person, entitlements: 2, requests: 4 });
    const naming = await db.query(
      "SELECT 'entitlement' AS what FROM entitlements WHERE subject_id = $1 OR body::text LIKE '%' || $1 || '%' UNION ALL SELECT 'request' FROM entitlement_requests WHERE subject_id = $1",
      [person],
    );
    t.deepEqual(naming, []);
    t.is((await db.query('SELECT 1 AS n FROM entitlement_requests WHERE subject_id = $1', [other])).length, 2, "another person's stay");
    t.deepEqual((await service.request('POST', `/api/v1/subjects/${person}/erase`, { headers: KEY })).body, {
      subjectId: person,
      entitlements: 0,
      requests: 0,
    });
  });
}

test.serial('only a key with the erase scope erases', async (t) => {
  const db = await openEntitlementDb('memory');
  t.teardown(() => db.close());
  const service = await bootEntitlement(t, db, { ENTITLEMENT_API_KEYS: 'portal:dev-entitlement-portal-key:erase;other:other-caller-key:erase' });
  assertError(t, await service.request('POST', `/api/v1/subjects/${randomUUID()}/erase`), 401, 'UNAUTHORIZED');
  assertError(t, await service.request('POST', `/api/v1/subjects/${randomUUID()}/erase`, { headers: { 'X-API-Key': 'not-a-known-key' } }), 401, 'UNAUTHORIZED');
  assertError(t, await service.request('POST', '/api/v1/subjects/not-a-uuid/erase', { headers: KEY }), 400, 'INVALID_REQUEST');
});
