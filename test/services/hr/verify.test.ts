import test from 'ava';
import { assertError } from '../../helpers/error-shape.js';
import { ACTIVE, INACTIVE, NINE_DIGITS, NOT_WIFI_ELIGIBLE, PARTNER, hrService } from './hr-service.js';

test('an active employee with the right citizen number is verified and active', async (t) => {
  const { verify } = await hrService(t);
  const answer = await verify(ACTIVE);
  t.is(answer.status, 200);
  t.deepEqual(answer.body, { verified: true, active: true, employeeRef: 'HR-A-0001', company: 'MEMBER_A', wifiEligible: true });
});

test('wifiEligible and company come from the record (MEMBER_C not eligible, PARTNER-X, a nine-digit number)', async (t) => {
  const { verify } = await hrService(t);
  t.like((await verify(NOT_WIFI_ELIGIBLE)).body, { verified: true, active: true, company: 'MEMBER_C', wifiEligible: false });
  t.like((await verify(PARTNER)).body, { verified: true, active: true, company: 'PARTNER-X', employeeRef: 'HR-X-0001' });
  t.like((await verify(NINE_DIGITS)).body, { verified: true, active: true, company: 'MEMBER_B' });
});

test('unknown employee and wrong citizen number return byte-identical bodies (spec 4.2 rule 2)', async (t) => {
  const { verify } = await hrService(t);
  const unknown = await verify({ employeeId: 'Z-0000', citizenId: ACTIVE.citizenId });
  const wrong = await verify({ employeeId: ACTIVE.employeeId, citizenId: '079201009999' });
  t.is(unknown.status, 200);
  t.is(wrong.status, 200);
  t.is(unknown.text, wrong.text);
  t.deepEqual(unknown.body, { verified: false, active: false, reason: 'NOT_FOUND_OR_MISMATCH' });
});

test('a matched inactive employee gets the inactive body with reference and company (spec 4.2 rule 3)', async (t) => {
  const { verify } = await hrService(t);
  const answer = await verify(INACTIVE);
  t.deepEqual(answer.body, { verified: true, active: false, wifiEligible: false, reason: 'EMPLOYEE_INACTIVE', employeeRef: 'HR-A-0002', company: 'MEMBER_A' });
});

test('no name, department or contact detail ever leaves the service', async (t) => {
  const { verify } = await hrService(t);
  for (const who of [ACTIVE, INACTIVE, PARTNER]) {
    const answer = await verify(who);
    t.deepEqual(
      Object.keys(answer.body).filter((key) => !['verified', 'active', 'employeeRef', 'company', 'wifiEligible', 'reason'].includes(key)),
      [],
    );
    t.false(/synthetic|Operations|Finance|Partner desk/.test(answer.text));
  }
});

test('a missing, wrong or empty X-API-Key gets 401 UNAUTHORIZED', async (t) => {
  const { verify } = await hrService(t);
  assertError(t, await verify(ACTIVE, {}), 401, 'UNAUTHORIZED');
  assertError(t, await verify(ACTIVE, { 'X-API-Key': 'not-the-key' }), 401, 'UNAUTHORIZED');
  assertError(t, await verify(ACTIVE, { 'X-API-Key': '' }), 401, 'UNAUTHORIZED');
});

test('each caller has its own key (Keycloak, tools), both accepted; a rotation accepts the old and the new key', async (t) => {
  const { verify } = await hrService(t);
  for (const key of ['dev-hr-key', 'dev-hr-tools-key']) t.is((await verify(ACTIVE, { 'X-API-Key': key })).status, 200);
  const rotating = await hrService(t, { HR_API_KEYS: 'keycloak:hr-key-old-1:verify keycloak:hr-key-new-1:verify' });
  for (const key of ['hr-key-old-1', 'hr-key-new-1']) t.is((await rotating.verify(ACTIVE, { 'X-API-Key': key })).status, 200);
  assertError(t, await rotating.verify(ACTIVE, { 'X-API-Key': 'dev-hr-key' }), 401, 'UNAUTHORIZED');
});

const BAD_REQUESTS: Array<[string, unknown]> = [
  ['a missing employeeId', { citizenId: ACTIVE.citizenId }],
  ['a missing citizenId', { employeeId: ACTIVE.employeeId }],
  ['an employeeId of two characters', { employeeId: 'AB', citizenId: ACTIVE.citizenId }],
  ['an employeeId of 33 characters', { employeeId: 'A'.repeat(33), citizenId: ACTIVE.citizenId }],
  ['an employeeId with a space', { employeeId: 'A 1001', citizenId: ACTIVE.citizenId }],
  ['a citizenId of eight digits', { employeeId: ACTIVE.employeeId, citizenId: '12345678' }],
  ['a citizenId of thirteen digits', { employeeId: ACTIVE.employeeId, citizenId: '1234567890123' }],
  ['a citizenId with a letter', { employeeId: ACTIVE.employeeId, citizenId: '07920100123A' }],
  ['a numeric citizenId', { employeeId: ACTIVE.employeeId, citizenId: 79201001234 }],
  ['a null body field', { employeeId: null, citizenId: ACTIVE.citizenId }],
];

for (const [what, body] of BAD_REQUESTS) {
  test(`${what} gets 400 INVALID_REQUEST that does not echo the citizen number`, async (t) => {
    const { verify } = await hrService(t);
    const answer = await verify(body);
    assertError(t, answer, 400, 'INVALID_REQUEST');
    t.false(answer.text.includes('0792010012'));
  });
}

test('non-JSON, a form body and an oversized body get 400 INVALID_REQUEST', async (t) => {
  const { service } = await hrService(t);
  const headers = { 'X-API-Key': 'dev-hr-key', 'content-type': 'application/json' };
  assertError(t, await service.request('POST', '/api/v1/employees/verify', { raw: '{"employeeId":', headers }), 400, 'INVALID_REQUEST');
  assertError(
    t,
    await service.request('POST', '/api/v1/employees/verify', {
      raw: 'employeeId=A-1001',
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    }),
    400,
    'INVALID_REQUEST',
  );
  assertError(
    t,
    await service.request('POST', '/api/v1/employees/verify', { json: { employeeId: 'A-1001', citizenId: '079201001234', pad: 'x'.repeat(50_000) }, headers }),
    400,
    'INVALID_REQUEST',
  );
});

test('health answers UP, names the service and reports the fault mode', async (t) => {
  const { service } = await hrService(t);
  const answer = await service.request('GET', '/health');
  t.is(answer.status, 200);
  t.deepEqual(answer.body, { status: 'UP', service: 'hr', fault: { mode: 'none', delayMs: 0 } });
});

test('the OpenAPI document describes verify with the spec patterns', async (t) => {
  const { service } = await hrService(t);
  const answer = await service.request('GET', '/openapi.json');
  t.true(answer.text.includes('/api/v1/employees/verify'));
  t.true(answer.text.includes('^[0-9]{9,12}$'));
  t.true(answer.text.includes('^[A-Za-z0-9._-]{3,32}$'));
});
