import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startPostgres, type PostgresServer } from '../../helpers/postgres-server.js';
import { startServiceProcess } from '../../helpers/process.js';
import { bootSession, grantBody, KEY, openSessionDb, subject, TestClock } from './session-service.js';

// Concurrency is decided by the database: the same outcomes in one process on PGlite, in one
// process on PostgreSQL, and across two processes on one PostgreSQL.
let server: PostgresServer;
test.before(async () => {
  server = await startPostgres();
});
test.after.always(() => server?.stop());

interface Caller {
  create(body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }>;
  grant(id: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }>;
  read(id: string): Promise<{ status: number; body: Record<string, unknown> }>;
}

async function call(url: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url + path, {
    method,
    headers: { ...KEY, 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Spreads calls round-robin over the given base URLs. */
function overHttp(urls: string[]): Caller {
  let next = 0;
  const pick = () => urls[(next += 1) % urls.length] ?? '';
  return {
    create: (body, headers) => call(pick(), 'POST', '/api/v1/sessions', body, headers),
    grant: (id, body) => call(pick(), 'POST', `/api/v1/sessions/${id}/grant`, body),
    read: (id) => call(pick(), 'GET', `/api/v1/sessions/${id}`),
  };
}

async function twentyCreatesOneKey(t: import('ava').ExecutionContext, caller: Caller) {
  const key = `key-${subject()}`;
  const body = { subjectId: subject(), deviceRef: 'dev-1' };
  const answers = await Promise.all(Array.from({ length: 20 }, () => caller.create(body, { 'Idempotency-Key': key })));
  t.deepEqual(answers.map((a) => a.status).sort(), [200, ...Array<number>(18).fill(200), 201].sort());
  t.is(new Set(answers.map((a) => a.body['sessionId'])).size, 1);
}

async function tenGrantsTwoSlots(t: import('ava').ExecutionContext, caller: Caller) {
  const clock = new TestClock(new Date());
  const subjectId = subject();
  const ids = await Promise.all(
    Array.from({ length: 10 }, async (_, i) => String((await caller.create({ subjectId, deviceRef: `dev-${i}` })).body['sessionId'])),
  );
  const grants = await Promise.all(ids.map((id) => caller.grant(id, grantBody(clock, { deviceSlots: 2 }))));
  t.true(grants.every((g) => g.status === 200));
  const states = await Promise.all(ids.map(async (id) => (await caller.read(id)).body['state']));
  t.is(states.filter((s) => s === 'GRANTED').length, 2);
  t.is(states.filter((s) => s === 'REVOKED').length, 8);
}

for (const backend of ['memory', 'postgres'] as const) {
  const label = backend === 'memory' ? 'PGlite' : 'a PostgreSQL server';
  test(`one process on ${label}: 20 parallel creates with one Idempotency-Key make one session`, async (t) => {
    const db = await openSessionDb(backend, backend === 'postgres' ? await server.createDatabase() : undefined);
    t.teardown(() => db.close());
    await twentyCreatesOneKey(t, await bootSession(t, db));
    t.deepEqual(await db.query('SELECT count(*)::int AS n FROM sessions'), [{ n: 1 }]);
  });

  test(`one process on ${label}: 10 parallel grants for a two-slot subject leave exactly 2 GRANTED`, async (t) => {
    const db = await openSessionDb(backend, backend === 'postgres' ? await server.createDatabase() : undefined);
    t.teardown(() => db.close());
    await tenGrantsTwoSlots(t, await bootSession(t, db, new TestClock(new Date())));
  });
}

test('two session processes on one PostgreSQL server keep one session per key and two slots', async (t) => {
  const env = { DATABASE_URL: await server.createDatabase() };
  const [a, b] = await Promise.all([
    freePort().then((port) => startServiceProcess('session', port, env)),
    freePort().then((port) => startServiceProcess('session', port, env)),
  ]);
  t.teardown(async () => {
    await a.stop();
    await b.stop();
  });
  const caller = overHttp([a.url, b.url]);
  await twentyCreatesOneKey(t, caller);
  await tenGrantsTwoSlots(t, caller);
});

for (const backend of ['pglite', 'postgres'] as const) {
  test(`a session process restarted on ${backend === 'pglite' ? 'a PGlite folder' : 'a PostgreSQL server'} loses nothing`, async (t) => {
    const env: Record<string, string> =
      backend === 'pglite' ? { DATA_DIR: mkdtempSync(join(tmpdir(), 'wifi-data-')) } : { DATABASE_URL: await server.createDatabase() };
    const port = await freePort();
    const first = await startServiceProcess('session', port, env);
    t.teardown(() => first.stop());
    const caller = overHttp([first.url]);
    const id = String((await caller.create({ subjectId: subject(), deviceRef: 'dev-restart' }, { 'Idempotency-Key': 'restart-key' })).body['sessionId']);
    const granted = await caller.grant(id, grantBody(new TestClock(new Date())));
    t.is(granted.status, 200);
    await first.stop();

    const second = await startServiceProcess('session', port, env);
    t.teardown(() => second.stop());
    const after = overHttp([second.url]);
    const read = await after.read(id);
    t.deepEqual({ ...read.body, replayed: false }, { ...granted.body, replayed: false });
    const replay = await after.create({ subjectId: String(granted.body['subjectId']), deviceRef: 'dev-restart' }, { 'Idempotency-Key': 'restart-key' });
    t.is(replay.status, 200);
    t.is(replay.body['sessionId'], id);
  });
}

for (const backend of ['memory', 'postgres'] as const) {
  test(`${backend === 'memory' ? 'PGlite' : 'a PostgreSQL server'}: 10 parallel reads of a session past expiresAt all read EXPIRED, recorded once`, async (t) => {
    const db = await openSessionDb(backend, backend === 'postgres' ? await server.createDatabase() : undefined);
    t.teardown(() => db.close());
    const clock = new TestClock(new Date());
    const service = await bootSession(t, db, clock);
    const id = String((await service.create({ subjectId: subject(), deviceRef: 'dev-due' })).body['sessionId']);
    t.is((await service.grant(id, grantBody(clock, { validUntil: new Date(clock.now().getTime() + 1000).toISOString() }))).status, 200);
    clock.advance(2000);
    const reads = await Promise.all(Array.from({ length: 10 }, () => service.read(id)));
    t.deepEqual(
      reads.map((read) => read.body['state']),
      Array<string>(10).fill('EXPIRED'),
    );
    t.deepEqual(await db.query("SELECT count(*)::int AS n FROM session_events WHERE session_id = $1 AND to_state = 'EXPIRED'", [id]), [{ n: 1 }]);
  });
}
