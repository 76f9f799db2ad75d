import test from 'ava';
import type { Database } from '../../../services/kit/store/index.js';
import { createUsageCounters } from '../../../services/session/usage-counters.js';
import { bootSession, grantBody, openSessionDb, subject, TestClock } from './session-service.js';

// A session granted under an entitlement with an allowance reads back with it and with what its
// person has left now (the session service's default venue time zone, UTC).
let db: Database;
test.before(async () => {
  db = await openSessionDb('memory');
});
test.after.always(() => db?.close());

const GB = 2 ** 30;
const DAILY = { dataBytes: GB, timeSeconds: 7200, period: 'DAY' };

test("a read shows the allowance and what is left across the person's sessions; a new day restores it without any action", async (t) => {
  const clock = new TestClock(new Date('2026-11-27T23:00:00Z'));
  const service = await bootSession(t, db, clock);
  const subjectId = subject();
  const created = await service.create({ subjectId, deviceRef: 'dev-a' });
  const sessionId = String(created.body['sessionId']);
  const granted = await service.grant(sessionId, grantBody(clock, { allowance: DAILY }));
  t.is(granted.status, 200, granted.text);
  t.deepEqual(granted.body['allowance'], DAILY);
  await createUsageCounters(db, 'UTC').add({ connectionKey: `nas/1/${sessionId}`, subjectId, period: 'DAY', at: clock.now(), octets: 1000, sessionTime: 600 });
  const read = await service.read(sessionId);
  t.deepEqual(read.body['remaining'], { bytesRemaining: GB - 1000, secondsRemaining: 6600, renewsAt: '2026-11-28T00:00:00.000Z' });
  clock.advance(3_600_000);
  t.deepEqual((await service.read(sessionId)).body['remaining'], { bytesRemaining: GB, secondsRemaining: 7200, renewsAt: '2026-11-29T00:00:00.000Z' });
});

test('a grant without an allowance reads with none and nothing remaining to count', async (t) => {
  const clock = new TestClock();
  const service = await bootSession(t, db, clock);
  const created = await service.create({ subjectId: subject(), deviceRef: 'dev-b' });
  const sessionId = String(created.body['sessionId']);
  await service.grant(sessionId, grantBody(clock));
  t.like((await service.read(sessionId)).body, { state: 'GRANTED', allowance: null, remaining: null });
});

test('a malformed allowance in a grant is 400 and grants nothing', async (t) => {
  const clock = new TestClock();
  const service = await bootSession(t, db, clock);
  const created = await service.create({ subjectId: subject(), deviceRef: 'dev-c' });
  const sessionId = String(created.body['sessionId']);
  const refused = await service.grant(sessionId, grantBody(clock, { allowance: { dataBytes: -1, timeSeconds: null, period: 'DAY' } }));
  t.is(refused.status, 400);
  t.is((await service.read(sessionId)).body['state'], 'CREATED');
});
