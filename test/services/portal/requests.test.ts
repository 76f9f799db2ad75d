import test from 'ava';
import { assertError } from '../../helpers/error-shape.js';
import { bootPortal, defaultFakes } from './portal-fakes.js';

const BOB = { username: 'bob@example.com', password: 'bob-demo-pass' };
const SIGN_INS: [string, unknown][] = [
  ['/api/v1/auth/login', BOB],
  ['/api/v1/auth/register', { email: 'new@example.com', password: 'long-enough' }],
  ['/api/v1/auth/employee', { employeeId: 'A-1001', citizenId: '079201001234' }],
];

for (const [path, body] of SIGN_INS) {
  test(`${path}: a request from another origin is 403 FORBIDDEN before any call`, async (t) => {
    const portal = await bootPortal(t);
    assertError(t, await portal.post(path, body, { origin: 'https://evil.example' }), 403, 'FORBIDDEN');
    assertError(t, await portal.post(path, body, { 'sec-fetch-site': 'cross-site' }), 403, 'FORBIDDEN');
    t.deepEqual(portal.fakes.calls, []);
  });

  test(`${path}: a form post (not JSON) is refused before any call`, async (t) => {
    const portal = await bootPortal(t);
    const form = await portal.request('POST', path, { raw: 'username=a%40b.c&password=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assertError(t, form, 400, 'INVALID_REQUEST');
    t.deepEqual(portal.fakes.calls, []);
  });

  test(`${path}: the portal's own origin is accepted`, async (t) => {
    const portal = await bootPortal(t);
    const reply = await portal.post(path, body, { origin: portal.url, 'sec-fetch-site': 'same-origin' });
    t.is(reply.status, 200, reply.text);
  });
}

const BAD_BODIES: [string, string, unknown][] = [
  ['login', '/api/v1/auth/login', { username: 'not-an-email', password: 'x' }],
  ['login', '/api/v1/auth/login', { username: 'bob@example.com', password: '' }],
  ['login', '/api/v1/auth/login', { username: 'bob@example.com' }],
  ['register', '/api/v1/auth/register', { email: 'nope', password: 'long-enough' }],
  ['register', '/api/v1/auth/register', { email: 'new@example.com', password: 'short' }],
  ['employee', '/api/v1/auth/employee', { employeeId: 'A-1001' }],
  ['employee', '/api/v1/auth/employee', { citizenId: '079201001234' }],
  ['employee', '/api/v1/auth/employee', { employeeId: '', citizenId: '079201001234' }],
];
for (const [name, path, body] of BAD_BODIES) {
  test(`${name} with ${JSON.stringify(body)} is 400 before any call, and echoes no value`, async (t) => {
    const portal = await bootPortal(t);
    const reply = await portal.post(path, body);
    assertError(t, reply, 400, 'INVALID_REQUEST');
    t.deepEqual(portal.fakes.calls, []);
    t.false(reply.text.includes('079201001234'));
  });
}

test('register creates the account through the admin port, then signs in', async (t) => {
  const portal = await bootPortal(t);
  const reply = await portal.post('/api/v1/auth/register', { email: 'new@example.com', password: 'long-enough', displayName: 'Nguyen Van An' });
  t.is(reply.status, 200, reply.text);
  t.deepEqual(portal.fakes.calls.slice(0, 2), ['accounts.create new@example.com', 'idp.password new@example.com']);
});

test('register whose verify-email mail could not be sent still signs in, and says so in the log without the address', async (t) => {
  const fakes = defaultFakes();
  fakes.account = { kind: 'created', verifyMail: 'not-sent' };
  const portal = await bootPortal(t, fakes);
  const reply = await portal.post('/api/v1/auth/register', { email: 'unsent@example.com', password: 'long-enough' });
  t.is(reply.status, 200, reply.text);
  const warning = portal.lines.find((line) => line.includes('verify-email mail could not be sent'));
  t.truthy(warning);
  t.false(portal.lines.join('\n').includes('unsent@example.com'));
});

test('register for an existing email is 409 ACCOUNT_EXISTS and signs nobody in', async (t) => {
  const fakes = defaultFakes();
  fakes.account = { kind: 'exists' };
  const portal = await bootPortal(t, fakes);
  assertError(t, await portal.post('/api/v1/auth/register', { email: 'bob@example.com', password: 'long-enough' }), 409, 'ACCOUNT_EXISTS');
  t.deepEqual(portal.fakes.calls, ['accounts.create bob@example.com']);
});

test('register with the identity provider down is 502', async (t) => {
  const fakes = defaultFakes();
  fakes.account = { kind: 'unreachable' };
  const portal = await bootPortal(t, fakes);
  assertError(t, await portal.post('/api/v1/auth/register', { email: 'x@example.com', password: 'long-enough' }), 502, 'UPSTREAM_UNAVAILABLE');
});

const EMPLOYEE_REFUSALS: [string, number, number, string][] = [
  ['invalid_grant', 401, 401, 'INVALID_CREDENTIALS'],
  ['employee_inactive', 403, 403, 'EMPLOYEE_INACTIVE'],
  ['account_disabled', 403, 403, 'FORBIDDEN'],
  ['identity_link_conflict', 403, 403, 'FORBIDDEN'],
  ['rate_limited', 429, 429, 'RATE_LIMITED'],
  ['hr_timeout', 504, 504, 'HR_SERVICE_TIMEOUT'],
  ['hr_unavailable', 503, 502, 'UPSTREAM_UNAVAILABLE'],
  ['something_new', 400, 502, 'UPSTREAM_UNAVAILABLE'],
];
for (const [error, idpStatus, status, code] of EMPLOYEE_REFUSALS) {
  test(`the employee authenticator's ${error} is a portal ${status} ${code}, and nothing is granted`, async (t) => {
    const fakes = defaultFakes();
    fakes.grant = { kind: 'refused', error, status: idpStatus };
    const portal = await bootPortal(t, fakes);
    const reply = await portal.post('/api/v1/auth/employee', { employeeId: 'A-1001', citizenId: '079201001234' });
    assertError(t, reply, status, code);
    t.deepEqual(portal.fakes.calls, ['idp.employee A-1001']);
    t.false(reply.text.includes('079201001234'));
  });
}

test('an employee sign-in answers client wifi-portal-employee-api', async (t) => {
  const portal = await bootPortal(t);
  const reply = await portal.post('/api/v1/auth/employee', { employeeId: 'A-1001', citizenId: '079201001234' });
  t.is(reply.status, 200);
  t.is(reply.body['client'], 'wifi-portal-employee-api');
});
