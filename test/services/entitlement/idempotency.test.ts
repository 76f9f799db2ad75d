import test, { type ExecutionContext } from 'ava';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertError } from '../../helpers/error-shape.js';
import { freePort, startPostgres, type PostgresServer } from '../../helpers/postgres-server.js';
import { startServiceProcess } from '../../helpers/process.js';
import { waitFor } from '../../helpers/wait-for.js';
import { bootEntitlement, customerClaims, decisionService, ISSUER, KeySet, openEntitlementDb } from './harness.js';

// Spec 4.3 rule 3 and the IETF Idempotency-Key draft, decided by the database.
let server: PostgresServer;
let keys: KeySet;
let decision: { url: string; close(): Promise<void> };
test.before(async () => {
  server = await startPostgres();
  keys = await KeySet.start(undefined);
  decision = await decisionService();
});
test.after.always(async () => {
  await server?.stop();
  await keys?.server?.close();
  await decision?.close();
});

// A generous decision budget: twenty requests at once on a busy two-core machine must not time out.
const env = () => ({ IDP_JWKS_URL: keys.url, DECISION_URL: decision.url, LOYALTY_URL: '', DECISION_TIMEOUT_MS: '15000' });

async function twentyWithOneKey(t: ExecutionContext, urls: string[], count: (subjectId: string) => Promise<number>, logs: () => string[] = () => []) {
  const claims = customerClaims();
  const token = await keys.token(claims);
  const key = `key-${randomUUID()}`;
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      fetch(`${urls[i % urls.length]}/api/v1/entitlements/evaluate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'Idempotency-Key': key },
        body: JSON.stringify({ subjectId: claims.sub }),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> })),
    ),
  );
  t.is(answers.filter((a) => a.status === 201).length, 1, JSON.stringify(answers.map((a) => a.status)));
  // The rule is one entitlement per key. The decision service failing a request under load (a
  // CI run saw one of twenty) is answered 503 DMN_UNAVAILABLE with the key released, which is
  // the fail-closed answer, not a second entitlement: it may be among the answers, nothing else.
  const failedClosed = (a: { status: number; body: Record<string, unknown> }) => a.status === 503 && a.body['code'] === 'DMN_UNAVAILABLE';
  t.true(
    answers.every((a) => [200, 201, 409].includes(a.status) || failedClosed(a)),
    // An unexpected answer names itself and what the service logged at warn level or above.
    `${JSON.stringify(answers.map((a) => a.body['code'] ?? a.status))} ${logs()
      .filter((line) => /"level":(40|50|60)/.test(line))
      .join('\n')}`,
  );
  const ids = new Set(answers.filter((a) => a.status === 200 || a.status === 201).map((a) => a.body['entitlementId']));
  t.is(ids.size, 1);
  t.is(await count(claims.sub), 1);
  // Once settled, the same key replays the original.
  const later = await fetch(`${urls[0]}/api/v1/entitlements/evaluate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'Idempotency-Key': key },
    body: '{}',
  });
  const body = (await later.json()) as Record<string, unknown>;
  t.is(later.status, 200);
  t.true(body['replayed'] as boolean);
  t.true(ids.has(body['entitlementId']));
}

for (const backend of ['memory', 'postgres'] as const) {
  test(`one process on ${backend === 'memory' ? 'PGlite' : 'a PostgreSQL server'}: 20 parallel evaluates with one key make one entitlement`, async (t) => {
    const db = await openEntitlementDb(backend, backend === 'postgres' ? await server.createDatabase() : undefined);
    t.teardown(() => db.close());
    const service = await bootEntitlement(t, db, env());
    await twentyWithOneKey(
      t,
      [service.url],
      async (subject) => Number((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM entitlements WHERE subject_id = $1', [subject]))[0]?.n ?? 0),
      () => service.lines,
    );
  });
}

test('the same key with another subject is 422; the same subject and session replays without a key', async (t) => {
  const db = await openEntitlementDb('memory');
  t.teardown(() => db.close());
  const service = await bootEntitlement(t, db, env());
  const first = customerClaims();
  t.is((await service.evaluate(await keys.token(first), {}, { 'Idempotency-Key': 'shared-key' })).status, 201);
  assertError(t, await service.evaluate(await keys.token(customerClaims()), {}, { 'Idempotency-Key': 'shared-key' }), 422, 'IDEMPOTENCY_KEY_REUSED');
  assertError(
    t,
    await service.evaluate(await keys.token(first), { sessionId: 'sess-other' }, { 'Idempotency-Key': 'shared-key' }),
    422,
    'IDEMPOTENCY_KEY_REUSED',
  );
  const token = await keys.token(first);
  const original = await service.evaluate(token, { sessionId: 'sess-1' });
  t.is(original.status, 201);
  const replay = await service.evaluate(token, { sessionId: 'sess-1' });
  t.is(replay.status, 200);
  t.is(replay.body['entitlementId'], original.body['entitlementId']);
  t.true(replay.body['replayed'] as boolean);
});

test('a denial replays as the same denial for the same key', async (t) => {
  const db = await openEntitlementDb('memory');
  t.teardown(() => db.close());
  const service = await bootEntitlement(t, db, env());
  const token = await keys.token({ ...customerClaims(), user_type: 'ROBOT' });
  for (let i = 0; i < 2; i++) {
    const reply = await service.evaluate(token, {}, { 'Idempotency-Key': 'denied-key' });
    assertError(t, reply, 403, 'ENTITLEMENT_DENIED');
    t.is(reply.body['reason'], 'UNKNOWN_USER_TYPE');
  }
});

test('two entitlement processes on one PostgreSQL server make one entitlement per key', async (t) => {
  const processEnv = { ...env(), IDP_ISSUER: ISSUER, JWKS_COOLDOWN_MS: '0', DATABASE_URL: await server.createDatabase() };
  const [a, b] = await Promise.all([
    freePort().then((port) => startServiceProcess('entitlement', port, processEnv)),
    freePort().then((port) => startServiceProcess('entitlement', port, processEnv)),
  ]);
  t.teardown(async () => {
    await a.stop();
    await b.stop();
  });
  const db = await openEntitlementDb('postgres', processEnv.DATABASE_URL);
  t.teardown(() => db.close());
  // Each process fetches the key set at its first token; on a loaded machine that first fetch can
  // outlast its timeout (401, fail closed), which is not what this test is about: one signed-in
  // evaluate per process first, another subject, no key.
  for (const url of [a.url, b.url]) {
    const claims = customerClaims();
    const token = await keys.token(claims);
    await waitFor(
      () =>
        fetch(`${url}/api/v1/entitlements/evaluate`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: '{}',
        }).then((r) => r.status),
      (status) => status === 201,
      { timeoutMs: 30_000, intervalMs: 200 },
    );
  }
  await twentyWithOneKey(t, [a.url, b.url], async (subject) =>
    Number((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM entitlements WHERE subject_id = $1', [subject]))[0]?.n ?? 0),
  );
});

test('an entitlement process restarted on its PGlite folder loses nothing', async (t) => {
  const processEnv = { ...env(), IDP_ISSUER: ISSUER, JWKS_COOLDOWN_MS: '0', DATA_DIR: mkdtempSync(join(tmpdir(), 'wifi-ent-')) };
  const port = await freePort();
  const claims = customerClaims();
  const token = await keys.token(claims);
  const first = await startServiceProcess('entitlement', port, processEnv);
  t.teardown(() => first.stop());
  const created = await fetch(`${first.url}/api/v1/entitlements/evaluate`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  const body = (await created.json()) as Record<string, unknown>;
  t.is(created.status, 201);
  await first.stop();
  const second = await startServiceProcess('entitlement', port, processEnv);
  t.teardown(() => second.stop());
  const read = await fetch(`${second.url}/api/v1/entitlements/${String(body['entitlementId'])}`, { headers: { authorization: `Bearer ${token}` } });
  t.is(read.status, 200);
  t.like(await read.json(), { entitlementId: body['entitlementId'], subjectId: claims.sub });
});
