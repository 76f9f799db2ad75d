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

test('an admin-cli token is judged by its user\'s roles, through a group, as Keycloak\'s admin API judges it, and a removed group takes effect at once', async (t) => {
  const master = await adminToken();
  const operator = await adminCliOperator(master);
  t.deepEqual(await answers(operator.token), { svcAdmin: 403, keycloak: 403 });

  const { clientUuid, role } = await realmManagementRole(master, 'manage-users');
  const groupName = `svc-operators-${randomUUID().slice(0, 8)}`;
  await adminApi(master, 'POST', '/groups', { name: groupName });
  const group = ((await adminApi(master, 'GET', `/groups?search=${groupName}&exact=true`)) as { id: string }[])[0]!;
  t.teardown(async () => adminApi(await adminToken(), 'DELETE', `/groups/${group.id}`));
  await adminApi(master, 'POST', `/groups/${group.id}/role-mappings/clients/${clientUuid}`, [role]);
  await adminApi(master, 'PUT', `/users/${operator.id}/groups/${group.id}`);
  t.deepEqual(await answers(operator.token), { svcAdmin: 200, keycloak: 200 }, 'the same token, once its user is in the group');

  await adminApi(master, 'DELETE', `/users/${operator.id}/groups/${group.id}`);
  t.deepEqual(await answers(operator.token), { svcAdmin: 403, keycloak: 403 }, 'the same token, once its user left the group');
});

test('realm-admin, a composite holding manage-users, lets an admin-cli token in', async (t) => {
  const master = await adminToken();
  const operator = await adminCliOperator(master);
  const { clientUuid, role } = await realmManagementRole(master, 'realm-admin');
  await adminApi(master, 'POST', `/users/${operator.id}/role-mappings/clients/${clientUuid}`, [role]);
  t.deepEqual(await answers(operator.token), { svcAdmin: 200, keycloak: 200 });
});
