import test from 'ava';
import type { Database } from '../../../services/kit/store/index.js';
import { assertError } from '../../helpers/error-shape.js';
import { bootSession, FEED_KEY, grantBody, KEY, openSessionDb, subject, TestClock } from './session-service.js';

// A person's copy of their data: the session service answers every session of one subject with its
// state changes, and nothing of anyone else's, nor the device pseudonym.
let db: Database;
test.before(async () => {
  db = await openSessionDb('memory');
});
test.after.always(() => db?.close());

test("a subject's copy holds exactly that subject's sessions and their state changes, without device references", async (t) => {
  const clock = new TestClock();
  const service = await bootSession(t, db, clock);
  const [anna, binh] = [subject(), subject()];
  const open = async (who: string, device: string) => String((await service.create({ subjectId: who, deviceRef: device })).body['sessionId']);
  const first = await open(anna, 'anna-device-ref-1');
  await service.grant(first, grantBody(clock, { deviceSlots: 2 }));
  clock.advance(1000);
  const second = await open(anna, 'anna-device-ref-2');
  await service.revoke(second);
  const others = await open(binh, 'binh-device-ref-1');
  await service.grant(others, grantBody(clock));

  const reply = await service.request('GET', `/api/v1/subjects/${anna}/sessions`, { headers: KEY });

  t.is(reply.status, 200, reply.text);
  t.is(reply.body['subjectId'], anna);
  const sessions = reply.body['sessions'] as { sessionId: string; state: string; events: { state: string }[] }[];
  t.deepEqual(
    sessions.map((session) => [session.sessionId, session.state, session.events.map((event) => event.state)]),
    [
      [first, 'GRANTED', ['CREATED', 'GRANTED']],
      [second, 'REVOKED', ['CREATED', 'REVOKED']],
    ],
  );
  t.false(reply.text.includes(binh), "nothing of another person's");
  t.false(reply.text.includes(others));
  t.false(reply.text.includes('device-ref'), 'no device pseudonym');
  t.false('deviceRef' in (sessions[0] ?? {}));
});

test("only a key with the copy scope reads a subject's sessions", async (t) => {
  const service = await bootSession(t, db);
  assertError(t, await service.request('GET', `/api/v1/subjects/${subject()}/sessions`, { headers: FEED_KEY }), 403, 'FORBIDDEN');
  assertError(t, await service.request('GET', `/api/v1/subjects/${subject()}/sessions`), 401, 'UNAUTHORIZED');
  assertError(t, await service.request('GET', '/api/v1/subjects/not-a-uuid/sessions', { headers: KEY }), 400, 'INVALID_REQUEST');
});
