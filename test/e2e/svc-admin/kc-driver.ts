import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Driver } from '../../kc-extension/svc-admin/contract/driver.js';
import { IDP_URL, adminApi, adminToken, clientCredentialsGrant, customerGrant, tokenRequest, userIdOf } from '../keycloak/kc-client.js';

export const MODULE_URL = `${IDP_URL}/realms/wifi/svc-admin`;
/** The decision service Keycloak's realm was imported with (scripts/kc.sh DECISION_URL). */
export const DECISION_URL = process.env['DECISION_URL'] ?? 'http://localhost:3005';

/**
 * An operator of its own holding the realm role `svc-admin`, signed in through
 * `admin-cli` as kcadm.sh does. Not the demo `svc-operator`, whose brute-force state a person may touch.
 */
export async function operatorToken(master?: string): Promise<string> {
  const admin = master ?? (await adminToken());
  const username = `svc-op-${randomUUID().slice(0, 8)}`;
  const password = `pw-${randomUUID()}`;
  await adminApi(admin, 'POST', '/users', { username, enabled: true, credentials: [{ type: 'password', value: password, temporary: false }] });
  const role = await adminApi(admin, 'GET', '/roles/svc-admin');
  await adminApi(admin, 'POST', `/users/${await userIdOf(admin, username)}/role-mappings/realm`, [role]);
  const reply = await tokenRequest({ grant_type: 'password', client_id: 'admin-cli', username, password });
  if (reply.status !== 200) throw new Error(`operator token: ${reply.status}`);
  return String(reply.body['access_token']);
}

/** The portal's service account (client credentials of wifi-portal-api): manage-users, no svc-admin. */
async function portalToken(): Promise<string> {
  const reply = await clientCredentialsGrant();
  if (reply.status !== 200) throw new Error(`portal token: ${reply.status}`);
  return String(reply.body['access_token']);
}

/** A customer of its own (not a shared demo account, whose brute-force state other suites touch). */
async function customerToken(master: string): Promise<string> {
  const username = `svc-customer-${randomUUID().slice(0, 8)}@example.com`;
  const password = `pw-${randomUUID()}`;
  await adminApi(master, 'POST', '/users', {
    username,
    email: username,
    enabled: true,
    attributes: { user_type: ['CUSTOMER'] },
    credentials: [{ type: 'password', value: password, temporary: false }],
  });
  const reply = await customerGrant(username, password);
  if (reply.status !== 200) throw new Error(`customer token: ${reply.status}`);
  return String(reply.body['access_token']);
}

async function listen(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<Server> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const origin = (server: Server): string => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

/** A Driver over the running Keycloak at IDP_URL. */
export async function kcDriver(): Promise<Driver & { close(): Promise<void> }> {
  const master = await adminToken();
  // The master realm's tokens live 60 s and the contract suite runs longer on a loaded machine:
  // each admin call made after the start signs in again.
  const admin = (): Promise<string> => adminToken();
  const [operator, customer, portal] = await Promise.all([operatorToken(master), customerToken(master), portalToken()]);
  const healthy = await listen((request, response) => response.writeHead(request.url === '/health' ? 200 : 404).end());
  const closed = await listen(() => undefined);
  const deadOrigin = origin(closed);
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  return {
    tokens: { operator, customer, master, portal },
    healthyOrigin: origin(healthy),
    deadOrigin,
    decisionUrl: DECISION_URL,
    // A realm update replaces the whole attribute map: send every attribute back.
    setDecisionUrl: async (url) => {
      const { attributes } = (await adminApi(await admin(), 'GET', '')) as { attributes: Record<string, string> };
      await adminApi(await admin(), 'PUT', '', { attributes: { ...attributes, 'svc-admin.decisionUrl': url } });
    },
    nowMs: () => Date.now(),
    send: async (request) => {
      const query = request.query === undefined ? '' : `?${new URLSearchParams(request.query).toString()}`;
      const response = await fetch(`${MODULE_URL}${request.path}${query}`, {
        method: request.method,
        headers: { ...request.headers, ...(request.token === undefined ? {} : { Authorization: `Bearer ${request.token}` }) },
        body: typeof request.body === 'string' || request.body === undefined ? request.body : new Uint8Array(request.body),
      });
      const text = await response.text();
      const body: unknown = (response.headers.get('content-type') ?? '').startsWith('application/json') ? JSON.parse(text) : text;
      return { status: response.status, body, headers: Object.fromEntries(response.headers) };
    },
    createEmployee: async (employeeRef, company) => {
      const username = `emp-contract-${randomUUID()}`;
      const token = await admin();
      await adminApi(token, 'POST', '/users', {
        username,
        enabled: true,
        attributes: { user_type: ['EMPLOYEE'], employee_ref: [employeeRef], company: [company], employee_verified: ['true'] },
      });
      return userIdOf(token, username);
    },
    createAccount: async (email, options) => {
      const token = await admin();
      await adminApi(token, 'POST', '/users', {
        username: email,
        email,
        emailVerified: options.emailVerified,
        enabled: true,
        ...(options.password ? { credentials: [{ type: 'password', value: `pw-${randomUUID()}`, temporary: false }] } : {}),
      });
      return userIdOf(token, email);
    },
    employee: async (id) => {
      const user = (await adminApi(await admin(), 'GET', `/users/${id}`)) as { enabled: boolean; attributes?: Record<string, string[]> };
      return { enabled: user.enabled, attributes: Object.fromEntries(Object.entries(user.attributes ?? {}).map(([name, values]) => [name, values[0]])) };
    },
    close: () => new Promise<void>((resolve) => healthy.close(() => resolve())),
  };
}
