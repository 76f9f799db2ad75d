// Remember-on-commit proven in real Keycloak. The test run's Keycloak has
// TEST_HARNESS=true, so the webhook honours X-Test-Force-Rollback (with an operator's token): the
// event is judged and applied, then the request's transaction is rolled back as a failed commit
// would be. The sender's retry of the very same delivery is then applied, not DUPLICATE. Seen
// failing (the retry answered DUPLICATE) with the wrapper remembering at once instead of after the
// commit; scripts/mutations.ts cannot run it (it needs the platform), so that break was by hand.
import { randomUUID } from 'node:crypto';
import test from 'ava';
import { putCompany, uniqueCode } from '../../kc-extension/svc-admin/contract/companies-contract.js';
import { signedHeaders } from '../../kc-extension/svc-admin/contract/webhook-signing.js';
import { adminApi } from '../keycloak/kc-client.js';
import { kcDriver } from './kc-driver.js';

const SECRET = `e2e-rollback-secret-${randomUUID()}`;

test('a delivery whose transaction rolled back is not remembered: the retry of the same bytes is APPLIED, the next one DUPLICATE', async (t) => {
  const d = await kcDriver();
  t.teardown(() => d.close());
  const code = uniqueCode('ROLLBACK');
  t.is((await putCompany(d, code, { name: 'Rollback', secret: SECRET })).status, 200);
  const ref = `REF-${randomUUID().slice(0, 8)}`;
  const id = await d.createEmployee(ref, code);
  await adminApi(d.tokens.master, 'PUT', `/users/${id}`, { enabled: false });
  t.false((await d.employee(id)).enabled);

  const raw = Buffer.from(JSON.stringify({ type: 'EMPLOYEE_REINSTATED', employeeRef: ref }));
  const headers = signedHeaders(SECRET, raw, Math.floor(Date.now() / 1000));
  const deliver = (extra: Record<string, string> = {}, token?: string) =>
    d.send({ method: 'POST', path: `/webhook/${code}`, body: raw, headers: { ...headers, ...extra }, ...(token === undefined ? {} : { token }) });

  t.like(await deliver({ 'X-Test-Force-Rollback': 'true' }), { status: 401 }, "the switch needs the service's key: an operator");
  const forced = await deliver({ 'X-Test-Force-Rollback': 'true' }, d.tokens.operator);
  t.like(forced, { status: 500, body: { code: 'INTERNAL_ERROR' } });
  t.false((await d.employee(id)).enabled, 'Keycloak rolled the reinstatement back');

  t.like(await deliver(), { status: 200, body: { result: 'APPLIED' } }, "the sender's retry: same event id, same signature");
  t.true((await d.employee(id)).enabled);
  t.like(await deliver(), { status: 200, body: { result: 'DUPLICATE' } });
});
