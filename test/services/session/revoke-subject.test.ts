import test from 'ava';
import type { Database } from '../../../services/kit/store/index.js';
import { assertError } from '../../helpers/error-shape.js';
import { bootSession, grantBody, openSessionDb, SUBJECT_KEY, subject, TestClock } from './session-service.js';

// A terminated or suspended employee's network sessions end at once (the svc-admin
// webhook asks), each recorded with the reason, so the gateways hear of it through the feed.
let db: Database;
test.before(async () => {
  db = await openSessionDb('memory');
});
test.after.always(() => db?.close());

test('revoking a subject ends its CREATED and GRANTED sessions with the reason, leaves expired ones and other subjects alone, and is idempotent', async (t) => {
  const clock = new TestClock();
  const service = await bootSession(t, db, clock);
  const employee = subject();
  const open = async (who: string, grant: boolean, validMs = 3_600_000) => {
    const id = String((await service.create({ subjectId: who, deviceRef: null })).body['sessionId']);
    if (grant) await service.grant(id, grantBody(clock, { deviceSlots: 3, validUntil: new Date(clock.now().getTime() + validMs).toISOString() }));
    return id;
  };
  const granted = await open(employee, true);
  const created = await open(employee, false);
  const dueSoon = await open(employee, true, 1000);
  const someoneElse = await open(subject(), true);
  clock.advance(2000);
  const reply = await service.request('POST', `/api/v1/subjects/${employee}/revoke`, { json: { reason: 'EMPLOYEE_TERMINATED' }, headers: SUBJECT_KEY });
  t.is(reply.status, 200, reply.text);
  t.deepEqual(reply.body, { subjectId: employee, revoked: [granted, created].sort() });
  t.like((await service.read(granted)).body, { state: 'REVOKED' });
  t.like((await service.read(created)).body, { state: 'REVOKED' });
  t.like((await service.read(dueSoon)).body, { state: 'EXPIRED' }, 'expired, not revoked');
  t.like((await service.read(someoneElse)).body, { state: 'GRANTED' });
  const events = await db.query('SELECT from_state, to_state, reason FROM session_events WHERE session_id = $1 ORDER BY id DESC LIMIT 1', [granted]);
  t.deepEqual(events, [{ from_state: 'GRANTED', to_state: 'REVOKED', reason: 'EMPLOYEE_TERMINATED' }]);
  const again = await service.request('POST', `/api/v1/subjects/${employee}/revoke`, { json: {}, headers: SUBJECT_KEY });
  t.deepEqual(again.body, { subjectId: employee, revoked: [] });
});

test('revoking a subject needs the key, a UUID and a known reason', async (t) => {
  const service = await bootSession(t, db);
  assertError(t, await service.request('POST', `/api/v1/subjects/${subject()}/revoke`, { json: {} }), 401, 'UNAUTHORIZED');
  assertError(t, await service.request('POST', '/api/v1/subjects/not-a-uuid/revoke', { json: {}, headers: SUBJECT_KEY }), 400, 'INVALID_REQUEST');
  assertError(
    t,
    await service.request('POST', `/api/v1/subjects/${subject()}/revoke`, { json: { reason: 'BECAUSE' }, headers: SUBJECT_KEY }),
    400,
    'INVALID_REQUEST',
  );
});
