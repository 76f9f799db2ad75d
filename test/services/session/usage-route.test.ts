import { randomUUID } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import type { Database } from '../../../services/kit/store/index.js';
import { bootSession, FEED_KEY, grantBody, KEY, openSessionDb, subject, TestClock } from './session-service.js';

// POST /api/v1/usage: the gateway service's accounting, as cumulative totals per connection,
// added to the allowance counters of the sessions' persons; a replay or a late report adds
// nothing, and the answer names the sessions whose person has nothing left.
let db: Database;
test.before(async () => {
  db = await openSessionDb('memory');
});
test.after.always(() => db?.close());

const MB = 2 ** 20;
const DAILY = { dataBytes: 10 * MB, timeSeconds: 3600, period: 'DAY' };

async function setup(t: ExecutionContext, clock = new TestClock(new Date('2026-11-27T10:00:00Z'))) {
  const service = await bootSession(t, db, clock);
  const subjectId = subject();
  const open = async (deviceRef: string, allowance: unknown = DAILY) => {
    const created = await service.create({ subjectId, deviceRef });
    const sessionId = String(created.body['sessionId']);
    const granted = await service.grant(sessionId, grantBody(clock, { allowance, deviceSlots: 4 }));
    t.is(granted.status, 200, granted.text);
    return sessionId;
  };
  const report = (reports: unknown[], headers: Record<string, string> = FEED_KEY) => service.request('POST', '/api/v1/usage', { json: { reports }, headers });
  const left = async (sessionId: string) => (await service.read(sessionId)).body['remaining'] as Record<string, unknown>;
  return { service, clock, open, report, left };
}

// Connection keys are the gateway's, unique for good: each run of a test has its own.
const run = randomUUID();
const usage = (connectionKey: string, sessionId: string, at: Date, octets: number, sessionTime: number) => ({
  connectionKey: `${connectionKey}-${sessionId}-${run}`,
  sessionId,
  at: at.toISOString(),
  octets,
  sessionTime,
});

test('usage of two devices of one person adds up; a replayed report adds nothing', async (t) => {
  const { open, report, left, clock } = await setup(t);
  const [a, b] = [await open('dev-a'), await open('dev-b')];
  const first = await report([usage('conn-a', a, clock.now(), 2 * MB, 600), usage('conn-b', b, clock.now(), MB, 300)]);
  t.is(first.status, 200, first.text);
  t.like(first.body, { counted: 2, refused: 0, ignored: 0, exhausted: [] });
  t.like(await left(a), { bytesRemaining: 7 * MB, secondsRemaining: 2700 });
  const replay = await report([usage('conn-a', a, clock.now(), 2 * MB, 600)]);
  t.like(replay.body, { counted: 1, exhausted: [] });
  t.like(await left(b), { bytesRemaining: 7 * MB, secondsRemaining: 2700 }, 'the replay counted once, on every session of the person');
});

test('a late report (an earlier event with smaller totals) adds nothing; a later one adds only what is new', async (t) => {
  const { open, report, left, clock } = await setup(t);
  const a = await open('dev-a');
  await report([usage('conn-a', a, clock.now(), 4 * MB, 900)]);
  await report([usage('conn-a', a, new Date(clock.now().getTime() - 300_000), 3 * MB, 600)]);
  t.like(await left(a), { bytesRemaining: 6 * MB, secondsRemaining: 2700 });
  await report([usage('conn-a', a, new Date(clock.now().getTime() + 300_000), 5 * MB, 1200)]);
  t.like(await left(a), { bytesRemaining: 5 * MB, secondsRemaining: 2400 });
});

test("the answer names the sessions whose person's allowance is used up, the person's other live sessions too; the next period restores it without any action", async (t) => {
  const { open, report, left, clock, service } = await setup(t, new TestClock(new Date('2026-11-27T23:30:00Z')));
  const [a, b, c] = [await open('dev-a'), await open('dev-b'), await open('dev-c')];
  t.is((await service.revoke(c)).status, 200);
  const used = await report([usage('conn-a', a, clock.now(), 10 * MB, 60)]);
  t.like(used.body, { counted: 1 });
  t.deepEqual(
    [...(used.body['exhausted'] as string[])],
    [a, b],
    "the reported session, and the person's other live one (a device that reports only at its end, as openNDS); not the revoked one",
  );
  t.like(await left(b), { bytesRemaining: 0, renewsAt: '2026-11-28T00:00:00.000Z' });
  clock.advance(3_600_000);
  t.like(await left(b), { bytesRemaining: 10 * MB, secondsRemaining: 3600 }, 'a new day');
  const next = await report([usage('conn-b', b, clock.now(), MB, 60)]);
  t.deepEqual(next.body['exhausted'], []);
});

test('counters going backwards or absurd are refused with nothing changed; unknown sessions and sessions without an allowance are ignored', async (t) => {
  const { open, report, left, clock } = await setup(t);
  const a = await open('dev-a');
  const free = await open('dev-free', null);
  await report([usage('conn-a', a, clock.now(), 2 * MB, 600)]);
  const answer = await report([
    usage('conn-a', a, new Date(clock.now().getTime() + 60_000), MB, 660),
    usage('conn-x', a, clock.now(), 2 ** 52, 10),
    usage('conn-f', free, clock.now(), MB, 60),
    usage('conn-u', 'sess-unknown', clock.now(), MB, 60),
  ]);
  t.like(answer.body, { counted: 0, refused: 2, ignored: 2, exhausted: [] });
  t.like(await left(a), { bytesRemaining: 8 * MB, secondsRemaining: 3000 });
});

test("only a key with the usage scope reports usage (the portal's has none); a malformed body is 400", async (t) => {
  const { open, report, clock } = await setup(t);
  const a = await open('dev-a');
  t.is((await report([usage('conn-a', a, clock.now(), MB, 60)], KEY)).status, 403);
  t.is((await report([{ connectionKey: 'conn-a', sessionId: a, octets: -1 }])).status, 400);
  t.is((await report([])).status, 400);
});
