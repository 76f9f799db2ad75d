import test from 'ava';
// Serial: several tests count the stored rows before and after.
import type { Database } from '../../../services/kit/store/index.js';
import { assertError } from '../../helpers/error-shape.js';
import { bootSession, grantBody, KEY, openSessionDb, subject, TestClock } from './session-service.js';

// Bad input is a 4xx in the spec 2.2 shape and writes nothing.
let db: Database;
test.before(async () => {
  db = await openSessionDb('memory');
});
test.after.always(() => db?.close());

const count = async () => Number((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM sessions'))[0]?.n);

const MAC_ADDRESSES = [
  '00:1a:2b:3c:4d:5e',
  '00:1A:2B:3C:4D:5E',
  '00-1a-2b-3c-4d-5e',
  'AA-BB-CC-DD-EE-FF',
  '001a.2b3c.4d5e',
  '001A.2B3C.4D5E',
  '001a2b3c4d5e',
  '001A2B3C4D5E',
  'phone-00:1a:2b:3c:4d:5e',
];

for (const mac of MAC_ADDRESSES) {
  test.serial(`a MAC address as deviceRef is refused with 400: ${mac}`, async (t) => {
    const service = await bootSession(t, db);
    const before = await count();
    const answer = await service.create({ subjectId: subject(), deviceRef: mac });
    assertError(t, answer, 400, 'INVALID_REQUEST');
    t.false(answer.text.includes(mac), 'the value is not echoed');
    t.is(await count(), before);
  });
}

test.serial('opaque handles are accepted as deviceRef, a UUID handle included', async (t) => {
  const service = await bootSession(t, db);
  for (const deviceRef of ['dev-3f2b8c1e-9d4a-4f6b-8e2a-1c3d5e7f9a0b', 'h_12345', 'portal.device.7']) {
    t.is((await service.create({ subjectId: subject(), deviceRef })).status, 201, deviceRef);
  }
});

const BAD_CREATES: [string, unknown][] = [
  ['no subjectId', { deviceRef: null }],
  ['a subjectId that is not a uuid', { subjectId: 'alice' }],
  ['a subjectId of the wrong type', { subjectId: 42 }],
  ['an unknown field', { subjectId: '3f2b8c1e-9d4a-4f6b-8e2a-1c3d5e7f9a0b', admin: true }],
  ['a deviceRef with spaces', { subjectId: '3f2b8c1e-9d4a-4f6b-8e2a-1c3d5e7f9a0b', deviceRef: 'my phone' }],
  ['a body that is an array', [1, 2]],
];
for (const [name, body] of BAD_CREATES) {
  test.serial(`create with ${name} is 400 and stores nothing`, async (t) => {
    const service = await bootSession(t, db);
    const before = await count();
    assertError(t, await service.create(body), 400, 'INVALID_REQUEST');
    t.is(await count(), before);
  });
}

test.serial('create with a body that is not JSON, or over the size limit, is 400 and stores nothing', async (t) => {
  const service = await bootSession(t, db);
  const before = await count();
  const headers = { ...KEY, 'content-type': 'application/json' };
  assertError(t, await service.request('POST', '/api/v1/sessions', { raw: '{"subjectId":', headers }), 400, 'INVALID_REQUEST');
  const huge = JSON.stringify({ subjectId: subject(), deviceRef: 'x'.repeat(64 * 1024) });
  assertError(t, await service.request('POST', '/api/v1/sessions', { raw: huge, headers }), 400, 'INVALID_REQUEST');
  t.is(await count(), before);
});

test.serial('a malformed Idempotency-Key is 400', async (t) => {
  const service = await bootSession(t, db);
  assertError(t, await service.create({ subjectId: subject() }, { 'Idempotency-Key': 'has space' }), 400, 'INVALID_REQUEST');
});

test.serial('session ids outside the path pattern are 400 on every route', async (t) => {
  const service = await bootSession(t, db);
  const clock = new TestClock();
  for (const id of ['sess_underscore', 'x'.repeat(65), 'sess%20space']) {
    assertError(t, await service.read(id), 400, 'INVALID_REQUEST');
    assertError(t, await service.grant(id, grantBody(clock)), 400, 'INVALID_REQUEST');
    assertError(t, await service.revoke(id), 400, 'INVALID_REQUEST');
  }
});

test.serial('every route needs the API key: 401 without it or with a wrong one', async (t) => {
  const service = await bootSession(t, db);
  const created = await service.create({ subjectId: subject() });
  const id = String(created.body['sessionId']);
  for (const headers of [{}, { 'X-API-Key': 'wrong-key-value' }] as Record<string, string>[]) {
    assertError(t, await service.request('POST', '/api/v1/sessions', { json: { subjectId: subject() }, headers }), 401, 'UNAUTHORIZED');
    assertError(t, await service.request('GET', `/api/v1/sessions/${id}`, { headers }), 401, 'UNAUTHORIZED');
    assertError(t, await service.request('POST', `/api/v1/sessions/${id}/grant`, { json: grantBody(new TestClock()), headers }), 401, 'UNAUTHORIZED');
    assertError(t, await service.request('POST', `/api/v1/sessions/${id}/revoke`, { headers }), 401, 'UNAUTHORIZED');
  }
  t.is((await service.read(id)).body['state'], 'CREATED');
});

const BAD_GRANTS: [string, Record<string, unknown>][] = [
  ['an entitlementId of another shape', { entitlementId: 'E-1' }],
  ['no validUntil', { validUntil: undefined }],
  ['a validUntil that is not a date-time', { validUntil: 'tomorrow' }],
  ['a validUntil in the past', { validUntil: '2020-01-01T00:00:00Z' }],
  ['a tier outside the enum', { tier: 'PLATINUM' }],
  ['a qosClass outside the enum', { qosClass: 'ULTRA' }],
  ['deviceSlots of zero', { deviceSlots: 0 }],
  ['deviceSlots as a string', { deviceSlots: '2' }],
  ['an unknown field', { state: 'GRANTED' }],
];
for (const [name, overrides] of BAD_GRANTS) {
  test.serial(`grant with ${name} is 400 and the session stays CREATED`, async (t) => {
    const clock = new TestClock();
    const service = await bootSession(t, db, clock);
    const id = String((await service.create({ subjectId: subject() })).body['sessionId']);
    assertError(t, await service.grant(id, grantBody(clock, overrides)), 400, 'INVALID_REQUEST');
    t.is((await service.read(id)).body['state'], 'CREATED');
  });
}
