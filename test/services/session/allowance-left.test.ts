import test from 'ava';
import type { Database } from '../../../services/kit/store/index.js';
import { createUsageCounters } from '../../../services/session/usage-counters.js';
import { assertError } from '../../helpers/error-shape.js';
import { bootSession, KEY, openSessionDb, SUBJECT_KEY, subject, TestClock } from './session-service.js';

// What a person has left of an entitlement's allowance, asked by the portal before any session
// is made: counted across sessions and devices, from the same counters as a session read.
let db: Database;
test.before(async () => {
  db = await openSessionDb('memory');
});
test.after.always(() => db?.close());

const GB = 2 ** 30;
const DAILY = { dataBytes: GB, timeSeconds: 7200, period: 'DAY' };

test('the allowance left of a person without a session: the counters of the period, and the renewal', async (t) => {
  const clock = new TestClock(new Date('2026-11-27T23:00:00Z'));
  const service = await bootSession(t, db, clock);
  const subjectId = subject();
  const ask = (allowance: unknown, headers = KEY) => service.request('POST', `/api/v1/subjects/${subjectId}/allowance-left`, { json: { allowance }, headers });
  t.deepEqual((await ask(DAILY)).body, { bytesRemaining: GB, secondsRemaining: 7200, renewsAt: '2026-11-28T00:00:00.000Z' });
  await createUsageCounters(db, 'UTC').add({ connectionKey: 'nas/1/a', subjectId, period: 'DAY', at: clock.now(), octets: GB, sessionTime: 600 });
  const used = await ask(DAILY);
  t.is(used.status, 200, used.text);
  t.deepEqual(used.body, { bytesRemaining: 0, secondsRemaining: 6600, renewsAt: '2026-11-28T00:00:00.000Z' });
  t.deepEqual((await ask({ ...DAILY, dataBytes: null })).body, { bytesRemaining: null, secondsRemaining: 6600, renewsAt: '2026-11-28T00:00:00.000Z' });
  clock.advance(3_600_000);
  t.deepEqual((await ask(DAILY)).body, { bytesRemaining: GB, secondsRemaining: 7200, renewsAt: '2026-11-29T00:00:00.000Z' }, 'a new day restores it');
  assertError(t, await ask({ ...DAILY, period: 'YEAR' }), 400, 'INVALID_REQUEST');
  assertError(t, await ask(DAILY, SUBJECT_KEY), 403, 'FORBIDDEN');
  assertError(
    t,
    await service.request('POST', '/api/v1/subjects/not-a-uuid/allowance-left', { json: { allowance: DAILY }, headers: KEY }),
    400,
    'INVALID_REQUEST',
  );
});
