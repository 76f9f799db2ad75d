import { randomUUID } from 'node:crypto';
import test from 'ava';
import { putCompany, uniqueCode } from '../../kc-extension/svc-admin/contract/companies-contract.js';
import { signedHeaders } from '../../kc-extension/svc-admin/contract/webhook-signing.js';
import { PORTAL_API, adminApi, adminToken, customerGrant, tokenRequest } from '../keycloak/kc-client.js';
import { URLS } from '../platform-urls.js';
import { kcDriver } from './kc-driver.js';

async function sessionCall(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${URLS.session}${path}`, {
    method,
    headers: { 'X-API-Key': process.env['SESSION_TOOLS_KEY'] ?? 'dev-session-tools-key', 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await response.json()) as Record<string, unknown>;
}

/**
 * spec 3.3 / 6: after EMPLOYEE_TERMINATED (or SUSPENDED) the account cannot sign in again and
 * a refresh of a token issued before fails, because its sessions were ended and it is disabled;
 * its network sessions end too, so the gateways disconnect its devices.
 * The employee here signs in with a password through the portal client, so the test needs no HR.
 */
for (const type of ['EMPLOYEE_TERMINATED', 'EMPLOYEE_SUSPENDED']) {
  test(`${type}: sessions are ended (Keycloak's and the network's), the next sign-in is refused and an earlier refresh token fails`, async (t) => {
    const d = await kcDriver();
    t.teardown(() => d.close());
    const master = await adminToken();
    const code = uniqueCode('TS');
    const secret = 'terminate-secret-0123456789';
    await putCompany(d, code, { name: 'Sessions', secret });
    const username = `emp-sess-${randomUUID().slice(0, 8)}`;
    const employeeRef = `REF-${randomUUID()}`;
    const password = `pw-${randomUUID()}`;
    await adminApi(master, 'POST', '/users', {
      username,
      enabled: true,
      attributes: { user_type: ['EMPLOYEE'], employee_ref: [employeeRef], company: [code], employee_verified: ['true'] },
      credentials: [{ type: 'password', value: password, temporary: false }],
    });
    const signIn = await customerGrant(username, password);
    t.is(signIn.status, 200);
    const id = ((await adminApi(master, 'GET', `/users?exact=true&username=${username}`)) as { id: string }[])[0]!.id;
    t.is(((await adminApi(master, 'GET', `/users/${id}/sessions`)) as unknown[]).length, 1);
    // A network session of this employee, GRANTED at the session service.
    const sessionId = String((await sessionCall('POST', '/api/v1/sessions', { subjectId: id, deviceRef: null }))['sessionId']);
    t.like(
      await sessionCall('POST', `/api/v1/sessions/${sessionId}/grant`, {
        entitlementId: `ent-${randomUUID()}`,
        tier: 'BOOST',
        qosClass: 'HIGH',
        validUntil: new Date(Date.now() + 3_600_000).toISOString(),
      }),
      { state: 'GRANTED' },
    );

    const body = Buffer.from(JSON.stringify({ type, employeeRef }));
    const reply = await d.send({ method: 'POST', path: `/webhook/${code}`, body, headers: signedHeaders(secret, body, Math.floor(Date.now() / 1000)) });
    t.like(reply, { status: 200, body: { result: 'APPLIED' } });

    t.is(((await adminApi(master, 'GET', `/users/${id}/sessions`)) as unknown[]).length, 0);
    t.like(await sessionCall('GET', `/api/v1/sessions/${sessionId}`), { state: 'REVOKED' }, 'the network session ended with the account');
    const refresh = await tokenRequest({
      grant_type: 'refresh_token',
      client_id: PORTAL_API.id,
      client_secret: PORTAL_API.secret,
      refresh_token: String(signIn.body['refresh_token']),
    });
    t.is(refresh.status, 400);
    t.is(refresh.body['error'], 'invalid_grant');
    const again = await customerGrant(username, password);
    t.not(again.status, 200);
  });
}
