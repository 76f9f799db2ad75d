import test from 'ava';
import { adaptAuthHost, type JavaAuthHost } from '../../../kc-extension/host/java-auth-host.js';

function rawHost(overrides: Partial<JavaAuthHost> = {}): JavaAuthHost & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    formParam: (name) => (name === 'employeeId' ? 'A-1001' : null),
    header: () => null,
    clientAddress: () => '203.0.113.5',
    configJson: () => '{"hrUrl":"http://hr.test"}',
    newUuid: () => 'uuid',
    nowMs: () => 42,
    log: (level, message) => void calls.push(`log ${level} ${message}`),
    eventDetail: (key, value) => void calls.push(`event ${key}=${value}`),
    httpPostJson: (url, headersJson, body, timeoutMs) => {
      calls.push(`post ${url} ${headersJson} ${body} ${timeoutMs}`);
      return '{"status":200,"body":"{}"}';
    },
    findUsersByAttribute: () => '[{"id":"u1","username":"emp-a","enabled":true,"hasPassword":true,"attributes":{"employee_ref":"HR-1","company":null}}]',
    findUserByUsername: () => null,
    createUser: (username) => `{"id":"u2","username":"${username}","enabled":true,"hasPassword":false,"attributes":{}}`,
    setUserAttributes: (id, json) => void calls.push(`attrs ${id} ${json}`),
    counterClaim: (key, ttl) => {
      calls.push(`claim ${key} ${ttl}`);
      return true;
    },
    counterExists: (key) => {
      calls.push(`exists ${key}`);
      return false;
    },
    counterRemove: (key) => void calls.push(`remove ${key}`),
    valuePut: (key, ttl, value) => void calls.push(`put ${key} ${ttl} ${value}`),
    valueGet: () => null,
    valueTake: (key) => (key === 'held' ? 'v' : null),
    hmacSha256Hex: (key, data) => `hmac(${key},${data})`,
    voucherHashHex: (data) => `voucher(${data})`,
    ...overrides,
  };
}

test('Java nulls become undefined and JSON strings become values', (t) => {
  const host = adaptAuthHost(rawHost());
  t.is(host.request.formParam('employeeId'), 'A-1001');
  t.is(host.request.formParam('citizenId'), undefined);
  t.is(host.request.header('X-Correlation-ID'), undefined);
  t.is(host.request.clientAddress(), '203.0.113.5');
  t.is(adaptAuthHost(rawHost({ clientAddress: () => null })).request.clientAddress(), undefined);
  t.deepEqual(host.config, { hrUrl: 'http://hr.test' });
  t.deepEqual(host.users.findByAttribute('employee_ref', 'x'), [
    { id: 'u1', username: 'emp-a', enabled: true, hasPassword: true, attributes: { employee_ref: 'HR-1' } },
  ]);
  t.is(host.users.findByUsername('nobody'), undefined);
  t.like(host.users.create('emp-b'), { username: 'emp-b', hasPassword: false });
  // A view without the flag counts as holding a password: the employee flow then adopts nothing.
  const unflagged = adaptAuthHost(rawHost({ createUser: () => '{"id":"u3","username":"emp-c","enabled":true,"attributes":{}}' }));
  t.true(unflagged.users.create('emp-c').hasPassword);
});

test('structured values are handed to Java as JSON strings', (t) => {
  const raw = rawHost();
  const host = adaptAuthHost(raw);
  t.deepEqual(host.http.postJson('http://hr.test/v', { 'X-API-Key': 'k' }, { a: 1 }, 3000), { kind: 'response', status: 200, body: '{}' });
  host.users.setAttributes('u1', { company: 'MEMBER_A' });
  t.true(host.counters.claim('k', 60));
  t.false(host.counters.exists('k'));
  host.values.put('c', 300, 'h');
  t.is(host.values.get('c'), undefined, 'a Java null is undefined');
  t.is(host.values.take('held'), 'v');
  t.is(host.hmacHex('k', 'd'), 'hmac(k,d)');
  host.log.warn('careful');
  t.deepEqual(raw.calls, [
    'post http://hr.test/v {"X-API-Key":"k"} {"a":1} 3000',
    'attrs u1 {"company":"MEMBER_A"}',
    'claim k 60',
    'exists k',
    'put c 300 h',
    'log warn careful',
  ]);
});

test('transport failures from Java become typed replies', (t) => {
  for (const failure of ['timeout', 'unreachable'] as const) {
    const host = adaptAuthHost(rawHost({ httpPostJson: () => JSON.stringify({ failure }) }));
    t.deepEqual(host.http.postJson('http://x', {}, {}, 1), { kind: failure });
  }
});
