import { randomUUID } from 'node:crypto';
import test from 'ava';
import { putCompany, uniqueCode } from '../../kc-extension/svc-admin/contract/companies-contract.js';
import { signedHeaders } from '../../kc-extension/svc-admin/contract/webhook-signing.js';
import { PORTAL_API, adminApi, adminToken, customerGrant, tokenRequest } from '../keycloak/kc-client.js';
import { kcDriver } from './kc-driver.js';

/**
 * spec 3.3 / 6: after EMPLOYEE_TERMINATED (or SUSPENDED) the account cannot sign in again and
 * a refresh of a token issued before fails, because its sessions were ended and it is disabled.
 * The employee here signs in with a password through the portal client, so the test needs no HR.
 */
for (const type of ['EMPLOYEE_TERMINATED', 'EMPLOYEE_SUSPENDED']) {
  test(`${type}: sessions are ended, the next sign-in is refused and an earlier refresh token fails`, async (t) => {
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
      username, enabled: true,
      attributes: { user_type: ['EMPLOYEE'], employee_ref: [employeeRef], company: [code], employee_verified: ['true'] },
      credentials: [{ type: 'password', value: password, temporary: false }],
    });
    const signIn = await customerGrant(username, password);
    t.is(signIn.status, 200);
    const id = ((await adminApi(master, 'GET', `/users?exact=true&username=${username}`)) as { id: string }[])[0]!.id;
    t.is(((await adminApi(master, 'GET', `/users/${id}/sessions`)) as unknown[]).length, 1);

    const body = Buffer.from(JSON.stringify({ type, employeeRef }));
    const reply = await d.send({ method: 'POST', path: `/webhook/${code}`, body, headers: signedHeaders(secret, body, Math.floor(Date.now() / 1000)) });
    t.like(reply, { status: 200, body: { result: 'APPLIED' } });

    t.is(((await adminApi(master, 'GET', `/users/${id}/sessions`)) as unknown[]).length, 0);
    const refresh = await tokenRequest({ grant_type: 'refresh_token', client_id: PORTAL_API.id, client_secret: PORTAL_API.secret, refresh_token: String(signIn.body['refresh_token']) });
    t.is(refresh.status, 400);
    t.is(refresh.body['error'], 'invalid_grant');
    const again = await customerGrant(username, password);
    t.not(again.status, 200);
  });
}
