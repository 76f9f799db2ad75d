import test from 'ava';
import { readFile } from 'node:fs/promises';
import { waitFor } from '../../helpers/wait-for.js';
import { KC_LOG, filesContaining, keycloakDataFiles, latestWrite } from './kc-files.js';
import { employeeGrant, hrFault, hrResetLimits, hrVerify, jwtClaims, randomEmployeeId, requireServices } from './kc-client.js';

// Synthetic employees of services/hr/README.md. These tests flip HR's global fault mode, so
// they run serially, in one file, and restore `none` before each one. The privacy test comes
// last and sends its canary through every path above again.
const ACTIVE = { employeeId: 'A-1001', citizenId: '079201001234' };
const INACTIVE = { employeeId: 'A-1002', citizenId: '079201002345' };
const DISABLED_ACCOUNT = { employeeId: 'B-2002', citizenId: '123456789' };
const FAULT_VICTIM = { employeeId: 'C-3002', citizenId: '079203005678' };
// CANARY-01's synthetic citizen number exists to be searched for.
const CANARY = '987650001234';
const CANARY_EMPLOYEE = 'CANARY-01';

test.before(requireServices);
test.beforeEach(async () => {
  await hrFault('none');
  await hrResetLimits();
});
test.after.always(() => hrFault('none'));

test.serial('an active employee gets access and ID tokens with the employee claims', async (t) => {
  const reply = await employeeGrant(ACTIVE.employeeId, ACTIVE.citizenId);
  t.is(reply.status, 200, reply.text);
  for (const token of [reply.body['access_token'], reply.body['id_token']]) {
    const claims = jwtClaims(token);
    t.like(claims, {
      user_type: 'EMPLOYEE',
      employee_verified: true,
      employee_ref: 'HR-A-0001',
      company: 'MEMBER_A',
      preferred_username: 'emp-a-1001',
    });
  }
  const aud = jwtClaims(reply.body['access_token'])['aud'] as string[];
  t.deepEqual([...aud].sort(), ['account', 'wifi-portal-api', 'wifi-portal-employee-api']);
});

test.serial('unknown id, wrong citizen number and malformed citizen number give identical 401 bodies', async (t) => {
  const unknown = await employeeGrant(randomEmployeeId('Z'), ACTIVE.citizenId);
  const wrong = await employeeGrant(ACTIVE.employeeId, '079201009999');
  const malformed = await employeeGrant(ACTIVE.employeeId, '07920-ABC');
  t.is(unknown.status, 401);
  t.is(wrong.status, 401);
  t.is(malformed.status, 401);
  t.is(wrong.text, unknown.text);
  t.is(malformed.text, unknown.text);
  t.deepEqual(unknown.body, { error: 'invalid_grant', error_description: 'Invalid employee credentials' });
  // A success clears A-1001's failed-submit count so reruns start clean.
  t.is((await employeeGrant(ACTIVE.employeeId, ACTIVE.citizenId)).status, 200);
});

test.serial('a missing citizen number is a 400 invalid_request', async (t) => {
  const reply = await employeeGrant(ACTIVE.employeeId, '');
  t.is(reply.status, 400);
  t.is(reply.body['error'], 'invalid_request');
});

test.serial('an inactive employee gets 403 employee_inactive', async (t) => {
  const reply = await employeeGrant(INACTIVE.employeeId, INACTIVE.citizenId);
  t.is(reply.status, 403);
  t.deepEqual(reply.body, { error: 'employee_inactive', error_description: 'EMPLOYEE_INACTIVE' });
});

test.serial('a disabled employee account is refused even though HR verifies the employee', async (t) => {
  const reply = await employeeGrant(DISABLED_ACCOUNT.employeeId, DISABLED_ACCOUNT.citizenId);
  t.is(reply.status, 403);
  t.is(reply.body['error'], 'account_disabled');
  t.false('access_token' in reply.body);
});

test.serial('an HR timeout never yields a token and reads as hr_timeout (portal: 504)', async (t) => {
  await hrFault('timeout', 4000);
  const reply = await employeeGrant(FAULT_VICTIM.employeeId, FAULT_VICTIM.citizenId);
  t.is(reply.status, 504);
  t.is(reply.body['error'], 'hr_timeout');
  t.false('access_token' in reply.body);
});

test.serial('an unavailable HR never yields a token and reads as hr_unavailable', async (t) => {
  await hrFault('unavailable');
  const reply = await employeeGrant(FAULT_VICTIM.employeeId, FAULT_VICTIM.citizenId);
  t.is(reply.status, 503);
  t.is(reply.body['error'], 'hr_unavailable');
  t.false('access_token' in reply.body);
});

test.serial('the sixth failed submit for one employee id within the window is rate limited', async (t) => {
  const employeeId = randomEmployeeId('LIMIT');
  for (let i = 1; i <= 5; i++) t.is((await employeeGrant(employeeId, '079201009999')).status, 401);
  // HR counts the same five failures and would answer 429 itself: clear its count, so only the
  // authenticator's own limit can refuse the sixth submit.
  await hrResetLimits();
  const sixth = await employeeGrant(employeeId, '079201009999');
  t.is(sixth.status, 429);
  t.deepEqual(sixth.body, { error: 'rate_limited', error_description: 'RATE_LIMITED' });
  // HR itself still answers this id normally: the 429 did not come from HR.
  const hr = await hrVerify(employeeId, '079201009999');
  t.is(hr.status, 200);
  t.is(hr.body['verified'], false);
});

test.serial('a canary citizen number sent through every employee path is absent from Keycloak logs and database', async (t) => {
  const bogusCorrelation = { 'X-Correlation-ID': `corr-${CANARY}` };
  t.is((await employeeGrant(CANARY_EMPLOYEE, CANARY, bogusCorrelation)).status, 200);
  t.is((await employeeGrant('Z-0001', CANARY)).status, 401);
  t.is((await employeeGrant(ACTIVE.employeeId, CANARY)).status, 401);
  t.is((await employeeGrant(INACTIVE.employeeId, CANARY)).status, 401);
  t.is((await employeeGrant(DISABLED_ACCOUNT.employeeId, CANARY)).status, 401);
  t.is((await employeeGrant(CANARY_EMPLOYEE, `${CANARY}x`)).status, 401);
  await hrFault('timeout', 3500);
  t.is((await employeeGrant(CANARY_EMPLOYEE, CANARY)).status, 504);
  await hrFault('unavailable');
  t.is((await employeeGrant(CANARY_EMPLOYEE, CANARY)).status, 503);
  await hrFault('none');
  // Successes clear the failed-submit counts this test added.
  t.is((await employeeGrant(ACTIVE.employeeId, ACTIVE.citizenId)).status, 200);
  t.is((await employeeGrant(CANARY_EMPLOYEE, CANARY)).status, 200);
  // H2 writes its store about once a second: wait until a data file was written after the last login.
  const lastLogin = Date.now();
  await waitFor(
    async () => latestWrite(await keycloakDataFiles()),
    (written) => written > lastLogin,
    { timeoutMs: 15_000, intervalMs: 200 },
  );

  const log = await readFile(KC_LOG, 'utf8');
  t.true(log.includes('employee signed in employee_ref=HR-CANARY-01'), 'the log is the live one of this Keycloak');
  t.false(log.includes(CANARY), 'canary found in the Keycloak log');
  const files = await keycloakDataFiles();
  // Positive control: the employee reference written by the same logins is found in the files.
  t.not((await filesContaining(files, 'HR-CANARY-01')).length, 0, "the database files hold this run's writes");
  t.deepEqual(await filesContaining(files, CANARY), []);
});
