import test from 'ava';
import { authenticateEmployee } from '../../../kc-extension/employee-auth/authenticate.js';
import { ACTIVE, HR_CONFIG, NO_MATCH, fakeHost, hrOk, hrStatus } from '../fake-host.js';

const CITIZEN = '079201001234';
const form = (employeeId = 'A-1001', citizenId = CITIZEN) => ({ employeeId, citizenId });

test('an active verified employee gets a new emp- account with the HR claims', (t) => {
  const host = fakeHost({ form: form() });
  const outcome = authenticateEmployee(host);
  t.is(outcome.type, 'success');
  const [user] = [...host.users.all.values()];
  t.is(user?.username, 'emp-a-1001');
  t.deepEqual(user?.attributes, { user_type: 'EMPLOYEE', employee_verified: 'true', employee_ref: 'HR-A-0001', company: 'MEMBER_A', wifi_eligible: 'true' });
  t.deepEqual(outcome, { type: 'success', userId: user!.id });
});

test("HR's wifiEligible is stored as attribute wifi_eligible, false included", (t) => {
  const host = fakeHost({ form: form(), replies: [hrOk({ ...ACTIVE, wifiEligible: false })] });
  t.is(authenticateEmployee(host).type, 'success');
  t.is([...host.users.all.values()][0]?.attributes['wifi_eligible'], 'false');
});

test('an existing account carrying the employee reference is reused and refreshed', (t) => {
  const host = fakeHost({
    form: form(),
    replies: [hrOk({ ...ACTIVE, company: 'MEMBER_B' })],
    users: [{ username: 'imported-1', attributes: { employee_ref: 'HR-A-0001', company: 'MEMBER_A', employee_verified: 'false' } }],
  });
  const outcome = authenticateEmployee(host);
  t.deepEqual(outcome, { type: 'success', userId: 'user-1' });
  t.is(host.users.all.size, 1);
  t.is(host.users.all.get('user-1')?.attributes['company'], 'MEMBER_B');
  t.is(host.users.all.get('user-1')?.attributes['employee_verified'], 'true');
  t.deepEqual(host.attributeWrites, [['user_type', 'employee_verified', 'company', 'wifi_eligible']]);
});

test('a repeat login with unchanged HR data writes no attributes', (t) => {
  const host = fakeHost({
    form: form(),
    users: [
      {
        username: 'emp-a-1001',
        attributes: { user_type: 'EMPLOYEE', employee_verified: 'true', employee_ref: 'HR-A-0001', company: 'MEMBER_A', wifi_eligible: 'true' },
      },
    ],
  });
  t.is(authenticateEmployee(host).type, 'success');
  t.deepEqual(host.attributeWrites, []);
});

test('HR is called with the configured key, timeout, body and a correlation id', (t) => {
  const host = fakeHost({ form: form() });
  authenticateEmployee(host);
  t.deepEqual(host.httpCalls, [
    {
      url: 'http://hr.test/api/v1/employees/verify',
      headers: { 'X-API-Key': 'test-key', 'X-Correlation-ID': 'corr-00000000-0000-4000-8000-000000000001' },
      body: { employeeId: 'A-1001', citizenId: CITIZEN },
      timeoutMs: 3000,
    },
  ]);
});

test('a well-shaped caller correlation id is forwarded, a bad one replaced', (t) => {
  const given = 'corr-11111111-2222-4333-8444-555555555555';
  const forwarded = fakeHost({ form: form(), headers: { 'X-Correlation-ID': given } });
  authenticateEmployee(forwarded);
  t.is(forwarded.httpCalls[0]?.headers['X-Correlation-ID'], given);
  t.is(forwarded.events['correlation_id'], given);
  const replaced = fakeHost({ form: form(), headers: { 'X-Correlation-ID': `corr-${CITIZEN}` } });
  authenticateEmployee(replaced);
  t.is(replaced.httpCalls[0]?.headers['X-Correlation-ID'], 'corr-00000000-0000-4000-8000-000000000001');
});

test('unknown id, wrong citizen number and malformed citizen number give one identical 401', (t) => {
  const unknown = authenticateEmployee(fakeHost({ form: form('Z-0000'), replies: [hrOk(NO_MATCH)] }));
  const wrong = authenticateEmployee(fakeHost({ form: form('A-1001', '079201009999'), replies: [hrOk(NO_MATCH)] }));
  const malformedHost = fakeHost({ form: form('A-1001', '12ab') });
  const malformed = authenticateEmployee(malformedHost);
  t.deepEqual(unknown, wrong);
  t.deepEqual(unknown, malformed);
  t.like(unknown, { type: 'failure', status: 401, body: { error: 'invalid_grant' } });
  t.is(malformedHost.httpCalls.length, 0);
});

test('a missing field is a 400 invalid_request and HR is not called', (t) => {
  const host = fakeHost({ form: { employeeId: 'A-1001' } });
  t.like(authenticateEmployee(host), { status: 400, body: { error: 'invalid_request' } });
  t.is(host.httpCalls.length, 0);
});

test('a verified but inactive employee gets 403 employee_inactive and no account', (t) => {
  const host = fakeHost({
    form: form('A-1002'),
    replies: [hrOk({ verified: true, active: false, employeeRef: 'HR-A-0002', company: 'MEMBER_A', wifiEligible: false, reason: 'EMPLOYEE_INACTIVE' })],
  });
  t.like(authenticateEmployee(host), { status: 403, body: { error: 'employee_inactive', error_description: 'EMPLOYEE_INACTIVE' } });
  t.is(host.users.all.size, 0);
  t.is(host.events['employee_ref'], 'HR-A-0002');
});

const faults = [
  { name: 'an HR timeout', replies: [{ kind: 'timeout' } as const], error: 'hr_timeout', status: 504, calls: 2 },
  { name: 'HR answering 504', replies: [hrStatus(504)], error: 'hr_timeout', status: 504, calls: 2 },
  { name: 'HR answering 503', replies: [hrStatus(503)], error: 'hr_unavailable', status: 503, calls: 2 },
  { name: 'an unreachable HR', replies: [{ kind: 'unreachable' } as const], error: 'hr_unavailable', status: 503, calls: 2 },
  { name: 'HR refusing the key', replies: [hrStatus(401)], error: 'hr_unavailable', status: 503, calls: 1 },
  { name: 'HR rate limiting', replies: [hrStatus(429)], error: 'rate_limited', status: 429, calls: 1 },
  { name: 'an unreadable HR body', replies: [{ kind: 'response', status: 200, body: '<html>' } as const], error: 'hr_unavailable', status: 503, calls: 1 },
  { name: 'verified without active', replies: [hrOk({ verified: true })], error: 'hr_unavailable', status: 503, calls: 1 },
];
for (const fault of faults) {
  test(`${fault.name} never authenticates (${fault.error}, ${fault.calls} call(s))`, (t) => {
    const host = fakeHost({ form: form(), replies: fault.replies });
    t.like(authenticateEmployee(host), { type: 'failure', status: fault.status, body: { error: fault.error } });
    t.is(host.httpCalls.length, fault.calls);
    t.is(host.users.all.size, 0);
  });
}

test('a transient HR fault followed by a match authenticates on the second attempt', (t) => {
  const host = fakeHost({ form: form(), replies: [{ kind: 'timeout' }, hrOk(ACTIVE)] });
  t.is(authenticateEmployee(host).type, 'success');
  t.is(host.httpCalls.length, 2);
});

test('the attempts setting bounds the HR calls', (t) => {
  const host = fakeHost({ form: form(), config: { ...HR_CONFIG, hrAttempts: '1' }, replies: [{ kind: 'timeout' }] });
  t.like(authenticateEmployee(host), { body: { error: 'hr_timeout' } });
  t.is(host.httpCalls.length, 1);
});

test('a disabled account is refused with 403 account_disabled', (t) => {
  const host = fakeHost({ form: form(), users: [{ username: 'emp-a-1001', enabled: false, attributes: { employee_ref: 'HR-A-0001' } }] });
  t.like(authenticateEmployee(host), { status: 403, body: { error: 'account_disabled' } });
  t.is(host.users.all.get('user-1')?.attributes['employee_verified'], undefined);
});

test('two accounts carrying one reference are an IDENTITY_LINK_CONFLICT, logged and refused', (t) => {
  const host = fakeHost({
    form: form(),
    users: [
      { username: 'one', attributes: { employee_ref: 'HR-A-0001' } },
      { username: 'two', attributes: { employee_ref: 'HR-A-0001' } },
    ],
  });
  t.like(authenticateEmployee(host), { status: 403, body: { error: 'identity_link_conflict' } });
  t.true(host.logs.some((line) => line.startsWith('error IDENTITY_LINK_CONFLICT employee_ref=HR-A-0001')));
});

test('an emp- username taken by an account without the reference is a conflict, not a takeover', (t) => {
  const host = fakeHost({ form: form(), users: [{ username: 'emp-a-1001', attributes: { employee_ref: 'HR-OTHER' } }] });
  t.like(authenticateEmployee(host), { body: { error: 'identity_link_conflict' } });
  t.is(host.users.all.get('user-1')?.attributes['employee_ref'], 'HR-OTHER');
});

test('an account carrying the reference with a password of its own is not adopted: IDENTITY_LINK_CONFLICT, nothing written', (t) => {
  const host = fakeHost({
    form: form(),
    users: [{ username: 'stranger@example.com', hasPassword: true, attributes: { user_type: 'EMPLOYEE', employee_ref: 'HR-A-0001', company: 'MEMBER_A' } }],
  });
  t.like(authenticateEmployee(host), { status: 403, body: { error: 'identity_link_conflict' } });
  t.is(host.users.all.get('user-1')?.attributes['employee_verified'], undefined);
  t.deepEqual(host.attributeWrites, []);
  t.true(
    host.logs.some((line) =>
      line.startsWith('error IDENTITY_LINK_CONFLICT employee_ref=HR-A-0001: account stranger@example.com carries the reference and has a password of its own'),
    ),
  );
});

test('an unusable config fails closed without calling HR, with its own answer and a log line naming the settings', (t) => {
  const cases: Array<[Record<string, string>, string]> = [
    [{}, 'hrUrl, hrApiKey'],
    [{ ...HR_CONFIG, hrUrl: 'not a url' }, 'hrUrl'],
    [{ ...HR_CONFIG, hrApiKey: '' }, 'hrApiKey'],
    [{ ...HR_CONFIG, hrTimeoutMs: 'x' }, 'hrTimeoutMs'],
    [{ ...HR_CONFIG, submitLimit: '0' }, 'submitLimit'],
  ];
  for (const [config, names] of cases) {
    const host = fakeHost({ form: form(), config });
    t.like(authenticateEmployee(host), { status: 503, body: { error: 'authenticator_misconfigured', error_description: 'AUTHENTICATOR_MISCONFIGURED' } });
    t.is(host.httpCalls.length, 0);
    t.true(
      host.logs.some((line) => line.startsWith(`error employee authenticator misconfigured: unusable settings ${names};`)),
      JSON.stringify(host.logs),
    );
    t.false(
      host.logs.some((line) => line.includes('not a url')),
      'the value is not logged',
    );
  }
});

test('after 5 failed submits for one employee id the 6th is rate limited without calling HR', (t) => {
  const host = fakeHost({ form: form('A-1001', '079201009999'), replies: [hrOk(NO_MATCH)] });
  for (let i = 0; i < 5; i++) t.like(authenticateEmployee(host), { status: 401 });
  t.like(authenticateEmployee(host), { status: 429, body: { error: 'rate_limited' } });
  t.is(host.httpCalls.length, 5);
});

test('20 submits in flight at once for one employee id: at most 5 reach HR, the others are rate limited', (t) => {
  const host = fakeHost({ form: form('A-1001', '079201009999') });
  const outcomes: number[] = [];
  let started = 1;
  // Each submit is still waiting for HR when the next one arrives (nested calls interleave them).
  host.http.postJson = (url, headers, body, timeoutMs) => {
    host.httpCalls.push({ url, headers, body, timeoutMs });
    while (started < 20) {
      started += 1;
      const outcome = authenticateEmployee(host);
      outcomes.push(outcome.type === 'failure' ? outcome.status : 200);
    }
    return hrOk(NO_MATCH);
  };
  const first = authenticateEmployee(host);
  outcomes.push(first.type === 'failure' ? first.status : 200);
  t.is(host.httpCalls.length, 5);
  t.deepEqual(outcomes.filter((status) => status === 401).length, 5);
  t.deepEqual(outcomes.filter((status) => status === 429).length, 15);
});

test('refusals that are not guesses do not count toward the submit limit', (t) => {
  const host = fakeHost({ form: form(), replies: [hrOk({ verified: true, active: false, employeeRef: 'HR-A-0002', reason: 'EMPLOYEE_INACTIVE' })] });
  for (let i = 0; i < 7; i++) t.like(authenticateEmployee(host), { status: 403, body: { error: 'employee_inactive' } });
  const faulty = fakeHost({ form: form(), replies: [hrStatus(503)] });
  for (let i = 0; i < 7; i++) t.like(authenticateEmployee(faulty), { status: 503 });
  const submitSlots = (entries: Map<string, number>) => [...entries.keys()].filter((key) => key.startsWith('wifi-employee-submits:'));
  t.is(submitSlots(host.counterEntries).length + submitSlots(faulty.counterEntries).length, 0);
});

test('the submit window expires and a success clears the count', (t) => {
  const host = fakeHost({ form: form(), replies: [hrOk(NO_MATCH), hrOk(NO_MATCH), hrOk(ACTIVE)] });
  authenticateEmployee(host);
  authenticateEmployee(host);
  const submitSlots = () => [...host.counterEntries.keys()].filter((key) => key.startsWith('wifi-employee-submits:'));
  t.deepEqual(submitSlots(), ['wifi-employee-submits:a-1001:1', 'wifi-employee-submits:a-1001:2']);
  t.is(authenticateEmployee(host).type, 'success');
  t.deepEqual(submitSlots(), []);
  const expiring = fakeHost({ form: form('B-2001', '1'), config: { ...HR_CONFIG, submitLimit: '1', submitWindowSeconds: '60' } });
  authenticateEmployee(expiring);
  t.like(authenticateEmployee(expiring), { status: 429 });
  expiring.advance(60_001);
  t.like(authenticateEmployee(expiring), { status: 401 });
});

test('the citizen number reaches HR only: not logs, events, accounts, counters or the outcome', (t) => {
  const canary = '987650001234';
  const hosts = [
    fakeHost({ form: form('CANARY-01', canary) }),
    fakeHost({ form: form('CANARY-01', canary), replies: [hrOk(NO_MATCH)] }),
    fakeHost({ form: form('CANARY-01', canary), replies: [{ kind: 'timeout' }] }),
    fakeHost({ form: form('CANARY-01', canary), replies: [hrStatus(401)] }),
    fakeHost({
      form: form('CANARY-01', canary),
      users: [
        { username: 'a', attributes: { employee_ref: 'HR-A-0001' } },
        { username: 'b', attributes: { employee_ref: 'HR-A-0001' } },
      ],
    }),
  ];
  for (const host of hosts) {
    const outcome = authenticateEmployee(host);
    const kept = JSON.stringify([outcome, host.logs, host.events, [...host.users.all.values()], [...host.counterEntries]]);
    t.false(kept.includes(canary));
    t.true(host.httpCalls.every((call) => (call.body as { citizenId: string }).citizenId === canary));
  }
});

// Strangers cannot lock employees out.
test('HR answering RATE_LIMITED keeps the submit slot taken: after 5 such refusals the 6th is refused without calling HR', (t) => {
  const host = fakeHost({ form: form('A-1001', '079201001234'), replies: [hrStatus(429)] });
  for (let i = 0; i < 5; i++) t.like(authenticateEmployee(host), { status: 429, body: { error: 'rate_limited' } });
  t.is(host.httpCalls.length, 5);
  t.like(authenticateEmployee(host), { status: 429, body: { error: 'rate_limited' } });
  t.is(host.httpCalls.length, 5, 'the sixth never reached HR');
});

test("attempts per client address are limited first: over the limit, refused without calling HR or taking an employee's slot", (t) => {
  const host = fakeHost({ address: '198.51.100.66', config: { ...HR_CONFIG, addressLimit: '3', submitLimit: '100' }, replies: [hrOk(NO_MATCH)] });
  const attempt = (employeeId: string) => {
    host.request.formParam = (name) => ({ employeeId, citizenId: '079201009999' })[name];
    return authenticateEmployee(host);
  };
  for (const id of ['R-0001', 'R-0002', 'R-0003']) t.like(attempt(id), { status: 401 });
  t.like(attempt('A-1001'), { status: 429, body: { error: 'rate_limited' } });
  t.is(host.httpCalls.length, 3);
  t.false(
    [...host.counterEntries.keys()].some((key) => key.startsWith('wifi-employee-submits:a-1001:')),
    "the employee's own count is untouched",
  );
  t.true(host.logs.some((line) => line.startsWith('warn employee attempts per client address reached')));
});

test("another client address is not limited by the first one's attempts, and the window expires", (t) => {
  const host = fakeHost({
    form: form(),
    address: '198.51.100.66',
    config: { ...HR_CONFIG, addressLimit: '2', addressWindowSeconds: '60' },
    replies: [hrOk(ACTIVE)],
  });
  authenticateEmployee(host);
  authenticateEmployee(host);
  t.like(authenticateEmployee(host), { status: 429 });
  host.request.clientAddress = () => '203.0.113.9';
  t.is(authenticateEmployee(host).type, 'success');
  host.request.clientAddress = () => '198.51.100.66';
  host.advance(60_001);
  t.is(authenticateEmployee(host).type, 'success');
});
