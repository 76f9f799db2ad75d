import { randomUUID } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { assertError } from '../../helpers/error-shape.js';
import { bootEntitlement, customerClaims, employeeClaims, loyaltyStub, sharedPeers } from './harness.js';

// Spec 4.3 with real tokens signed here, the real decision service in process and a loyalty stub.
const shared = sharedPeers(test);

async function setup(t: ExecutionContext, env: Record<string, string> = {}) {
  const loyalty = await loyaltyStub(t);
  const service = await bootEntitlement(t, shared.db, { IDP_JWKS_URL: shared.keys.url, DECISION_URL: shared.decision.url, LOYALTY_URL: loyalty.url, ...env });
  return { service, loyalty };
}

test("a customer gets the baseline entitlement of spec 2.6, valid for the rule's ttl", async (t) => {
  const { service } = await setup(t);
  const claims = customerClaims();
  const reply = await service.evaluate(await shared.keys.token(claims), { subjectId: claims.sub, sessionId: null });
  t.is(reply.status, 201, reply.text);
  t.like(reply.body, {
    subjectId: claims.sub,
    sessionId: null,
    eligible: true,
    status: 'ACTIVE',
    entitlementType: 'WIFI_CUSTOMER_BASIC',
    permission: { tier: 'BASIC', qosClass: 'STANDARD', deviceSlots: 1, sourceType: 'IDP_ID_LOGIN', sourceRef: null },
    replayed: false,
  });
  t.regex(String(reply.body['entitlementId']), /^ent-[0-9a-f-]{36}$/);
  t.is(Date.parse(String(reply.body['validUntil'])) - Date.parse(String(reply.body['validFrom'])), 3600 * 1000);
});

test('no body at all is fine: the token is the input', async (t) => {
  const { service } = await setup(t);
  const reply = await service.evaluate(await shared.keys.token(customerClaims()));
  t.is(reply.status, 201, reply.text);
});

test('an employee of a member company gets the employee package with the HR reference; loyalty is never asked', async (t) => {
  const { service, loyalty } = await setup(t);
  const reply = await service.evaluate(await shared.keys.token(employeeClaims('MEMBER_B')), {});
  t.is(reply.status, 201, reply.text);
  t.like(reply.body, {
    entitlementType: 'WIFI_EMPLOYEE_PACKAGE',
    permission: { tier: 'BOOST', qosClass: 'HIGH', deviceSlots: 2, sourceType: 'EMPLOYEE_VERIFICATION', sourceRef: 'HR-A-0001' },
  });
  t.is(Date.parse(String(reply.body['validUntil'])) - Date.parse(String(reply.body['validFrom'])), 14400 * 1000);
  t.is(loyalty.hits, 0);
});

test('pre-hijack: employee claims in a token of any client but wifi-portal-employee-api reach no employee rule', async (t) => {
  const { service } = await setup(t);
  for (const azp of ['wifi-portal-api', 'account', undefined]) {
    const { azp: _employeeClient, ...claims } = employeeClaims('MEMBER_A');
    const reply = await service.evaluate(await shared.keys.token(azp === undefined ? claims : { ...claims, azp }), {});
    assertError(t, reply, 403, 'ENTITLEMENT_DENIED');
    t.like(reply.body, { eligible: false, reason: 'EMPLOYEE_NOT_VERIFIED' }, String(azp));
  }
});

const DENIALS: [string, Record<string, unknown>, string][] = [
  ['an employee of PARTNER-X', employeeClaims('PARTNER-X'), 'COMPANY_NOT_ELIGIBLE'],
  ['an employee whose token says not verified', employeeClaims('MEMBER_A', false), 'EMPLOYEE_NOT_VERIFIED'],
  ['an unknown user type', { ...customerClaims(), user_type: 'ROBOT' }, 'UNKNOWN_USER_TYPE'],
];
for (const [who, claims, reason] of DENIALS) {
  test(`${who} is denied: 403 ENTITLEMENT_DENIED, eligible false, reason ${reason}`, async (t) => {
    const { service } = await setup(t);
    const reply = await service.evaluate(await shared.keys.token(claims), {});
    assertError(t, reply, 403, 'ENTITLEMENT_DENIED');
    t.like(reply.body, { eligible: false, reason });
  });
}

test('a GOLD member with the benefit gets the plus package, with the member reference', async (t) => {
  const { service, loyalty } = await setup(t);
  const reply = await service.evaluate(await shared.keys.token(customerClaims('gold@demo.example')), {});
  t.like(reply.body, {
    entitlementType: 'WIFI_CUSTOMER_PLUS',
    permission: { tier: 'BOOST', deviceSlots: 2, sourceType: 'LOYALTY_TIER', sourceRef: 'LOY-GOLD-1' },
  });
  t.is(loyalty.hits, 1);
});

for (const [how, claims] of [
  ['email_verified false', () => customerClaims('gold@demo.example', false)],
  [
    'no email_verified claim',
    () => {
      const { email_verified: _none, ...rest } = customerClaims('gold@demo.example');
      return rest;
    },
  ],
] as const) {
  test(`an unverified address (${how}) is not looked up at loyalty: a GOLD member's email registered by someone else gets the baseline`, async (t) => {
    const { service, loyalty } = await setup(t);
    const reply = await service.evaluate(await shared.keys.token(claims()), {});
    t.is(reply.status, 201, reply.text);
    t.like(reply.body, { entitlementType: 'WIFI_CUSTOMER_BASIC', permission: { tier: 'BASIC', deviceSlots: 1, sourceType: 'IDP_ID_LOGIN', sourceRef: null } });
    t.is(loyalty.hits, 0);
  });
}

// A guest who signed in with a phone and an SMS code: the phone client's token carries the proved number.
const phoneClaims = (changes: Record<string, unknown> = {}) => ({
  sub: randomUUID(),
  azp: 'wifi-portal-phone-api',
  user_type: 'CUSTOMER',
  preferred_username: '+84900000001',
  phone_number: '+84900000001',
  phone_number_verified: true,
  ...changes,
});

test('a guest signed in by phone is looked up at loyalty by the verified number: a GOLD member gets the plus package', async (t) => {
  const { service, loyalty } = await setup(t);
  const reply = await service.evaluate(await shared.keys.token(phoneClaims()), {});
  t.is(reply.status, 201, reply.text);
  t.like(reply.body, { entitlementType: 'WIFI_CUSTOMER_PLUS', permission: { sourceType: 'LOYALTY_TIER', sourceRef: 'LOY-GOLD-PHONE' } });
  t.is(loyalty.hits, 1);
});

for (const [how, claims] of [
  ['phone_number_verified false', () => phoneClaims({ phone_number_verified: false })],
  ['a token of another client', () => phoneClaims({ azp: 'wifi-portal-api' })],
] as const) {
  test(`a number not proved by the phone sign-in (${how}) is not looked up at loyalty`, async (t) => {
    const { service, loyalty } = await setup(t);
    const reply = await service.evaluate(await shared.keys.token(claims()), {});
    t.is(reply.status, 201, reply.text);
    t.like(reply.body, { entitlementType: 'WIFI_CUSTOMER_BASIC', permission: { sourceType: 'IDP_ID_LOGIN' } });
    t.is(loyalty.hits, 0);
  });
}

test('a freshly registered account (no user_type claim) is looked up and gets the baseline', async (t) => {
  const { service, loyalty } = await setup(t);
  const { user_type: _none, ...claims } = customerClaims('silver@demo.example');
  const reply = await service.evaluate(await shared.keys.token(claims), {});
  t.is(reply.status, 201, reply.text);
  t.like(reply.body, { entitlementType: 'WIFI_CUSTOMER_PLUS', permission: { sourceType: 'LOYALTY_TIER' } });
  t.is(loyalty.hits, 1);
});

test('the token decides: a body subjectId contradicting sub is 403 FORBIDDEN', async (t) => {
  const { service } = await setup(t);
  assertError(t, await service.evaluate(await shared.keys.token(customerClaims()), { subjectId: '00000000-0000-4000-8000-000000000000' }), 403, 'FORBIDDEN');
});

test('a contradicting userType hint is logged and ignored', async (t) => {
  const { service } = await setup(t);
  const reply = await service.evaluate(await shared.keys.token(customerClaims()), { userType: 'EMPLOYEE', employeeVerified: true, company: 'MEMBER_A' });
  t.is(reply.status, 201);
  t.is(reply.body['entitlementType'], 'WIFI_CUSTOMER_BASIC');
  t.true(service.lines.some((line) => line.includes('contradicts the token')));
});

test('bad bodies are 400: unknown fields, wrong types, a malformed sessionId', async (t) => {
  const { service } = await setup(t);
  const token = await shared.keys.token(customerClaims());
  for (const body of [{ admin: true }, { employeeVerified: 'yes' }, { sessionId: 'has space' }, [1]]) {
    assertError(t, await service.evaluate(token, body), 400, 'INVALID_REQUEST');
  }
});

test("reads: 200 for the caller's own entitlement, 404 for unknown ids and for another subject's", async (t) => {
  const { service } = await setup(t);
  const claims = customerClaims();
  const token = await shared.keys.token(claims);
  const id = String((await service.evaluate(token, {})).body['entitlementId']);
  const own = await service.read(token, id);
  t.is(own.status, 200);
  t.like(own.body, { entitlementId: id, subjectId: claims.sub, replayed: false });
  assertError(t, await service.read(await shared.keys.token(customerClaims()), id), 404, 'NOT_FOUND');
  assertError(t, await service.read(token, 'ent-00000000-0000-4000-8000-000000000000'), 404, 'NOT_FOUND');
  assertError(t, await service.read(token, 'bad_id'), 400, 'INVALID_REQUEST');
});
