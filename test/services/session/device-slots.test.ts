import test from 'ava';
import type { Database } from '../../../services/kit/store/index.js';
import { bootSession, grantBody, openSessionDb, subject, TestClock } from './session-service.js';

// Device slots (docs/decisions/0032-device-slots.md): never more GRANTED, unexpired sessions per subject
// than the entitlement's deviceSlots; a new grant revokes the oldest rather than refusing.
let db: Database;
test.before(async () => {
  db = await openSessionDb('memory');
});
test.after.always(() => db?.close());

test('a third device of a two-slot subject revokes the oldest session, not the new one', async (t) => {
  const clock = new TestClock();
  const service = await bootSession(t, db, clock);
  const subjectId = subject();
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const id = String((await service.create({ subjectId, deviceRef: `dev-${i}` })).body['sessionId']);
    t.is((await service.grant(id, grantBody(clock, { deviceSlots: 2 }))).status, 200);
    ids.push(id);
    clock.advance(1000);
  }
  const states = await Promise.all(ids.map(async (id) => (await service.read(id)).body['state']));
  t.deepEqual(states, ['REVOKED', 'GRANTED', 'GRANTED']);
  const reason = await db.query('SELECT revoke_reason FROM sessions WHERE session_id = $1', [ids[0]]);
  t.deepEqual(reason, [{ revoke_reason: 'DEVICE_SLOTS' }]);
  t.deepEqual(await eventsOf(ids[0] as string), [
    { from_state: null, to_state: 'CREATED', reason: null },
    { from_state: 'CREATED', to_state: 'GRANTED', reason: null },
    { from_state: 'GRANTED', to_state: 'REVOKED', reason: 'DEVICE_SLOTS' },
  ]);
});

const eventsOf = (sessionId: string) => db.query('SELECT from_state, to_state, reason FROM session_events WHERE session_id = $1 ORDER BY id', [sessionId]);

test('an expired session holds no slot', async (t) => {
  const clock = new TestClock();
  const service = await bootSession(t, db, clock);
  const subjectId = subject();
  const first = String((await service.create({ subjectId })).body['sessionId']);
  await service.grant(first, grantBody(clock, { validUntil: new Date(clock.now().getTime() + 1000).toISOString() }));
  clock.advance(2000);
  const second = String((await service.create({ subjectId })).body['sessionId']);
  await service.grant(second, grantBody(clock));
  t.is((await service.read(first)).body['state'], 'EXPIRED', 'expired, not revoked for a slot');
  t.is((await service.read(second)).body['state'], 'GRANTED');
  t.is((await service.read(first)).body['state'], 'EXPIRED');
  t.deepEqual(
    await eventsOf(first),
    [
      { from_state: null, to_state: 'CREATED', reason: null },
      { from_state: 'CREATED', to_state: 'GRANTED', reason: null },
      { from_state: 'GRANTED', to_state: 'EXPIRED', reason: 'EXPIRES_AT_PASSED' },
    ],
    'expired once, recorded once, however often it is read',
  );
});

test("other subjects' sessions are never touched", async (t) => {
  const clock = new TestClock();
  const service = await bootSession(t, db, clock);
  const mine = String((await service.create({ subjectId: subject() })).body['sessionId']);
  await service.grant(mine, grantBody(clock));
  const theirs = String((await service.create({ subjectId: subject() })).body['sessionId']);
  await service.grant(theirs, grantBody(clock));
  t.is((await service.read(mine)).body['state'], 'GRANTED');
});

test('the same device signing in again replaces its own session and takes no other slot; sessions without a deviceRef never match', async (t) => {
  const clock = new TestClock();
  const service = await bootSession(t, db, clock);
  const subjectId = subject();
  const grantOn = async (deviceRef: string | null) => {
    const id = String((await service.create({ subjectId, deviceRef })).body['sessionId']);
    t.is((await service.grant(id, grantBody(clock, { deviceSlots: 2 }))).status, 200);
    clock.advance(1000);
    return id;
  };
  const phone = await grantOn('dev-phone');
  const laptop = await grantOn('dev-laptop');
  const phoneAgain = await grantOn('dev-phone');
  const states = await Promise.all([phone, laptop, phoneAgain].map(async (id) => (await service.read(id)).body['state']));
  t.deepEqual(states, ['REVOKED', 'GRANTED', 'GRANTED'], 'the laptop keeps its slot');
  t.deepEqual((await eventsOf(phone)).at(-1), { from_state: 'GRANTED', to_state: 'REVOKED', reason: 'SAME_DEVICE' });
  // Two sessions without a deviceRef are two devices as far as anyone knows: slots decide.
  const other = subject();
  const first = String((await service.create({ subjectId: other, deviceRef: null })).body['sessionId']);
  await service.grant(first, grantBody(clock, { deviceSlots: 2 }));
  const second = String((await service.create({ subjectId: other, deviceRef: null })).body['sessionId']);
  await service.grant(second, grantBody(clock, { deviceSlots: 2 }));
  t.is((await service.read(first)).body['state'], 'GRANTED');
});
