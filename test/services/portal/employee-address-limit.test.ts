import test from 'ava';
import { assertError } from '../../helpers/error-shape.js';
import { ACTIVE, hrService } from '../hr/hr-service.js';
import { bootPortal, defaultFakes } from './portal-fakes.js';

// Strangers cannot lock employees out. The portal limits employee sign-ins per
// client address (as the trusted proxy reports it) before any call; HR's global ceiling
// (600 a minute) stays the backstop. A fake Keycloak asks a real HR, as the authenticator does.
test('700 employee sign-ins from one address are limited there, and a real employee from another address still signs in', async (t) => {
  const hr = await hrService(t);
  const fakes = defaultFakes();
  const grant = fakes.grant;
  fakes.employeeGrant = async (employeeId, citizenId) => {
    const answer = await hr.verify({ employeeId, citizenId });
    if (answer.status === 429) return { kind: 'refused', error: 'rate_limited', status: 400 };
    if (answer.status !== 200) return { kind: 'unreachable' };
    return answer.body['verified'] === true && answer.body['active'] === true ? grant : { kind: 'refused', error: 'invalid_grant', status: 401 };
  };
  const portal = await bootPortal(t, fakes, { PORTAL_TRUSTED_PROXIES: 'loopback' });
  const from = (address: string) => ({ 'x-forwarded-for': address });

  const statuses = new Map<number, number>();
  for (let batch = 0; batch < 35; batch += 1) {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        portal.post('/api/v1/auth/employee', { employeeId: `Z-${batch}-${i}`, citizenId: '000000000000' }, from('203.0.113.7')),
      ),
    );
    for (const answer of answers) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
  }
  t.is(statuses.get(401), 30, 'the first 30 attempts of the minute are heard (and refused)');
  t.is(statuses.get(429), 670, 'the rest are RATE_LIMITED');
  t.is(portal.fakes.calls.filter((call) => call.startsWith('idp.employee')).length, 30, 'a limited attempt calls nobody');
  assertError(t, await portal.post('/api/v1/auth/employee', { employeeId: 'Z-x', citizenId: '000000000000' }, from('203.0.113.7')), 429, 'RATE_LIMITED');

  const employee = await portal.post('/api/v1/auth/employee', ACTIVE, from('198.51.100.20'));
  t.is(employee.status, 200, employee.text);
  t.like(employee.body, { authenticated: true });
});
