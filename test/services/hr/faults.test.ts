import test from 'ava';
import { assertError } from '../../helpers/error-shape.js';
import { ACTIVE, HARNESS, hrService } from './hr-service.js';

test('fault unavailable makes verify answer 503 HR_SERVICE_UNAVAILABLE, and none restores it', async (t) => {
  const { service, verify } = await hrService(t);
  const set = await service.request('POST', '/admin/fault', { headers: HARNESS, json: { mode: 'unavailable', delayMs: 0 } });
  t.deepEqual(set.body, { ok: true, fault: { mode: 'unavailable', delayMs: 0 } });
  assertError(t, await verify(ACTIVE), 503, 'HR_SERVICE_UNAVAILABLE');
  t.like((await service.request('GET', '/health')).body, { fault: { mode: 'unavailable' } });
  await service.request('POST', '/admin/fault', { headers: HARNESS, json: { mode: 'none' } });
  t.like((await verify(ACTIVE)).body, { verified: true });
});

test('fault timeout holds the answer for delayMs, then 504 HR_SERVICE_TIMEOUT', async (t) => {
  const { service, verify } = await hrService(t);
  await service.request('POST', '/admin/fault', { headers: HARNESS, json: { mode: 'timeout', delayMs: 300 } });
  const started = Date.now();
  const answer = await verify(ACTIVE);
  t.true(Date.now() - started >= 290);
  assertError(t, answer, 504, 'HR_SERVICE_TIMEOUT');
});

for (const body of [{ mode: 'explode' }, { mode: 'timeout', delayMs: -1 }, { mode: 'timeout', delayMs: 'soon' }, {}]) {
  test(`a fault body of ${JSON.stringify(body)} gets 400 INVALID_REQUEST`, async (t) => {
    const { service } = await hrService(t);
    assertError(t, await service.request('POST', '/admin/fault', { headers: HARNESS, json: body }), 400, 'INVALID_REQUEST');
  });
}

test('with the harness disabled the admin endpoints answer 404', async (t) => {
  const { service } = await hrService(t, { TEST_HARNESS: 'false' });
  assertError(t, await service.request('POST', '/admin/fault', { headers: HARNESS, json: { mode: 'unavailable' } }), 404, 'NOT_FOUND');
  assertError(t, await service.request('POST', '/admin/reset-limits', { headers: HARNESS }), 404, 'NOT_FOUND');
});

// A harness left on is still no switch for strangers: the routes need a key with scope harness.
test("with the harness on, the admin endpoints need a key with scope harness: none 401, Keycloak's verify key 403", async (t) => {
  const { service, verify } = await hrService(t);
  for (const [path, json] of [
    ['/admin/fault', { mode: 'unavailable' }],
    ['/admin/reset-limits', undefined],
  ] as const) {
    assertError(t, await service.request('POST', path, { json }), 401, 'UNAUTHORIZED');
    assertError(t, await service.request('POST', path, { json, headers: { 'X-API-Key': 'dev-hr-key' } }), 403, 'FORBIDDEN');
  }
  t.like((await verify(ACTIVE)).body, { verified: true }, 'no fault was set');
  t.is((await service.request('POST', '/admin/reset-limits', { headers: HARNESS })).status, 200);
});
