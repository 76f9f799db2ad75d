import test from 'ava';
import { readFile } from 'node:fs/promises';
import { KC_LOG } from '../keycloak/kc-files.js';
import { hrFault, hrResetLimits, randomEmployeeId, requireServices } from '../keycloak/kc-client.js';
import { waitFor } from '../../helpers/wait-for.js';
import { PortalBrowser, stableError } from './portal-client.js';

// Employee sign-in through the portal against real Keycloak and HR. HR's fault mode is global:
// serial, and restored before each test.
test.before(requireServices);
test.beforeEach(async () => {
  await hrFault('none');
  await hrResetLimits();
});
test.after.always(() => hrFault('none'));

test.serial('an active employee of a member company gets the employee package and a GRANTED session', async (t) => {
  const reply = await new PortalBrowser().employee('A-1001', '079201001234');
  t.is(reply.status, 200, reply.text);
  t.like(reply.body, {
    client: 'wifi-portal-employee-api',
    claims: { user_type: 'EMPLOYEE', employee_verified: true, company: 'MEMBER_A', employee_ref: 'HR-A-0001' },
  });
  t.like(reply.body['entitlement'] as object, {
    entitlementType: 'WIFI_EMPLOYEE_PACKAGE',
    permission: { tier: 'BOOST', qosClass: 'HIGH', deviceSlots: 2, sourceType: 'EMPLOYEE_VERIFICATION', sourceRef: 'HR-A-0001' },
  });
  t.like(reply.body['session'] as object, { state: 'GRANTED', tier: 'BOOST' });
  t.false(reply.text.includes('079201001234'));
});

test.serial('unknown id, wrong and malformed citizen number answer one identical 401', async (t) => {
  const unknown = await new PortalBrowser().employee(randomEmployeeId('Z'), '079201001234');
  const wrong = await new PortalBrowser().employee('A-1001', '079201009999');
  const malformed = await new PortalBrowser().employee('A-1001', '07920-ABC');
  for (const reply of [unknown, wrong, malformed]) t.is(reply.status, 401, reply.text);
  t.is(stableError(wrong), stableError(unknown));
  t.is(stableError(malformed), stableError(unknown));
  t.is(unknown.body['code'], 'INVALID_CREDENTIALS');
  // A success clears A-1001's failed-submit count for later tests.
  t.is((await new PortalBrowser().employee('A-1001', '079201001234')).status, 200);
});

test.serial('a missing field is 400 before any call', async (t) => {
  const reply = await new PortalBrowser().call('POST', '/api/v1/auth/employee', { employeeId: 'A-1001' });
  t.is(reply.status, 400);
  t.is(reply.body['code'], 'INVALID_REQUEST');
});

test.serial('the refusals of rule 3: inactive, disabled account, company not eligible', async (t) => {
  const inactive = await new PortalBrowser().employee('A-1002', '079201002345');
  t.is(inactive.status, 403);
  t.is(inactive.body['code'], 'EMPLOYEE_INACTIVE');
  const disabled = await new PortalBrowser().employee('B-2002', '123456789');
  t.is(disabled.status, 403);
  t.is(disabled.body['code'], 'FORBIDDEN');
  const partner = await new PortalBrowser().employee('X-9001', '079209006789');
  t.is(partner.status, 403, partner.text);
  t.like(partner.body, { code: 'ENTITLEMENT_DENIED', reason: 'COMPANY_NOT_ELIGIBLE', eligible: false });
  t.is(partner.headers.get('set-cookie'), null, 'no portal session for a denial');
});

test.serial('HR timing out is a 504 and HR unavailable a 502; neither grants anything', async (t) => {
  await hrFault('timeout', 8000);
  const timeout = await new PortalBrowser().employee('C-3002', '079203005678');
  t.is(timeout.status, 504, timeout.text);
  t.is(timeout.body['code'], 'HR_SERVICE_TIMEOUT');
  await hrFault('unavailable');
  const down = await new PortalBrowser().employee('C-3002', '079203005678');
  t.is(down.status, 502, down.text);
  t.is(down.body['code'], 'UPSTREAM_UNAVAILABLE');
  t.is(down.headers.get('set-cookie'), null);
});

test.serial('one correlation id per sign-in reaches Keycloak, HR, entitlement and session logs', async (t) => {
  const reply = await new PortalBrowser().employee('B-2001', '079202003456');
  t.is(reply.status, 200, reply.text);
  const id = String(reply.body['correlationId']);
  t.regex(id, /^corr-[0-9a-f-]{36}$/);
  const logs = ['portal', 'hr', 'entitlement', 'session'].map((name) => [name, `.run/logs/${name}.log`] as const);
  for (const [name, file] of [...logs, ['keycloak', KC_LOG] as const]) {
    const logged = await waitFor(async () => (await readFile(file, 'utf8')).includes(id), Boolean, { timeoutMs: 10_000 }).catch(() => false);
    t.true(logged, `${name} logged the sign-in's correlation id`);
  }
});
