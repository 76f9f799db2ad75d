import { randomUUID } from 'node:crypto';
import test from 'ava';
import { putCompany } from './contract/companies-contract.js';
import { signedHeaders } from './contract/webhook-signing.js';
import { memoryRealm, type MemoryRealm } from './memory-admin-host.js';
import { memoryDriver } from './memory-driver.js';

const SECRET = 'memory-webhook-secret-0123456789';

async function setup() {
  const d = memoryDriver();
  await putCompany(d, 'MEM-CO', { name: 'Memory', secret: SECRET });
  const post = (body: unknown, eventId: string = randomUUID()) => {
    const raw = Buffer.from(JSON.stringify(body));
    return d.send({ method: 'POST', path: '/webhook/MEM-CO', body: raw, headers: signedHeaders(SECRET, raw, Math.floor(d.nowMs() / 1000), eventId) });
  };
  return { d, post };
}

for (const type of ['EMPLOYEE_TERMINATED', 'EMPLOYEE_SUSPENDED']) {
  test(`${type} ends the employee's sessions: Keycloak's, and the network's through the session service`, async (t) => {
    const { d, post } = await setup();
    const id = await d.createEmployee('REF-S', 'MEM_CO');
    t.is(d.realm.sessions.get(id), 1);
    await post({ type, employeeRef: 'REF-S' });
    t.is(d.realm.sessions.get(id), 0);
    t.deepEqual(d.realm.sessionCalls, [{ path: `/api/v1/subjects/${id}/revoke`, body: JSON.stringify({ reason: type }) }]);
  });
}

for (const type of ['EMPLOYEE_REINSTATED', 'EMPLOYEE_COMPANY_CHANGED']) {
  test(`${type} leaves the network sessions alone`, async (t) => {
    const { d, post } = await setup();
    await d.createEmployee('REF-K', 'MEM_CO');
    t.like(await post({ type, employeeRef: 'REF-K', company: 'MEM-CO' }), { body: { result: 'APPLIED' } });
    t.deepEqual(d.realm.sessionCalls, []);
  });
}

test('with the session service down a termination still applies, is tried twice, and the event log says the network sessions end only at their expiry', async (t) => {
  const { d, post } = await setup();
  d.realm.http.postToSessions = () => ({ failure: 'timeout' });
  const id = await d.createEmployee('REF-D', 'MEM_CO');
  t.like(await post({ type: 'EMPLOYEE_TERMINATED', employeeRef: 'REF-D' }), {
    status: 200,
    body: { result: 'APPLIED', detail: 'EMPLOYEE_TERMINATED applied' },
  });
  t.false(d.realm.users.get(id)!.enabled);
  t.is(d.realm.sessionCalls.length, 2);
  const reply = await d.send({ method: 'GET', path: '/api/events', token: d.tokens.operator, query: { limit: '1' } });
  const [entry] = (reply.body as { events: { outcome: string; detail: string }[] }).events;
  t.is(entry?.outcome, 'APPLIED');
  t.regex(entry?.detail ?? '', /network sessions could not be ended \(session service: timeout\); they end at their expiry/);
});

test('an event that failed while being applied is not remembered: the retry applies it', async (t) => {
  const { d, post } = await setup();
  const id = await d.createEmployee('REF-F', 'MEM_CO');
  const user = d.realm.users.get(id)!;
  let failures = 1;
  d.realm.users.set(
    id,
    new Proxy(user, {
      set(target, property, value) {
        if (property === 'enabled' && failures-- > 0) throw new Error('user store unavailable');
        return Reflect.set(target, property, value);
      },
    }),
  );
  const eventId = randomUUID();
  const failed = await post({ type: 'EMPLOYEE_SUSPENDED', employeeRef: 'REF-F' }, eventId);
  t.is(failed.status, 500);
  t.true(d.realm.users.get(id)!.enabled, 'nothing applied');
  t.like(await post({ type: 'EMPLOYEE_SUSPENDED', employeeRef: 'REF-F' }, eventId), { status: 200, body: { result: 'APPLIED' } });
  t.false(d.realm.users.get(id)!.enabled);
  t.like(await post({ type: 'EMPLOYEE_SUSPENDED', employeeRef: 'REF-F' }, eventId), { status: 200, body: { result: 'DUPLICATE' } });
});

test('an event whose commit fails is not remembered: the retry applies it', async (t) => {
  const { d, post } = await setup();
  const id = await d.createEmployee('REF-C', 'MEM_CO');
  const eventId = randomUUID();
  d.realm.failingCommits = 1;
  t.is((await post({ type: 'EMPLOYEE_SUSPENDED', employeeRef: 'REF-C' }, eventId)).status, 500);
  d.realm.users.get(id)!.enabled = true; // what Keycloak's rollback leaves
  t.like(await post({ type: 'EMPLOYEE_SUSPENDED', employeeRef: 'REF-C' }, eventId), { status: 200, body: { result: 'APPLIED' } });
  t.false(d.realm.users.get(id)!.enabled);
  t.like(await post({ type: 'EMPLOYEE_SUSPENDED', employeeRef: 'REF-C' }, eventId), { status: 200, body: { result: 'DUPLICATE' } });
});

const MINUTE = 60_000;

// Replays are kept by time in Keycloak's cluster-wide store, not by count per node.
test('an event id is remembered for a day: a retry under a fresh signature is DUPLICATE, a day later it is judged again', async (t) => {
  const { d, post } = await setup();
  const id = randomUUID();
  t.like(await post({ type: 'PURCHASE', n: 1 }, id), { body: { result: 'RECORDED' } });
  d.realm.clockMs += 24 * 60 * MINUTE - MINUTE;
  t.like(await post({ type: 'PURCHASE', n: 2 }, id), { body: { result: 'DUPLICATE' } });
  d.realm.clockMs += 2 * MINUTE;
  t.like(await post({ type: 'PURCHASE', n: 3 }, id), { body: { result: 'RECORDED' } });
});

test('a signature is remembered for as long as its timestamp is accepted: one a full skew ahead is DUPLICATE ten minutes on, then STALE', async (t) => {
  const { d } = await setup();
  const raw = Buffer.from(JSON.stringify({ type: 'PURCHASE', n: 1 }));
  // Signed five minutes ahead of the server (the skew allows it): valid for the next ten minutes.
  const timestamp = Math.floor(d.nowMs() / 1000) + 5 * 60;
  const send = () => d.send({ method: 'POST', path: '/webhook/MEM-CO', body: raw, headers: signedHeaders(SECRET, raw, timestamp) });
  t.like(await send(), { body: { result: 'RECORDED' } });
  d.realm.clockMs += 10 * MINUTE - 1000;
  t.like(await send(), { body: { result: 'DUPLICATE' } }, 'the same bytes under a new event id, still within the skew');
  d.realm.clockMs += 2000;
  t.like(await send(), { status: 401, body: { result: 'REJECTED' } }, 'past the skew the timestamp refuses it');
});

// Two Keycloak nodes of one cluster: the same database (users, realm attributes) and the same
// single-use store, each its own node memory. What node 1 applied, node 2 knows as a replay.
test('a REINSTATED applied on node 1 and replayed to node 2 after a TERMINATED is DUPLICATE: the employee stays disabled', async (t) => {
  const node1 = memoryRealm();
  const node2: MemoryRealm = { ...node1, rings: new Map(), afterCommit: [], logs: [] };
  const d1 = memoryDriver(node1);
  const d2 = memoryDriver(node2);
  await putCompany(d1, 'MEM-CO', { name: 'Memory', secret: SECRET });
  const id = await d1.createEmployee('REF-N', 'MEM_CO');
  node1.users.get(id)!.enabled = false;
  const signed = (body: unknown) => {
    const raw = Buffer.from(JSON.stringify(body));
    return { body: raw, headers: signedHeaders(SECRET, raw, Math.floor(d1.nowMs() / 1000)) };
  };
  const reinstated = signed({ type: 'EMPLOYEE_REINSTATED', employeeRef: 'REF-N' });
  t.like(await d1.send({ method: 'POST', path: '/webhook/MEM-CO', ...reinstated }), { body: { result: 'APPLIED' } });
  t.like(await d1.send({ method: 'POST', path: '/webhook/MEM-CO', ...signed({ type: 'EMPLOYEE_TERMINATED', employeeRef: 'REF-N' }) }), {
    body: { result: 'APPLIED' },
  });
  t.like(await d2.send({ method: 'POST', path: '/webhook/MEM-CO', ...reinstated }), { status: 200, body: { result: 'DUPLICATE' } });
  const fresh = { ...reinstated, headers: { ...reinstated.headers, 'X-SVC-Event-Id': randomUUID() } };
  t.like(
    await d2.send({ method: 'POST', path: '/webhook/MEM-CO', ...fresh }),
    { status: 200, body: { result: 'DUPLICATE' } },
    'the same signature under a new event id',
  );
  t.false(node1.users.get(id)!.enabled);
});

// The harness switch that forces the apply's transaction to roll back.
test("harness on: X-Test-Force-Rollback with an operator token rolls the apply back (500), the sender's retry is APPLIED, then DUPLICATE", async (t) => {
  const { d } = await setup();
  d.realm.testHarness = true;
  const id = await d.createEmployee('REF-H', 'MEM_CO');
  const raw = Buffer.from(JSON.stringify({ type: 'EMPLOYEE_SUSPENDED', employeeRef: 'REF-H' }));
  const headers = signedHeaders(SECRET, raw, Math.floor(d.nowMs() / 1000));
  const forced = await d.send({
    method: 'POST',
    path: '/webhook/MEM-CO',
    body: raw,
    token: d.tokens.operator,
    headers: { ...headers, 'X-Test-Force-Rollback': 'true' },
  });
  t.like(forced, { status: 500, body: { code: 'INTERNAL_ERROR' } });
  d.realm.users.get(id)!.enabled = true; // what Keycloak's rollback leaves
  t.like(await d.send({ method: 'POST', path: '/webhook/MEM-CO', body: raw, headers }), { status: 200, body: { result: 'APPLIED' } });
  t.false(d.realm.users.get(id)!.enabled);
  t.like(await d.send({ method: 'POST', path: '/webhook/MEM-CO', body: raw, headers }), { status: 200, body: { result: 'DUPLICATE' } });
});

test("the rollback switch needs an operator's token when the harness is on, and is ignored when it is off", async (t) => {
  const { d } = await setup();
  const id = await d.createEmployee('REF-O', 'MEM_CO');
  const request = (type: string) => {
    const raw = Buffer.from(JSON.stringify({ type, employeeRef: 'REF-O' }));
    return {
      method: 'POST',
      path: '/webhook/MEM-CO',
      body: raw,
      headers: { ...signedHeaders(SECRET, raw, Math.floor(d.nowMs() / 1000)), 'X-Test-Force-Rollback': 'true' },
    };
  };
  t.like(await d.send(request('EMPLOYEE_SUSPENDED')), { status: 200, body: { result: 'APPLIED' } }, 'harness off: the header means nothing');
  t.false(d.realm.users.get(id)!.enabled);
  d.realm.testHarness = true;
  t.like(await d.send(request('EMPLOYEE_REINSTATED')), { status: 401, body: { code: 'UNAUTHORIZED' } }, 'harness on, no token');
  t.like(
    await d.send({ ...request('EMPLOYEE_REINSTATED'), token: d.tokens.portal }),
    { status: 403, body: { code: 'FORBIDDEN' } },
    'harness on, not an operator',
  );
  t.false(d.realm.users.get(id)!.enabled, 'nothing applied');
});

test('the event log keeps the newest 200 entries', async (t) => {
  const { d, post } = await setup();
  for (let i = 0; i < 205; i++) await post({ type: `T${i}` });
  const reply = await d.send({ method: 'GET', path: '/api/events', token: d.tokens.operator, query: { limit: '200' } });
  const events = (reply.body as { events: { type: string }[] }).events;
  t.is(events.length, 200);
  t.is(events[0]!.type, 'T204');
  t.is(events[199]!.type, 'T5');
});

test('refusals are kept apart from handled events, 10 a minute, and the events answer shows both newest first', async (t) => {
  const { d, post } = await setup();
  t.like(await post({ type: 'PURCHASE' }), { body: { result: 'RECORDED' } });
  d.realm.clockMs += 1;
  const unsigned = { method: 'POST', path: '/webhook/MEM-CO', body: '{"type":"PURCHASE"}', headers: { 'Content-Type': 'application/json' } };
  for (let i = 0; i < 30; i += 1) await d.send(unsigned);
  const outcomes = (ring: string) => (d.realm.rings.get(ring) ?? []).map((entry) => (JSON.parse(entry) as { outcome: string }).outcome);
  t.deepEqual(outcomes('event-log'), ['RECORDED']);
  t.is(outcomes('event-log-rejected').length, 10);
  d.realm.clockMs += 61_000;
  await d.send(unsigned);
  t.is(outcomes('event-log-rejected').length, 11);
  const reply = await d.send({ method: 'GET', path: '/api/events', token: d.tokens.operator, query: { limit: '3' } });
  t.deepEqual(
    (reply.body as { events: { outcome: string }[] }).events.map((event) => event.outcome),
    ['REJECTED', 'REJECTED', 'REJECTED'],
  );
  const all = await d.send({ method: 'GET', path: '/api/events', token: d.tokens.operator, query: { limit: '200' } });
  t.is((all.body as { events: { outcome: string }[] }).events.at(-1)?.outcome, 'RECORDED');
});
