import test from 'ava';
import { employeeGrant, hrResetLimits, randomEmployeeId, requireServices } from './kc-client.js';

// Through the real Keycloak: the employee authenticator limits attempts per
// client address before HR is asked, so one address guessing employee ids cannot use up HR's
// global ceiling (600 per 60 s, the backstop) and lock every employee out. Keycloak believes
// X-Forwarded-For from loopback (scripts/kc.sh --proxy-trusted-addresses), which gives the
// attempts their distinct addresses here.
// Private addresses: the realm's sslRequired=external refuses plain HTTP from a public one.
const FLOOD = { 'X-Forwarded-For': '10.250.0.1' };
const EMPLOYEE = { 'X-Forwarded-For': '10.250.0.2' };
const ATTEMPTS = 700;

test.before(requireServices);
test.before(hrResetLimits);
test.after.always(hrResetLimits);

const randomCitizen = () => String(Math.floor(Math.random() * 1e12)).padStart(12, '0');

test.serial('700 attempts with random employee ids from one address are limited while a real employee from another address signs in', async (t) => {
  const outcomes = new Map<string, number>();
  let sent = 0;
  const worker = async () => {
    while (sent < ATTEMPTS) {
      sent += 1;
      const reply = await employeeGrant(randomEmployeeId('R'), randomCitizen(), FLOOD);
      const outcome = `${reply.status} ${String(reply.body['error'])}`;
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: 6 }, worker));
  const seen = JSON.stringify(Object.fromEntries(outcomes));
  // 30 per 60 s reach HR (a second window may open while the flood runs); the rest stop at Keycloak.
  t.true((outcomes.get('401 invalid_grant') ?? 0) <= 60, `few attempts reached HR: ${seen}`);
  t.true((outcomes.get('429 rate_limited') ?? 0) >= ATTEMPTS - 60, `the address was limited: ${seen}`);

  const employee = await employeeGrant('C-3002', '079203005678', EMPLOYEE);
  t.is(employee.status, 200, employee.text);
});
