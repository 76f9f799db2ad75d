import test from 'ava';
import { assertError } from '../../helpers/error-shape.js';
import { HARNESS, KEY, loyaltyService as loyalty } from './loyalty-service.js';

const MEMBERS: Array<[string, Record<string, unknown>]> = [
  ['gold@demo.example', { found: true, memberRef: 'LOY-G-0001', tier: 'GOLD', status: 'ACTIVE', wifiBenefit: true }],
  ['gold.nobenefit@demo.example', { found: true, memberRef: 'LOY-G-0002', tier: 'GOLD', status: 'ACTIVE', wifiBenefit: false }],
  ['silver@demo.example', { found: true, memberRef: 'LOY-S-0001', tier: 'SILVER', status: 'ACTIVE', wifiBenefit: true }],
  ['member@demo.example', { found: true, memberRef: 'LOY-N-0001', tier: 'NONE', status: 'ACTIVE', wifiBenefit: false }],
  // Spec 4.6: SUSPENDED and CLOSED answer tier NONE even though they once held GOLD and SILVER.
  ['suspended@demo.example', { found: true, memberRef: 'LOY-X-0001', tier: 'NONE', status: 'SUSPENDED', wifiBenefit: true }],
  ['closed@demo.example', { found: true, memberRef: 'LOY-X-0002', tier: 'NONE', status: 'CLOSED', wifiBenefit: true }],
];

for (const [email, expected] of MEMBERS) {
  test(`${email} answers exactly the five member fields`, async (t) => {
    const { lookup } = await loyalty(t);
    const answer = await lookup({ email });
    t.is(answer.status, 200);
    t.deepEqual(answer.body, expected);
    t.false(/synthetic|\+84|points|birth/i.test(answer.text));
  });
}

test('emails match case-insensitively', async (t) => {
  const { lookup } = await loyalty(t);
  t.like((await lookup({ email: 'Gold@Demo.Example' })).body, { found: true, tier: 'GOLD' });
});

test('a non-member is a normal answer {found:false}', async (t) => {
  const { lookup } = await loyalty(t);
  const answer = await lookup({ email: 'nobody@demo.example' });
  t.is(answer.status, 200);
  t.deepEqual(answer.body, { found: false });
});

test('a missing or wrong key gets 401 UNAUTHORIZED', async (t) => {
  const { lookup } = await loyalty(t);
  assertError(t, await lookup({ email: 'gold@demo.example' }, {}), 401, 'UNAUTHORIZED');
  assertError(t, await lookup({ email: 'gold@demo.example' }, { 'X-API-Key': 'dev-hr-key' }), 401, 'UNAUTHORIZED');
});

test('a member is found by a phone number in E.164, compared with the fixture as people write it; the answer has the five fields only', async (t) => {
  const { lookup } = await loyalty(t);
  const answer = await lookup({ phone: '+84900000001' });
  t.is(answer.status, 200, answer.text);
  t.deepEqual(answer.body, { found: true, memberRef: 'LOY-G-0001', tier: 'GOLD', status: 'ACTIVE', wifiBenefit: true });
  t.deepEqual((await lookup({ phone: '+84911111111' })).body, { found: false });
});

for (const [what, body] of [
  ['a phone number not in E.164', { phone: '0900 000 001' }],
  ['both an email and a phone number', { email: 'gold@demo.example', phone: '+84900000001' }],
  ['a malformed email', { email: 'not-an-email' }],
  ['an email without a domain', { email: 'gold@' }],
  ['a missing email', {}],
  ['a numeric email', { email: 42 }],
] as const) {
  test(`${what} gets 400 INVALID_REQUEST`, async (t) => {
    const { lookup } = await loyalty(t);
    assertError(t, await lookup(body), 400, 'INVALID_REQUEST');
  });
}

test('a body that is not JSON gets 400 INVALID_REQUEST', async (t) => {
  const { service } = await loyalty(t);
  assertError(
    t,
    await service.request('POST', '/api/v1/members/lookup', { raw: 'email=gold', headers: { ...KEY, 'content-type': 'application/json' } }),
    400,
    'INVALID_REQUEST',
  );
});

test('the global ceiling answers 429 RATE_LIMITED', async (t) => {
  const { lookup } = await loyalty(t, { LOYALTY_GLOBAL_LIMIT: '2' });
  t.is((await lookup({ email: 'gold@demo.example' })).status, 200);
  t.is((await lookup({ email: 'gold@demo.example' })).status, 200);
  assertError(t, await lookup({ email: 'gold@demo.example' }), 429, 'RATE_LIMITED');
});

test('fault unavailable answers 503 LOYALTY_SERVICE_UNAVAILABLE', async (t) => {
  const { service, lookup } = await loyalty(t);
  await service.request('POST', '/admin/fault', { headers: HARNESS, json: { mode: 'unavailable' } });
  assertError(t, await lookup({ email: 'gold@demo.example' }), 503, 'LOYALTY_SERVICE_UNAVAILABLE');
});

test('fault timeout answers 504 LOYALTY_SERVICE_TIMEOUT after the delay', async (t) => {
  const { service, lookup } = await loyalty(t);
  await service.request('POST', '/admin/fault', { headers: HARNESS, json: { mode: 'timeout', delayMs: 250 } });
  const started = Date.now();
  const answer = await lookup({ email: 'gold@demo.example' });
  t.true(Date.now() - started >= 240);
  assertError(t, answer, 504, 'LOYALTY_SERVICE_TIMEOUT');
});

test('fault mode none restores answers, and health reports the mode', async (t) => {
  const { service, lookup } = await loyalty(t);
  await service.request('POST', '/admin/fault', { headers: HARNESS, json: { mode: 'unavailable' } });
  t.like((await service.request('GET', '/health')).body, { status: 'UP', service: 'loyalty', fault: { mode: 'unavailable' } });
  await service.request('POST', '/admin/fault', { headers: HARNESS, json: { mode: 'none' } });
  t.is((await lookup({ email: 'gold@demo.example' })).status, 200);
});

test('with the harness disabled /admin/fault answers 404', async (t) => {
  const { service } = await loyalty(t, { TEST_HARNESS: 'false' });
  assertError(t, await service.request('POST', '/admin/fault', { headers: HARNESS, json: { mode: 'unavailable' } }), 404, 'NOT_FOUND');
});

// With the harness on, /admin/fault still needs a key with scope harness.
test("with the harness on /admin/fault needs a key with scope harness: none 401, the entitlement service's lookup key 403", async (t) => {
  const { service, lookup } = await loyalty(t);
  assertError(t, await service.request('POST', '/admin/fault', { json: { mode: 'unavailable' } }), 401, 'UNAUTHORIZED');
  assertError(t, await service.request('POST', '/admin/fault', { json: { mode: 'unavailable' }, headers: KEY }), 403, 'FORBIDDEN');
  t.is((await lookup({ email: 'gold@demo.example' })).status, 200, 'no fault was set');
});
