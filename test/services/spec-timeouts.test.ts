import test from 'ava';
import { EntitlementConfig } from '../../services/entitlement/config.js';
import { CUSTOMER_CLIENT, EMPLOYEE_CLIENT, IDP_TIMEOUT_MS } from '../../services/portal/idp-client.js';
import { UPSTREAM_TIMEOUT_MS } from '../../services/portal/upstreams.js';

// Spec 8, "Timeouts and retries": the defaults the services ship with. A changed budget must be a
// decision (and a change here), not an accident.
test('portal -> identity provider: customer grant 5000 ms, employee grant 12000 ms (above HR 3000 ms x 2)', (t) => {
  t.deepEqual(IDP_TIMEOUT_MS, { [CUSTOMER_CLIENT]: 5000, [EMPLOYEE_CLIENT]: 12_000 });
});

test('portal -> entitlement and session create / grant: 5000 ms', (t) => {
  t.is(UPSTREAM_TIMEOUT_MS, 5000);
});

test('entitlement -> loyalty 2000 ms; entitlement -> public-key fetch 4000 ms', (t) => {
  const config = EntitlementConfig.parse({});
  t.is(config.LOYALTY_TIMEOUT_MS, 2000);
  t.is(config.JWKS_TIMEOUT_MS, 4000);
});
