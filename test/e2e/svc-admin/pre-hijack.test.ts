// Account pre-hijack through import, the whole story on the real platform: a stranger registers a
// future employee's address through the portal (a password of his own, the address unverified); the
// company's file names that address. The import links nothing; the employee's HR sign-in makes an
// account of its own; the stranger keeps the customer baseline. Then the leftovers of the old flaw
// (the stranger's account already carrying the employee's reference and claims, as a link by email
// and a first HR sign-in used to leave it): the HR sign-in does not adopt it, and its customer
// token reaches no employee rule. HR's A-1101 serves this test alone.
import test from 'ava';
import { importCompany, ImportReply, postImport } from '../../kc-extension/svc-admin/contract/import-contract.js';
import { adminApi, adminToken, customerGrant, hrFault, hrResetLimits, jwtClaims, requireServices } from '../keycloak/kc-client.js';
import { freshEmail, PortalBrowser } from '../portal/portal-client.js';
import { kcDriver } from './kc-driver.js';

const EMPLOYEE = { employeeId: 'A-1101', citizenId: '079201101111', employeeRef: 'HR-A-0101' };
const EMPLOYEE_CLAIMS = ['employee_verified', 'employee_ref', 'company', 'wifi_eligible'];

test.before(async () => {
  await requireServices();
  await hrFault('none');
  await hrResetLimits();
});

test.serial('pre-hijack: an address registered ahead of the employee is never linked, adopted or given the employee package', async (t) => {
  const d = await kcDriver();
  t.teardown(() => d.close());
  const master = await adminToken();
  const email = freshEmail('future-employee');
  const password = 'strangers-own-password';

  const registered = await new PortalBrowser().register(email, password);
  t.is(registered.status, 200, registered.text);
  const strangerId = String((registered.body['claims'] as Record<string, unknown>)['sub']);

  const company = await importCompany(d);
  const row = { employeeId: EMPLOYEE.employeeRef, email, citizenId: EMPLOYEE.citizenId };
  const commit = ImportReply.parse((await postImport(d, 'commit', { company, rows: [row] })).body);
  t.like(commit.outcomes[0], { action: 'REVIEW_EMAIL_MATCH', matchedUserId: strangerId });
  const untouched = await d.employee(strangerId);
  for (const name of ['user_type', 'employee_ref', 'company', 'cccd_link', 'employee_verified']) t.is(untouched.attributes[name], undefined, name);

  // The old flaw's leftovers on the stranger's account.
  const user = (await adminApi(master, 'GET', `/users/${strangerId}`)) as Record<string, unknown>;
  await adminApi(master, 'PUT', `/users/${strangerId}`, {
    ...user,
    attributes: { user_type: ['EMPLOYEE'], employee_ref: [EMPLOYEE.employeeRef], company: ['MEMBER_A'], employee_verified: ['true'], wifi_eligible: ['true'] },
  });
  const token = await customerGrant(email, password);
  t.is(token.status, 200, token.text);
  const claims = jwtClaims(token.body['access_token']);
  t.is(claims['azp'], 'wifi-portal-api');
  for (const name of EMPLOYEE_CLAIMS) t.false(name in claims, `the customer client maps no ${name}`);
  const strangerLogin = await new PortalBrowser().login(email, password);
  t.is(strangerLogin.status, 403, strangerLogin.text);
  t.like(strangerLogin.body, { code: 'ENTITLEMENT_DENIED', reason: 'EMPLOYEE_NOT_VERIFIED' });

  const adopted = await new PortalBrowser().employee(EMPLOYEE.employeeId, EMPLOYEE.citizenId);
  t.is(adopted.status, 403, adopted.text);
  t.like(adopted.body, { code: 'FORBIDDEN' });
  t.is((await d.employee(strangerId)).attributes['employee_ref'], EMPLOYEE.employeeRef, 'the HR sign-in wrote nothing');

  // An operator takes the reference off the stranger's account: the employee gets an account of its own.
  await adminApi(master, 'PUT', `/users/${strangerId}`, {
    ...user,
    attributes: { user_type: [], employee_ref: [], company: [], employee_verified: [], wifi_eligible: [] },
  });
  t.is((await d.employee(strangerId)).attributes['employee_ref'], undefined);
  const employee = await new PortalBrowser().employee(EMPLOYEE.employeeId, EMPLOYEE.citizenId);
  t.is(employee.status, 200, employee.text);
  t.not((employee.body['claims'] as Record<string, unknown>)['sub'], strangerId);
  t.like(employee.body['entitlement'] as object, { entitlementType: 'WIFI_EMPLOYEE_PACKAGE', permission: { sourceRef: EMPLOYEE.employeeRef } });
  const stranger = await new PortalBrowser().login(email, password);
  t.is(stranger.status, 200, stranger.text);
  t.like(stranger.body['entitlement'] as object, { entitlementType: 'WIFI_CUSTOMER_BASIC' });
});
