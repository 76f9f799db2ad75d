import test, { type ExecutionContext } from 'ava';
import type { Database } from '../../../services/kit/store/index.js';
import { assertError } from '../../helpers/error-shape.js';
import { bootSession, grantBody, openSessionDb, subject, TestClock } from './session-service.js';

// Spec 3.1, one test per row of the table, plus the "not shown" rows as the README decides.
// One in-memory PGlite serves the whole file; every test uses its own subjects and sessions.
let db: Database;
test.before(async () => {
  db = await openSessionDb('memory');
});
test.after.always(() => db?.close());

async function setup(t: ExecutionContext) {
  const clock = new TestClock();
  const service = await bootSession(t, db, clock);
  const created = await service.create({ subjectId: subject(), deviceRef: 'dev-phone-1' });
  t.is(created.status, 201, created.text);
  return { clock, service, sessionId: String(created.body['sessionId']), subjectId: String(created.body['subjectId']) };
}

test('create opens a CREATED session that grants nothing', async (t) => {
  const { service, sessionId } = await setup(t);
  const read = await service.read(sessionId);
  t.is(read.status, 200);
  t.like(read.body, { state: 'CREATED', deviceRef: 'dev-phone-1', entitlementId: null, grantedAt: null, expiresAt: null, revokedAt: null, replayed: false });
  t.regex(sessionId, /^sess-[0-9a-f-]{36}$/);
});

test('create with the same Idempotency-Key returns the original with 200 and replayed', async (t) => {
  const { service } = await bootSessionPair(t);
  const body = { subjectId: subject(), deviceRef: null };
  const first = await service.create(body, { 'Idempotency-Key': 'key-replay-1' });
  const again = await service.create(body, { 'Idempotency-Key': 'key-replay-1' });
  t.is(first.status, 201);
  t.is(again.status, 200);
  t.is(again.body['sessionId'], first.body['sessionId']);
  t.true(again.body['replayed']);
});

test('the same Idempotency-Key with another subject is refused with 422', async (t) => {
  const { service } = await bootSessionPair(t);
  t.is((await service.create({ subjectId: subject() }, { 'Idempotency-Key': 'key-reuse-1' })).status, 201);
  assertError(t, await service.create({ subjectId: subject() }, { 'Idempotency-Key': 'key-reuse-1' }), 422, 'IDEMPOTENCY_KEY_REUSED');
});

test('grant of a CREATED session sets the entitlement fields, grantedAt and expiresAt from validUntil', async (t) => {
  const { clock, service, sessionId } = await setup(t);
  const body = grantBody(clock, { tier: 'BOOST', qosClass: 'HIGH', entitlementType: 'WIFI_EMPLOYEE_PACKAGE', deviceSlots: 2 });
  const granted = await service.grant(sessionId, body);
  t.is(granted.status, 200, granted.text);
  t.like(granted.body, {
    state: 'GRANTED',
    entitlementId: body['entitlementId'],
    entitlementType: 'WIFI_EMPLOYEE_PACKAGE',
    tier: 'BOOST',
    qosClass: 'HIGH',
    grantedAt: clock.now().toISOString(),
    expiresAt: body['validUntil'],
    replayed: false,
  });
  t.like((await service.read(sessionId)).body, { state: 'GRANTED', entitlementId: body['entitlementId'] });
});

test('grant again with the same entitlement is a no-op with replayed', async (t) => {
  const { clock, service, sessionId } = await setup(t);
  const body = grantBody(clock);
  const first = await service.grant(sessionId, body);
  clock.advance(1000);
  const again = await service.grant(sessionId, body);
  t.is(again.status, 200);
  t.true(again.body['replayed']);
  t.is(again.body['grantedAt'], first.body['grantedAt']);
  t.is(again.body['updatedAt'], first.body['updatedAt']);
});

test('grant with a different entitlement on a GRANTED session carries the new entitlement (declarative)', async (t) => {
  const { clock, service, sessionId } = await setup(t);
  const first = await service.grant(sessionId, grantBody(clock));
  clock.advance(1000);
  const second = grantBody(clock, { tier: 'BOOST', validUntil: new Date(clock.now().getTime() + 7_200_000).toISOString() });
  const regranted = await service.grant(sessionId, second);
  t.is(regranted.status, 200);
  t.like(regranted.body, { state: 'GRANTED', entitlementId: second['entitlementId'], tier: 'BOOST', expiresAt: second['validUntil'], replayed: false });
  t.is(regranted.body['grantedAt'], first.body['grantedAt'], 'grantedAt keeps the first grant');
});

test('a GRANTED session read past expiresAt reads EXPIRED, and stays EXPIRED in the store', async (t) => {
  const { clock, service, sessionId } = await setup(t);
  await service.grant(sessionId, grantBody(clock, { validUntil: new Date(clock.now().getTime() + 60_000).toISOString() }));
  clock.advance(59_999);
  t.is((await service.read(sessionId)).body['state'], 'GRANTED');
  clock.advance(1);
  t.is((await service.read(sessionId)).body['state'], 'EXPIRED');
  const stored = await db.query<{ state: string }>('SELECT state FROM sessions WHERE session_id = $1', [sessionId]);
  t.deepEqual(stored, [{ state: 'EXPIRED' }]);
  clock.current = new Date(0);
  t.is((await service.read(sessionId)).body['state'], 'EXPIRED', 'a clock going back does not revive it');
});

test('grant on a REVOKED session is refused with 409 SESSION_EXPIRED and changes nothing', async (t) => {
  const { clock, service, sessionId } = await setup(t);
  await service.grant(sessionId, grantBody(clock));
  t.is((await service.revoke(sessionId)).body['state'], 'REVOKED');
  const before = await service.read(sessionId);
  assertError(t, await service.grant(sessionId, grantBody(clock)), 409, 'SESSION_EXPIRED');
  t.deepEqual((await service.read(sessionId)).body, before.body);
});

test('grant on an EXPIRED session is refused with 409 SESSION_EXPIRED', async (t) => {
  const { clock, service, sessionId } = await setup(t);
  await service.grant(sessionId, grantBody(clock, { validUntil: new Date(clock.now().getTime() + 1000).toISOString() }));
  clock.advance(1000);
  assertError(t, await service.grant(sessionId, grantBody(clock)), 409, 'SESSION_EXPIRED');
  t.is((await service.read(sessionId)).body['state'], 'EXPIRED');
});

test('revoke of a GRANTED session sets revokedAt; revoking again is a no-op', async (t) => {
  const { clock, service, sessionId } = await setup(t);
  await service.grant(sessionId, grantBody(clock));
  clock.advance(500);
  const revoked = await service.revoke(sessionId);
  t.is(revoked.status, 200);
  t.like(revoked.body, { state: 'REVOKED', revokedAt: clock.now().toISOString() });
  clock.advance(500);
  const again = await service.revoke(sessionId);
  t.is(again.status, 200);
  t.deepEqual(again.body, revoked.body);
});

test('revoke of a CREATED session closes it, so it can never be granted', async (t) => {
  const { clock, service, sessionId } = await setup(t);
  t.like((await service.revoke(sessionId)).body, { state: 'REVOKED', entitlementId: null });
  assertError(t, await service.grant(sessionId, grantBody(clock)), 409, 'SESSION_EXPIRED');
});

test('revoke of an EXPIRED session leaves it EXPIRED', async (t) => {
  const { clock, service, sessionId } = await setup(t);
  await service.grant(sessionId, grantBody(clock, { validUntil: new Date(clock.now().getTime() + 1000).toISOString() }));
  clock.advance(2000);
  const revoked = await service.revoke(sessionId);
  t.is(revoked.status, 200);
  t.like(revoked.body, { state: 'EXPIRED', revokedAt: null });
});

test('grant without an entitlementId is 422 ENTITLEMENT_DENIED and changes nothing, in any state', async (t) => {
  const { clock, service, sessionId } = await setup(t);
  const { entitlementId: _dropped, ...withoutId } = grantBody(clock);
  assertError(t, await service.grant(sessionId, withoutId), 422, 'ENTITLEMENT_DENIED');
  assertError(t, await service.grant(sessionId, {}), 422, 'ENTITLEMENT_DENIED');
  assertError(t, await service.grant(sessionId, { ...withoutId, entitlementId: null }), 422, 'ENTITLEMENT_DENIED');
  t.is((await service.read(sessionId)).body['state'], 'CREATED');
  await service.grant(sessionId, grantBody(clock));
  assertError(t, await service.grant(sessionId, withoutId), 422, 'ENTITLEMENT_DENIED');
  t.is((await service.read(sessionId)).body['state'], 'GRANTED');
});

test('unknown session ids are 404 NOT_FOUND on read, grant and revoke', async (t) => {
  const { clock, service } = await setup(t);
  const unknown = 'sess-00000000-0000-4000-8000-000000000000';
  assertError(t, await service.read(unknown), 404, 'NOT_FOUND');
  assertError(t, await service.grant(unknown, grantBody(clock)), 404, 'NOT_FOUND');
  assertError(t, await service.revoke(unknown), 404, 'NOT_FOUND');
});

test('every state change is recorded with its entitlement and reason', async (t) => {
  const { clock, service, sessionId } = await setup(t);
  const body = grantBody(clock);
  await service.grant(sessionId, body);
  await service.revoke(sessionId);
  const events = await db.query('SELECT from_state, to_state, entitlement_id FROM session_events WHERE session_id = $1 ORDER BY id', [sessionId]);
  t.deepEqual(events, [
    { from_state: null, to_state: 'CREATED', entitlement_id: null },
    { from_state: 'CREATED', to_state: 'GRANTED', entitlement_id: body['entitlementId'] },
    { from_state: 'GRANTED', to_state: 'REVOKED', entitlement_id: body['entitlementId'] },
  ]);
});

async function bootSessionPair(t: ExecutionContext) {
  return { service: await bootSession(t, db) };
}
