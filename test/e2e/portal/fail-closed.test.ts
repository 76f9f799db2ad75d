import test, { type ExecutionContext } from 'ava';
import { freePort } from '../../helpers/postgres-server.js';
import { startServiceProcess, type RunningService } from '../../helpers/process.js';
import { hrFault } from '../keycloak/kc-client.js';
import { URLS } from '../platform-urls.js';

// Spec 1 and 8, fail closed: with any of the identity provider, decision, entitlement or session
// down, no path grants access; with loyalty down a customer still gets the baseline. Each cell
// starts its own portal (and, for the entitlement's peers, its own entitlement) process wired to
// the real platform except for one peer, whose address has nothing listening (a peer that is down).

async function portalWith(overrides: Record<string, string>): Promise<RunningService> {
  return startServiceProcess('portal', await freePort(), {
    DATABASE_URL: 'memory:',
    IDP_URL: URLS.idp,
    ENTITLEMENT_URL: URLS.entitlement,
    SESSION_URL: URLS.session,
    ...overrides,
  });
}

const deadUrl = async () => `http://127.0.0.1:${await freePort()}`;

/** An entitlement process on the real identity provider, decision and loyalty, but for the overrides. */
async function entitlementWith(overrides: Record<string, string>): Promise<RunningService> {
  return startServiceProcess('entitlement', await freePort(), {
    DATABASE_URL: 'memory:',
    IDP_ISSUER: `${URLS.idp}/realms/wifi`,
    IDP_JWKS_URL: `${URLS.idp}/realms/wifi/protocol/openid-connect/certs`,
    DECISION_URL: URLS.decision,
    LOYALTY_URL: URLS.loyalty,
    POLICY_FALLBACK: 'none',
    ...overrides,
  });
}

async function post(portal: RunningService, path: string, body: unknown) {
  const response = await fetch(`${portal.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: portal.url },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, cookie: response.headers.get('set-cookie') };
}

/** A customer and an employee sign-in both answer 502 and leave no portal session. */
async function bothSignInsRefused(t: ExecutionContext, portal: RunningService): Promise<void> {
  for (const [path, body] of [CUSTOMER, EMPLOYEE]) {
    const reply = await post(portal, path, body);
    t.is(reply.status, 502, JSON.stringify(reply.body));
    t.is(reply.body['code'], 'UPSTREAM_UNAVAILABLE');
    t.is(reply.cookie, null, 'no portal session');
  }
}

const CUSTOMER = ['/api/v1/auth/login', { username: 'bob@example.com', password: 'bob-demo-pass' }] as const;
const EMPLOYEE = ['/api/v1/auth/employee', { employeeId: 'C-3002', citizenId: '079203005678' }] as const;

for (const [peer, setting] of [
  ['identity provider', 'IDP_URL'],
  ['entitlement service', 'ENTITLEMENT_URL'],
  ['session service', 'SESSION_URL'],
] as const) {
  test.serial(`${peer} down: customer and employee sign-ins answer 502 and grant nothing`, async (t) => {
    const portal = await portalWith({ [setting]: await deadUrl() });
    t.teardown(() => portal.stop());
    await bothSignInsRefused(t, portal);
    const captive = await (await fetch(`${portal.url}/api/captive`)).json();
    t.like(captive, { captive: true });
  });
}

test.serial('HR down: the employee flow fails closed while customers are unaffected', async (t) => {
  await hrFault('unavailable');
  t.teardown(() => hrFault('none'));
  const portal = await portalWith({});
  t.teardown(() => portal.stop());
  const employee = await post(portal, ...EMPLOYEE);
  t.is(employee.status, 502);
  t.is(employee.cookie, null);
  const customer = await post(portal, ...CUSTOMER);
  t.is(customer.status, 200, JSON.stringify(customer.body));
});

test.serial('decision service down: customer and employee sign-ins grant nothing', async (t) => {
  const entitlement = await entitlementWith({ DECISION_URL: await deadUrl() });
  t.teardown(() => entitlement.stop());
  const portal = await portalWith({ ENTITLEMENT_URL: entitlement.url });
  t.teardown(() => portal.stop());
  await bothSignInsRefused(t, portal);
});

test.serial('loyalty down: a GOLD member still gets the customer baseline, decided without a tier', async (t) => {
  const entitlement = await entitlementWith({ LOYALTY_URL: await deadUrl() });
  t.teardown(() => entitlement.stop());
  const portal = await portalWith({ ENTITLEMENT_URL: entitlement.url });
  t.teardown(() => portal.stop());
  const gold = { username: 'gold@demo.example', password: 'gold-demo-pass' };
  // Control: through the platform's own portal, loyalty up, the member gets the tier's package.
  const control = await fetch(`${URLS.portal}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: URLS.portal },
    body: JSON.stringify(gold),
  });
  t.like(await control.json(), { entitlement: { permission: { sourceType: 'LOYALTY_TIER' } } });
  const reply = await post(portal, '/api/v1/auth/login', gold);
  t.is(reply.status, 200, JSON.stringify(reply.body));
  const permission = (reply.body['entitlement'] as { permission: Record<string, unknown> }).permission;
  t.like(permission, { sourceType: 'IDP_ID_LOGIN', deviceSlots: 1 });
  t.like(reply.body['session'], { state: 'GRANTED' });
  t.not(reply.cookie, null);
});
