import test, { type ExecutionContext } from 'ava';
import { awaitChanges, FEED_START } from '../../../services/session/change-feed.js';
import { createFeedWake, type FeedWake } from '../../../services/session/feed-wake.js';
import type { Database } from '../../../services/kit/store/index.js';
import { startPostgres, type PostgresServer } from '../../helpers/postgres-server.js';
import { waitFor } from '../../helpers/wait-for.js';
import { bootSession, FEED_KEY, grantBody, openSessionDb, subject, TestClock, type SessionClient } from './session-service.js';
import { countingStatements as counting } from '../../helpers/databases.js';

// The change feed wakes its followers (LISTEN/NOTIFY) instead of being polled. A held
// read (waitSeconds) answers as soon as a change commits, by any instance of the service, or when
// the next session expires; it is answered at once when the service stops. Each test holds a read
// for HELD_MS and expects it answered well before: a wake that did not come shows as a read that
// ran its whole wait.
const HELD_MS = 30_000;
const WOKEN_WITHIN_MS = 10_000;

let server: PostgresServer;
const databases: string[] = [];
test.before(async () => {
  server = await startPostgres();
  for (let i = 0; i < 3; i += 1) databases.push(await server.createDatabase());
});
test.after.always(() => server?.stop());
const database = () => {
  const url = databases.pop();
  if (url === undefined) throw new Error('add a database to test.before');
  return url;
};

/** Starts a held read and answers once it waits (in an object: an async function would wait for the read itself). */
async function held(db: Database, wake: FeedWake, after: string, clock = new TestClock()) {
  const started = Date.now();
  const reading = awaitChanges(db, wake, {
    after,
    limit: 100,
    waitMs: HELD_MS,
    now: clock.now,
    correlationId: 'test',
    signal: new AbortController().signal,
  }).then((page) => ({ ...page, tookMs: Date.now() - started }));
  await waitFor(
    () => wake.waiting(),
    (n) => n === 1,
    { timeoutMs: 10_000 },
  );
  return { reading };
}

async function cursorNow(db: Database, wake: FeedWake): Promise<string> {
  return (
    await awaitChanges(db, wake, {
      after: FEED_START,
      limit: 500,
      waitMs: 0,
      now: () => new Date(),
      correlationId: 'test',
      signal: new AbortController().signal,
    })
  ).next;
}

/** A session service on its own PostgreSQL database, its feed's wake, and the feed's cursor now. */
async function postgresFeed(t: ExecutionContext) {
  const url = database();
  const db = await openSessionDb('postgres', url);
  t.teardown(() => db.close());
  const service = await bootSession(t, db);
  const wake = await createFeedWake(db);
  t.teardown(() => wake.close());
  return { url, db, service, wake, after: await cursorNow(db, wake) };
}

for (const backend of ['memory', 'postgres'] as const) {
  test.serial(`${backend}: a held read of the feed is answered as soon as a change commits, by any instance`, async (t) => {
    const url = backend === 'postgres' ? database() : undefined;
    const db = await openSessionDb(backend, url);
    t.teardown(() => db.close());
    // The writer: another instance of the service (on PostgreSQL, with its own connections).
    const other = backend === 'postgres' ? await openSessionDb(backend, url) : db;
    if (other !== db) t.teardown(() => other.close());
    const writer: SessionClient = await bootSession(t, other);
    const wake = await createFeedWake(db);
    t.teardown(() => wake.close());
    const after = await cursorNow(db, wake);
    const { reading } = await held(db, wake, after);
    const created = await writer.create({ subjectId: subject(), deviceRef: null });
    const page = await reading;
    t.deepEqual(
      page.changes.map((c) => [c.sessionId, c.state]),
      [[String(created.body['sessionId']), 'CREATED']],
    );
    t.true(page.tookMs < WOKEN_WITHIN_MS, `answered after ${page.tookMs} ms: the commit did not wake the read`);
  });
}

test.serial('memory: a held read is answered when the next granted session expires', async (t) => {
  const db = await openSessionDb('memory');
  t.teardown(() => db.close());
  const clock = new TestClock(new Date());
  clock.now = () => new Date();
  const service = await bootSession(t, db, clock);
  const wake = await createFeedWake(db);
  t.teardown(() => wake.close());
  // The cursor before the session: on a slow machine the expiry may pass before a later cursor is taken.
  let after = await cursorNow(db, wake);
  const sessionId = String((await service.create({ subjectId: subject(), deviceRef: null })).body['sessionId']);
  t.is((await service.grant(sessionId, grantBody(clock, { validUntil: new Date(Date.now() + 1500).toISOString() }))).status, 200);
  // Held reads from there: the creation and the grant first, then the expiry, which no commit announces.
  for (;;) {
    const started = Date.now();
    const page = await awaitChanges(db, wake, {
      after,
      limit: 100,
      waitMs: HELD_MS,
      now: clock.now,
      correlationId: 'test',
      signal: new AbortController().signal,
    });
    const tookMs = Date.now() - started;
    t.true(tookMs < WOKEN_WITHIN_MS, `answered after ${tookMs} ms: the expiry did not wake the read`);
    if (page.changes.length === 0) return;
    after = page.next;
    const expired = page.changes.find((c) => c.state === 'EXPIRED');
    if (expired !== undefined) {
      t.deepEqual([expired.sessionId, expired.reason], [sessionId, 'EXPIRES_AT_PASSED']);
      return;
    }
  }
});

test.serial('postgres: a held read still gets its change when the listening connection is cut, and listening resumes', async (t) => {
  const { db, service, wake, after } = await postgresFeed(t);
  const { reading } = await held(db, wake, after);
  const cut = await db.query<{ cut: boolean }>(
    `SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity WHERE query = 'LISTEN session_events' AND datname = current_database()`,
  );
  t.true(cut.length >= 1, 'a listening connection was found and cut');
  const created = await service.create({ subjectId: subject(), deviceRef: null });
  const page = await reading;
  t.deepEqual(
    page.changes.map((c) => c.sessionId),
    [String(created.body['sessionId'])],
  );
  t.true(page.tookMs < WOKEN_WITHIN_MS, `answered after ${page.tookMs} ms`);
  // Listening again: a later change wakes a later read at once.
  await waitFor(
    () => db.query(`SELECT 1 FROM pg_stat_activity WHERE query = 'LISTEN session_events' AND datname = current_database()`),
    (rows) => rows.length >= 2,
    { timeoutMs: 10_000 },
  );
  const again = (await held(db, wake, page.next)).reading;
  const later = await service.create({ subjectId: subject(), deviceRef: null });
  t.deepEqual(
    (await again).changes.map((c) => c.sessionId),
    [String(later.body['sessionId'])],
  );
});

test.serial('a held read is answered at once, empty, when the service stops', async (t) => {
  const db = await openSessionDb('memory');
  t.teardown(() => db.close());
  const wake = await createFeedWake(db);
  t.teardown(() => wake.close());
  const { reading } = await held(db, wake, await cursorNow(db, wake));
  wake.drain();
  const page = await reading;
  t.deepEqual(page.changes, []);
  t.true(page.tookMs < WOKEN_WITHIN_MS, `answered after ${page.tookMs} ms`);
});

test.serial('the feed route holds an empty read up to waitSeconds and refuses a longer wait', async (t) => {
  const db = await openSessionDb('memory');
  t.teardown(() => db.close());
  const service = await bootSession(t, db);
  const first = await service.request('GET', '/api/v1/sessions/changes', { headers: FEED_KEY });
  const next = String(first.body['next']);
  const reading = service.request('GET', `/api/v1/sessions/changes?after=${next}&waitSeconds=30`, { headers: FEED_KEY });
  const created = (await service.create({ subjectId: subject(), deviceRef: null })).body;
  const answer = await reading;
  t.is(answer.status, 200);
  t.true((answer.body['changes'] as { sessionId: string }[]).some((c) => c.sessionId === String(created['sessionId'])));
  t.is((await service.request('GET', '/api/v1/sessions/changes?waitSeconds=296', { headers: FEED_KEY })).status, 400);
});

test.serial(
  'memory: a held read at a cursor where nothing happened since the last one runs no statement; a change or a due expiry makes it read',
  async (t) => {
    const plain = await openSessionDb('memory');
    t.teardown(() => plain.close());
    const db = counting(plain);
    const clock = new TestClock();
    const service = await bootSession(t, plain, clock);
    const wake = await createFeedWake(plain);
    t.teardown(() => wake.close());
    const sessionId = String((await service.create({ subjectId: subject(), deviceRef: null })).body['sessionId']);
    t.is((await service.grant(sessionId, grantBody(clock, { validUntil: new Date(clock.now().getTime() + 3_600_000).toISOString() }))).status, 200);
    // A held read, ended by its reader once it waits (what is asserted is what the next read costs).
    const read = async (after: string) => {
      const reader = new AbortController();
      let answered = false;
      const reading = awaitChanges(db, wake, { after, limit: 100, waitMs: HELD_MS, now: clock.now, correlationId: 'test', signal: reader.signal }).finally(
        () => (answered = true),
      );
      await waitFor(
        async () => answered || wake.waiting() === 1,
        (ready) => ready,
        { timeoutMs: 10_000 },
      );
      reader.abort();
      return reading;
    };
    const after = (await read(FEED_START)).next;
    t.deepEqual((await read(after)).changes, []);
    const before = db.statements();
    t.deepEqual((await read(after)).changes, []);
    t.deepEqual((await read(after)).changes, []);
    t.is(db.statements() - before, 0, 'nothing was notified since: the feed is not read again');

    const created = String((await service.create({ subjectId: subject(), deviceRef: null })).body['sessionId']);
    const page = await read(after);
    t.deepEqual(
      page.changes.map((c) => [c.sessionId, c.state]),
      [[created, 'CREATED']],
      'a change notified since is read',
    );
    t.deepEqual((await read(page.next)).changes, []);

    clock.advance(3_600_000);
    const expired = await read(page.next);
    t.deepEqual(
      expired.changes.map((c) => [c.sessionId, c.state]),
      [[sessionId, 'EXPIRED']],
      'an expiry that fell due is read, though nothing was notified',
    );
  },
);

test.serial('postgres: a change held back by a running transaction when the read looked is answered once that transaction ends', async (t) => {
  const { url, db, service, wake, after } = await postgresFeed(t);
  // An older transaction still running (it holds an id), then a change committed and heard.
  const other = await openSessionDb('postgres', url);
  t.teardown(() => other.close());
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const holding = other.transaction(async (tx) => {
    await tx.query('SELECT pg_current_xact_id()');
    await finished;
  });
  await waitFor(
    () => db.query(`SELECT 1 FROM pg_stat_activity WHERE query = 'SELECT pg_current_xact_id()' AND datname = current_database()`),
    (rows) => rows.length === 1,
    { timeoutMs: 10_000 },
  );
  const heard = wake.mark();
  const created = String((await service.create({ subjectId: subject(), deviceRef: null })).body['sessionId']);
  await waitFor(
    async () => wake.mark(),
    (mark) => mark !== heard,
    { timeoutMs: 10_000 },
  );
  // The read looks after the notification: the change is there but not shown yet.
  const { reading } = await held(db, wake, after);
  finish();
  await holding;
  const page = await reading;
  t.deepEqual(
    page.changes.map((c) => c.sessionId),
    [created],
  );
  t.true(page.tookMs < WOKEN_WITHIN_MS, `answered after ${page.tookMs} ms: the read waited for a notification that never came`);
});
