import test from 'ava';
import type { Database } from '../../../services/kit/store/index.js';
import { assertError } from '../../helpers/error-shape.js';
import { startPostgres, type PostgresServer } from '../../helpers/postgres-server.js';
import { waitFor } from '../../helpers/wait-for.js';
import { bootSession, FEED_KEY, grantBody, openSessionDb, subject, TestClock, type SessionClient } from './session-service.js';

// The change feed the gateway follows, on PGlite and on a PostgreSQL server.
let server: PostgresServer;
// The databases are made before any test runs: CREATE DATABASE is a transaction that copies the
// template, seconds long on a loaded machine, and the feed holds back every change younger than
// a transaction still open anywhere on the server (another test's CREATE DATABASE included).
const databases: string[] = [];
test.before(async () => {
  server = await startPostgres();
  for (let i = 0; i < 5; i += 1) databases.push(await server.createDatabase());
});
const database = () => {
  const url = databases.pop();
  if (url === undefined) throw new Error('add a database to test.before');
  return url;
};
test.after.always(() => server?.stop());

interface Change {
  cursor: string;
  sessionId: string;
  state: string;
  reason: string | null;
}

async function changes(service: SessionClient, after?: string): Promise<{ changes: Change[]; next: string }> {
  const answer = await service.request('GET', `/api/v1/sessions/changes${after === undefined ? '' : `?after=${after}`}`, { headers: FEED_KEY });
  if (answer.status !== 200) throw new Error(answer.text);
  return answer.body as unknown as { changes: Change[]; next: string };
}

// On a PostgreSQL server the feed waits for every older transaction of the whole server (other
// tests' databases included), so a change shows up once those end: tests wait for it. The tests of
// this file run one at a time: one of them holds a transaction open on purpose, which held the
// others' feeds back past their wait on a loaded machine.
const settled = (service: SessionClient, count: number, after?: string) =>
  waitFor(
    () => changes(service, after),
    (page) => page.changes.length >= count,
    { timeoutMs: 10_000 },
  );

async function granted(service: SessionClient, clock: TestClock): Promise<string> {
  const created = await service.create({ subjectId: subject(), deviceRef: 'dev-feed' });
  const sessionId = String(created.body['sessionId']);
  await service.grant(sessionId, grantBody(clock));
  return sessionId;
}

for (const backend of ['memory', 'postgres'] as const) {
  const open = async (): Promise<Database> => openSessionDb(backend, backend === 'postgres' ? database() : undefined);

  test.serial(`${backend}: the feed hands out create, grant and revoke in order, then nothing after its cursor`, async (t) => {
    const db = await open();
    t.teardown(() => db.close());
    const clock = new TestClock();
    const service = await bootSession(t, db, clock);
    const sessionId = await granted(service, clock);
    await service.revoke(sessionId);
    const page = await settled(service, 3);
    t.deepEqual(
      page.changes.map((c) => [c.sessionId, c.state, c.reason]),
      [
        [sessionId, 'CREATED', null],
        [sessionId, 'GRANTED', null],
        [sessionId, 'REVOKED', 'REVOKED'],
      ],
    );
    t.is(page.next, page.changes[2]!.cursor);
    t.deepEqual((await changes(service, page.next)).changes, []);
    t.is((await changes(service, page.next)).next, page.next);
    const later = await service.create({ subjectId: subject(), deviceRef: null });
    t.deepEqual(
      (await settled(service, 1, page.next)).changes.map((c) => c.sessionId),
      [String(later.body['sessionId'])],
    );
  });

  test.serial(`${backend}: an expiry nobody read still reaches the feed`, async (t) => {
    const db = await open();
    t.teardown(() => db.close());
    const clock = new TestClock();
    const service = await bootSession(t, db, clock);
    const sessionId = await granted(service, clock);
    const { next } = await settled(service, 2);
    clock.advance(3_600_001);
    t.deepEqual(
      (await settled(service, 1, next)).changes.map((c) => [c.sessionId, c.state, c.reason]),
      [[sessionId, 'EXPIRED', 'EXPIRES_AT_PASSED']],
    );
  });

  test.serial(`${backend}: limit pages through the feed`, async (t) => {
    const db = await open();
    t.teardown(() => db.close());
    const clock = new TestClock();
    const service = await bootSession(t, db, clock);
    await granted(service, clock);
    await settled(service, 2);
    const first = await service.request('GET', '/api/v1/sessions/changes?limit=1', { headers: FEED_KEY });
    t.is((first.body['changes'] as Change[]).length, 1);
    const rest = await changes(service, String(first.body['next']));
    t.deepEqual(
      rest.changes.map((c) => c.state),
      ['GRANTED'],
    );
  });
}

test.serial('postgres: a change whose transaction is still open holds back every later one until it commits', async (t) => {
  const db = await openSessionDb('postgres', database());
  t.teardown(() => db.close());
  const clock = new TestClock();
  const service = await bootSession(t, db, clock);
  const held = String((await service.create({ subjectId: subject(), deviceRef: null })).body['sessionId']);
  const { next } = await settled(service, 1);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  // Teardowns run last-registered first: a failed assertion below must not leave the transaction
  // open while the database closes (the test would time out instead of failing).
  t.teardown(() => release());
  let inserted!: () => void;
  const insertedGate = new Promise<void>((resolve) => (inserted = resolve));
  // An open transaction draws an event id first, then a later one commits a higher id.
  const slow = db.transaction(async (tx) => {
    await tx.query(`INSERT INTO session_events (session_id, at, from_state, to_state) VALUES ($1, now(), 'CREATED', 'REVOKED')`, [held]);
    inserted();
    await gate;
  });
  await insertedGate;
  const quick = await service.create({ subjectId: subject(), deviceRef: null });
  t.deepEqual((await changes(service, next)).changes, [], 'nothing passes the open transaction');
  release();
  await slow;
  const after = await settled(service, 2, next);
  t.deepEqual(
    after.changes.map((c) => c.sessionId),
    [held, String(quick.body['sessionId'])],
  );
});

test('a malformed cursor or limit is a 400, a missing key a 401', async (t) => {
  const db = await openSessionDb('memory');
  t.teardown(() => db.close());
  const service = await bootSession(t, db);
  assertError(t, await service.request('GET', '/api/v1/sessions/changes?after=abc', { headers: FEED_KEY }), 400, 'INVALID_REQUEST');
  assertError(t, await service.request('GET', '/api/v1/sessions/changes?limit=0', { headers: FEED_KEY }), 400, 'INVALID_REQUEST');
  assertError(t, await service.request('GET', '/api/v1/sessions/changes'), 401, 'UNAUTHORIZED');
});
