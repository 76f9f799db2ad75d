import { randomUUID } from 'node:crypto';
import test from 'ava';
import { putCompany } from './contract/companies-contract.js';
import { signedHeaders } from './contract/webhook-signing.js';
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
  t.like(await post({ type: 'EMPLOYEE_TERMINATED', employeeRef: 'REF-D' }), { status: 200, body: { result: 'APPLIED', detail: 'EMPLOYEE_TERMINATED applied' } });
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
  d.realm.users.set(id, new Proxy(user, {
    set(target, property, value) {
      if (property === 'enabled' && failures-- > 0) throw new Error('user store unavailable');
      return Reflect.set(target, property, value);
    },
  }));
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

test('an event id is remembered for the last 2000 ids and forgotten after', async (t) => {
  const { post } = await setup();
  const first = randomUUID();
  t.like(await post({ type: 'PURCHASE', n: -1 }, first), { body: { result: 'RECORDED' } });
  for (let i = 0; i < 1999; i++) await post({ type: 'PURCHASE', n: i });
  t.like(await post({ type: 'PURCHASE', n: -2 }, first), { body: { result: 'DUPLICATE' } });
  const second = randomUUID();
  await post({ type: 'PURCHASE', n: -3 }, second);
  for (let i = 0; i < 2000; i++) await post({ type: 'PURCHASE', n: 2000 + i });
  t.like(await post({ type: 'PURCHASE', n: -4 }, second), { body: { result: 'RECORDED' } });
});

test('a signature is remembered for the last 2000 events and forgotten after', async (t) => {
  const { post } = await setup();
  t.like(await post({ type: 'PURCHASE', n: -1 }), { body: { result: 'RECORDED' } });
  for (let i = 0; i < 1999; i++) await post({ type: 'PURCHASE', n: i });
  t.like(await post({ type: 'PURCHASE', n: -1 }), { body: { result: 'DUPLICATE' } });
  for (let i = 0; i < 2000; i++) await post({ type: 'PURCHASE', n: 2000 + i });
  t.like(await post({ type: 'PURCHASE', n: -1 }), { body: { result: 'RECORDED' } });
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
