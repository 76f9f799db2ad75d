// A replay is a replay on every Keycloak node. A signed REINSTATED applied on
// node 1, then a TERMINATED; the REINSTATED replayed to node 2 (the same bytes, and the same
// signature under a fresh event id) must be DUPLICATE: Keycloak's cluster-wide single-use store
// remembers what node 1 committed. Run inside the failover test's cluster (one start for both).
import { randomUUID } from 'node:crypto';
import type { Cluster } from '../../scripts/cluster.js';
import { signedHeaders } from '../kc-extension/svc-admin/contract/webhook-signing.js';

export interface ReplayResult {
  reinstatedOnNode1: string;
  terminatedOnNode1: string;
  replayOnNode2: string;
  replayNewIdOnNode2: string;
  enabledAfterReplays: boolean;
}

async function token(base: string, realm: string, form: Record<string, string>): Promise<string> {
  const response = await fetch(`${base}/realms/${realm}/protocol/openid-connect/token`, { method: 'POST', body: new URLSearchParams(form) });
  const body = (await response.json()) as Record<string, unknown>;
  if (response.status !== 200) throw new Error(`${realm} token: ${response.status}`);
  return String(body['access_token']);
}

async function call(url: string, bearer: string, method: string, body?: unknown): Promise<unknown> {
  const response = await fetch(url, {
    method,
    headers: { Authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status}`);
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

/**
 * An operator of the production realm, which takes no password grant at admin-cli (the extension's
 * start check refuses one): a confidential client of this test whose service account holds the
 * realm role svc-admin, signed in with its client credentials.
 */
async function operatorToken(node: string, master: string): Promise<string> {
  const clientId = `replay-operator-${randomUUID().slice(0, 8)}`;
  const secret = randomUUID();
  const admin = `${node}/admin/realms/wifi`;
  await call(`${admin}/clients`, master, 'POST', {
    clientId,
    publicClient: false,
    secret,
    serviceAccountsEnabled: true,
    standardFlowEnabled: false,
    directAccessGrantsEnabled: false,
  });
  const [client] = (await call(`${admin}/clients?clientId=${clientId}`, master, 'GET')) as { id: string }[];
  if (client === undefined) throw new Error('the replay operator client was not created');
  const account = (await call(`${admin}/clients/${client.id}/service-account-user`, master, 'GET')) as { id: string };
  const role = await call(`${admin}/roles/svc-admin`, master, 'GET');
  await call(`${admin}/users/${account.id}/role-mappings/realm`, master, 'POST', [role]);
  return token(node, 'wifi', { grant_type: 'client_credentials', client_id: clientId, client_secret: secret });
}

export async function replayAcrossNodes(cluster: Cluster): Promise<ReplayResult> {
  const [node1, node2] = cluster.keycloak.map((slot) => slot.current().url) as [string, string];
  const master = await token(node1, 'master', {
    grant_type: 'password',
    client_id: 'admin-cli',
    username: process.env['KC_BOOTSTRAP_ADMIN_USERNAME'] ?? 'admin',
    password: cluster.secrets.KC_BOOTSTRAP_ADMIN_PASSWORD,
  });
  const operator = await operatorToken(node1, master);
  const code = `REPLAY-${randomUUID().slice(0, 6).toUpperCase()}`;
  const secret = `replay-secret-${randomUUID()}`;
  await call(`${node1}/realms/wifi/svc-admin/api/companies/${code}`, operator, 'PUT', { name: 'Replay across nodes', secret });
  const ref = `REF-${randomUUID().slice(0, 8)}`;
  const username = `emp-replay-${randomUUID().slice(0, 8)}`;
  await call(`${node1}/admin/realms/wifi/users`, master, 'POST', {
    username,
    enabled: false,
    attributes: { user_type: ['EMPLOYEE'], employee_ref: [ref], company: [code], employee_verified: ['true'] },
  });
  const [user] = (await call(`${node1}/admin/realms/wifi/users?exact=true&username=${username}`, master, 'GET')) as { id: string }[];
  if (user === undefined) throw new Error('the replay test user was not created');

  const signed = (type: string) => {
    const body = Buffer.from(JSON.stringify({ type, employeeRef: ref }));
    return { body, headers: signedHeaders(secret, body, Math.floor(Date.now() / 1000)) };
  };
  const deliver = async (node: string, delivery: { body: Buffer; headers: Record<string, string> }): Promise<string> => {
    const response = await fetch(`${node}/realms/wifi/svc-admin/webhook/${code}`, {
      method: 'POST',
      headers: delivery.headers,
      body: new Uint8Array(delivery.body),
    });
    const body = (await response.json()) as Record<string, unknown>;
    return `${response.status} ${String(body['result'] ?? body['code'])}`;
  };
  const reinstated = signed('EMPLOYEE_REINSTATED');
  const reinstatedOnNode1 = await deliver(node1, reinstated);
  const terminatedOnNode1 = await deliver(node1, signed('EMPLOYEE_TERMINATED'));
  const replayOnNode2 = await deliver(node2, reinstated);
  const replayNewIdOnNode2 = await deliver(node2, { ...reinstated, headers: { ...reinstated.headers, 'X-SVC-Event-Id': randomUUID() } });
  const after = (await call(`${node2}/admin/realms/wifi/users/${user.id}`, master, 'GET')) as { enabled: boolean };
  return { reinstatedOnNode1, terminatedOnNode1, replayOnNode2, replayNewIdOnNode2, enabledAfterReplays: after.enabled };
}
