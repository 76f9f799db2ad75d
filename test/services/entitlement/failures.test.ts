import { randomUUID } from 'node:crypto';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { assertError } from '../../helpers/error-shape.js';
import { freePort } from '../../helpers/postgres-server.js';
import { waitFor } from '../../helpers/wait-for.js';
import { bootEntitlement, customerClaims, employeeClaims, loyaltyStub, sharedPeers } from './harness.js';

// Fail closed (spec 1, 8): no decision means no entitlement; loyalty never gates access.
const shared = sharedPeers(test);

const boot = (t: ExecutionContext, env: Record<string, string>) =>
  bootEntitlement(t, shared.db, { IDP_JWKS_URL: shared.keys.url, DECISION_URL: shared.decision.url, ...env });

test('decision service down: 503 DMN_UNAVAILABLE for customers and employees, nothing stored', async (t) => {
  const service = await boot(t, { DECISION_URL: `http://127.0.0.1:${await freePort()}`, LOYALTY_URL: '' });
  const customer = customerClaims();
  const employee = employeeClaims('MEMBER_A');
  assertError(t, await service.evaluate(await shared.keys.token(customer)), 503, 'DMN_UNAVAILABLE');
  assertError(t, await service.evaluate(await shared.keys.token(employee)), 503, 'DMN_UNAVAILABLE');
  t.deepEqual(await shared.db.query('SELECT count(*)::int AS n FROM entitlements WHERE subject_id IN ($1, $2)', [customer.sub, employee.sub]), [{ n: 0 }]);
});

test('a connection to the decision service lost under the request is sent once more: the sign-in gets its entitlement', async (t) => {
  // In front of the real decision service, a peer that drops the first connection it is given.
  let seen = 0;
  const front = createServer((req, res) => {
    seen += 1;
    if (seen === 1) {
      req.socket.destroy();
      return;
    }
    req.pipe(
      request(`${shared.decision.url}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      }),
    );
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => front.close(() => resolve())));
  const service = await boot(t, { DECISION_URL: `http://127.0.0.1:${(front.address() as AddressInfo).port}`, LOYALTY_URL: '' });
  const reply = await service.evaluate(await shared.keys.token(customerClaims()));
  t.is(reply.status, 201, reply.text);
  t.is(seen, 2);
});

test('decision service down with POLICY_FALLBACK=local: the same model decides in process', async (t) => {
  const service = await boot(t, { DECISION_URL: `http://127.0.0.1:${await freePort()}`, LOYALTY_URL: '', POLICY_FALLBACK: 'local' });
  const employee = await service.evaluate(await shared.keys.token(employeeClaims('MEMBER_C')));
  t.is(employee.status, 201, employee.text);
  t.is(employee.body['entitlementType'], 'WIFI_EMPLOYEE_PACKAGE');
  const partner = await service.evaluate(await shared.keys.token(employeeClaims('PARTNER-X')));
  assertError(t, partner, 403, 'ENTITLEMENT_DENIED');
  t.true(service.lines.some((line) => line.includes('local fallback')));
});

test('a model that cannot evaluate is 422 DMN_EVALUATION_ERROR, never a denial', async (t) => {
  const service = await boot(t, { DECISION_NAME: 'NoSuchDecision', LOYALTY_URL: '' });
  assertError(t, await service.evaluate(await shared.keys.token(customerClaims())), 422, 'DMN_EVALUATION_ERROR');
});

for (const mode of ['hang', 'unavailable', 'garbage'] as const) {
  test(`loyalty ${mode}: a GOLD member still gets the customer baseline`, async (t) => {
    const loyalty = await loyaltyStub(t);
    loyalty.control.mode = mode;
    // Only the hanging case needs a short budget; the others must not time out on a busy machine.
    const service = await boot(t, { LOYALTY_URL: loyalty.url, LOYALTY_TIMEOUT_MS: mode === 'hang' ? '300' : '5000' });
    const reply = await service.evaluate(await shared.keys.token(customerClaims('gold@demo.example')));
    t.is(reply.status, 201, reply.text);
    t.like(reply.body, { entitlementType: 'WIFI_CUSTOMER_BASIC', permission: { sourceType: 'IDP_ID_LOGIN' } });
    const source = { hang: 'timeout', unavailable: 'http-503', garbage: 'bad-response' }[mode];
    t.true(
      service.lines.some((line) => line.includes(`"loyaltySource":"${source}"`) && line.includes('"level":40')),
      `logged at warn as ${source}`,
    );
  });
}

test('loyalty not configured: the baseline, recorded as not-configured', async (t) => {
  const service = await boot(t, { LOYALTY_URL: '' });
  t.is((await service.evaluate(await shared.keys.token(customerClaims('gold@demo.example')))).body['entitlementType'], 'WIFI_CUSTOMER_BASIC');
  t.true(service.lines.some((line) => line.includes('"loyaltySource":"not-configured"')));
});

test('while loyalty keeps hanging the breaker opens: later sign-ins skip the wait; a half-open probe recovers', async (t) => {
  const loyalty = await loyaltyStub(t);
  loyalty.control.mode = 'hang';
  const service = await boot(t, { LOYALTY_URL: loyalty.url, LOYALTY_TIMEOUT_MS: '300', LOYALTY_BREAKER_FAILURES: '2', LOYALTY_BREAKER_HALF_OPEN_MS: '400' });
  const gold = async (correlationId = `corr-${randomUUID()}`) =>
    service.evaluate(await shared.keys.token(customerClaims('gold@demo.example')), undefined, { 'X-Correlation-ID': correlationId });
  // Two lookups time out (whether or not a busy machine let them reach loyalty in 300 ms), and
  // the breaker opens on them.
  for (let i = 0; i < 2; i++) t.is((await gold()).body['entitlementType'], 'WIFI_CUSTOMER_BASIC');
  t.like((await service.request('GET', '/health')).body, { loyaltyBreaker: 'open' });
  // Asked by correlation id, not by counting: a timed-out lookup may still land at loyalty late.
  const skipped = `corr-${randomUUID()}`;
  t.is((await gold(skipped)).body['entitlementType'], 'WIFI_CUSTOMER_BASIC');
  t.false(loyalty.asked(skipped), 'the open breaker did not call loyalty');
  t.true(
    service.lines.some((line) => line.includes(skipped) && line.includes('"loyaltyBreaker":"open"')),
    'the skipped lookup is logged with the open breaker',
  );
  loyalty.control.mode = 'normal';
  // Wait on the condition: once the breaker lets its probe through, the member is recognised again.
  const recovered = await waitFor(
    async () => (await gold()).body['entitlementType'],
    (type) => type === 'WIFI_CUSTOMER_PLUS',
    { timeoutMs: 10_000, intervalMs: 100 },
  );
  t.is(recovered, 'WIFI_CUSTOMER_PLUS');
  t.like((await service.request('GET', '/health')).body, { loyaltyBreaker: 'closed' });
});
