import { randomUUID } from 'node:crypto';
import test from 'ava';
import type { Database } from '../../../services/kit/store/index.js';
import { assertError } from '../../helpers/error-shape.js';
import { startPostgres, type PostgresServer } from '../../helpers/postgres-server.js';
import { bootSession, FEED_KEY, grantBody, KEY, openSessionDb, SUBJECT_KEY, subject, TestClock } from './session-service.js';

// A person's erasure at the session service, on PGlite and on a PostgreSQL server: their open
// sessions revoked through the change feed, then every row anonymised, nothing left that names
// them, and a second call changes nothing.
let server: PostgresServer;
let postgresUrl: string;
test.before(async () => {
  server = await startPostgres();
  postgresUrl = await server.createDatabase();
});
test.after.always(() => server?.stop());

for (const backend of ['memory', 'postgres'] as const) {
  test.serial(`${backend}: erasing a subject revokes their open sessions through the feed and leaves no row naming them`, async (t) => {
    const db: Database = await openSessionDb(backend, backend === 'postgres' ? postgresUrl : undefined);
    t.teardown(() => db.close());
    const clock = new TestClock();
    const service = await bootSession(t, db, clock);
    const [person, other] = [subject(), subject()];
    const correlation = `corr-${randomUUID()}`;
    const open = async (who: string, device: string) => {
      const id = String(
        (await service.create({ subjectId: who, deviceRef: device }, { 'X-Correlation-ID': correlation, 'Idempotency-Key': randomUUID() })).body['sessionId'],
      );
      await service.grant(id, grantBody(clock, { deviceSlots: 3 }));
      return id;
    };
    const granted = await open(person, 'erase-device-ref-1');
    const ended = await open(person, 'erase-device-ref-2');
    await service.revoke(ended);
    const kept = await open(other, 'other-device-ref');
    await db.query("INSERT INTO usage_counters VALUES ($1, 'DAY', $2, 10, 10)", [person, clock.now()]);
    await db.query("INSERT INTO usage_connections VALUES ('nas/acct-1', $1, 10, 10, $2)", [person, clock.now()]);

    const reply = await service.request('POST', `/api/v1/subjects/${person}/erase`, { headers: KEY });

    t.is(reply.status, 200, reply.text);
    t.deepEqual(reply.body, { subjectId: person, revoked: [granted], anonymised: [granted, ended].sort() });
    const changes = await service.request('GET', '/api/v1/sessions/changes', { headers: FEED_KEY });
    const last = (changes.body['changes'] as { sessionId: string; state: string; reason: string }[]).filter((c) => c.sessionId === granted).at(-1);
    t.like(last, { state: 'REVOKED', reason: 'ERASED' }, 'the gateways hear of the revocation');
    t.like((await service.read(granted)).body, { state: 'REVOKED', deviceRef: null, subjectId: 'erased' }, 'the feed still finds the session');
    const naming = await db.query(
      `SELECT 'session' AS what FROM sessions WHERE subject_id = $1 OR device_ref LIKE 'erase-device-ref%'
       UNION ALL SELECT 'event' FROM session_events e JOIN sessions s USING (session_id) WHERE s.session_id = ANY($2::text[]) AND e.correlation_id IS NOT NULL
       UNION ALL SELECT 'counter' FROM usage_counters WHERE subject_id = $1
       UNION ALL SELECT 'connection' FROM usage_connections WHERE subject_id = $1
       UNION ALL SELECT 'key' FROM sessions WHERE session_id = ANY($2::text[]) AND idempotency_key IS NOT NULL`,
      [person, [granted, ended]],
    );
    t.deepEqual(naming, []);
    t.like((await service.read(kept)).body, { state: 'GRANTED', subjectId: other, deviceRef: 'other-device-ref' }, "another person's session is untouched");
    const copy = await service.request('GET', `/api/v1/subjects/${person}/sessions`, { headers: KEY });
    t.deepEqual(copy.body['sessions'], [], 'a copy asked afterwards finds nothing');

    const again = await service.request('POST', `/api/v1/subjects/${person}/erase`, { headers: SUBJECT_KEY });
    t.deepEqual(again.body, { subjectId: person, revoked: [], anonymised: [] }, 'a second erasure (svc-admin after the portal) changes nothing');
  });
}

test.serial('only a key with the erase scope erases, and only a UUID subject', async (t) => {
  const db = await openSessionDb('memory');
  t.teardown(() => db.close());
  const service = await bootSession(t, db);
  assertError(t, await service.request('POST', `/api/v1/subjects/${subject()}/erase`, { headers: FEED_KEY }), 403, 'FORBIDDEN');
  assertError(t, await service.request('POST', `/api/v1/subjects/${subject()}/erase`), 401, 'UNAUTHORIZED');
  assertError(t, await service.request('POST', '/api/v1/subjects/erased/erase', { headers: KEY }), 400, 'INVALID_REQUEST');
});
