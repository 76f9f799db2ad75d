import { randomUUID } from 'node:crypto';
import test from 'ava';
import { IDP_URL, adminApi, adminToken, tokenRequest, userIdOf } from '../keycloak/kc-client.js';
import { MODULE_URL } from './kc-driver.js';

interface Role {
  id: string;
  name: string;
}

/** An operator of its own, signed in through `admin-cli` as kcadm.sh does: no role claims in its token. */
async function adminCliOperator(master: string): Promise<{ id: string; token: string }> {
  const username = `svc-op-${randomUUID().slice(0, 8)}`;
  const password = `pw-${randomUUID()}`;
  await adminApi(master, 'POST', '/users', { username, enabled: true, credentials: [{ type: 'password', value: password, temporary: false }] });
  const reply = await tokenRequest({ grant_type: 'password', client_id: 'admin-cli', username, password });
  if (reply.status !== 200) throw new Error(`admin-cli token: ${reply.status}`);
  return { id: await userIdOf(master, username), token: String(reply.body['access_token']) };
}

const statusOf = async (url: string, token: string): Promise<number> => (await fetch(url, { headers: { Authorization: `Bearer ${token}` } })).status;
/** What svc-admin and Keycloak's own admin API answer the same token. */
const answers = async (token: string): Promise<{ svcAdmin: number; keycloak: number }> => ({
  svcAdmin: await statusOf(`${MODULE_URL}/api/companies`, token),
  keycloak: await statusOf(`${IDP_URL}/admin/realms/wifi/users?max=1`, token),
});

async function realmManagementRole(master: string, name: string): Promise<{ clientUuid: string; role: Role }> {
  const [client] = (await adminApi(master, 'GET', '/clients?clientId=realm-management')) as { id: string }[];
  const role = (await adminApi(master, 'GET', `/clients/${client!.id}/roles/${name}`)) as Role;
  return { clientUuid: client!.id, role };
}

const operatorRole = async (master: string): Promise<Role> => (await adminApi(master, 'GET', '/roles/svc-admin')) as Role;

test("an admin-cli token is judged by its user's realm role svc-admin, through a group, and a removed group takes effect at once", async (t) => {
  const master = await adminToken();
  const operator = await adminCliOperator(master);
  t.is((await answers(operator.token)).svcAdmin, 403);

  const groupName = `svc-operators-${randomUUID().slice(0, 8)}`;
  await adminApi(master, 'POST', '/groups', { name: groupName });
  const group = ((await adminApi(master, 'GET', `/groups?search=${groupName}&exact=true`)) as { id: string }[])[0]!;
  t.teardown(async () => adminApi(await adminToken(), 'DELETE', `/groups/${group.id}`));
  await adminApi(master, 'POST', `/groups/${group.id}/role-mappings/realm`, [await operatorRole(master)]);
  await adminApi(master, 'PUT', `/users/${operator.id}/groups/${group.id}`);
  t.deepEqual(
    await answers(operator.token),
    { svcAdmin: 200, keycloak: 403 },
    'the same token, once its user is in the group: an svc-admin operator, no Keycloak user manager',
  );

  await adminApi(master, 'DELETE', `/users/${operator.id}/groups/${group.id}`);
  t.is((await answers(operator.token)).svcAdmin, 403, 'the same token, once its user left the group');
});

// Keycloak's user-management roles are not svc-admin's; only its own role lets in.
test("manage-users and realm-admin, Keycloak's own admin roles, do not make an svc-admin operator", async (t) => {
  const master = await adminToken();
  const operator = await adminCliOperator(master);
  const { clientUuid, role } = await realmManagementRole(master, 'realm-admin');
  await adminApi(master, 'POST', `/users/${operator.id}/role-mappings/clients/${clientUuid}`, [role]);
  t.deepEqual(await answers(operator.token), { svcAdmin: 403, keycloak: 200 });
  await adminApi(master, 'POST', `/users/${operator.id}/role-mappings/realm`, [await operatorRole(master)]);
  t.deepEqual(await answers(operator.token), { svcAdmin: 200, keycloak: 200 });
});

// The realm as shipped: the demo operator holds the role, the portal's service account only what account creation needs.
test("the shipped realm: svc-operator holds svc-admin; the portal's service account holds manage-users and not svc-admin", async (t) => {
  const master = await adminToken();
  const roleHolders = (await adminApi(master, 'GET', '/roles/svc-admin/users')) as { username: string }[];
  t.true(roleHolders.some(({ username }) => username === 'svc-operator'));
  t.false(roleHolders.some(({ username }) => username === 'service-account-wifi-portal-api'));
  const portal = await userIdOf(master, 'service-account-wifi-portal-api');
  const { clientUuid } = await realmManagementRole(master, 'manage-users');
  const clientRoles = (await adminApi(master, 'GET', `/users/${portal}/role-mappings/clients/${clientUuid}`)) as Role[];
  t.deepEqual(
    clientRoles.map(({ name }) => name),
    ['manage-users'],
  );
  const realmRoles = (await adminApi(master, 'GET', `/users/${portal}/role-mappings/realm/composite`)) as Role[];
  t.false(realmRoles.some(({ name }) => name === 'svc-admin'));
});
