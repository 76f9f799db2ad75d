import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { handleAdminRequest } from '../../../kc-extension/svc-admin/router.js';
import type { Driver } from './contract/driver.js';
import { completeRequest, memoryHost, memoryRealm, type MemoryRealm } from './memory-admin-host.js';

const HEALTHY = 'http://healthy.test';
/** A GUI manifest as svc-admin/gui/bundle.ts writes it (the files themselves are the jar's). */
export const TEST_GUI_MANIFEST = {
  script: 'gui-TESTJS01.js',
  style: 'gui-TESTCSS1.css',
  files: ['dmn-TESTFONT.woff2', 'gui-TESTCSS1.css', 'gui-TESTJS01.js'],
  styleHashes: ['sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='],
};
const DEAD = 'http://dead.test';

/** A Driver over the in-memory host (one realm per driver). */
export function memoryDriver(realm: MemoryRealm = memoryRealm()): Driver & { realm: MemoryRealm } {
  const operator = randomUUID();
  const customer = randomUUID();
  const masterAdmin = randomUUID();
  const portalAccount = randomUUID();
  realm.realmRoles.set(operator, ['svc-admin']);
  realm.realmRoles.set(customer, ['default-roles-wifi']);
  realm.realmRoles.set(masterAdmin, ['svc-admin']);
  // The host answers realm roles only: the portal's manage-users (a client role) is invisible here, as it must be.
  // As realm-export.json gives it: the role that lets the portal's purge job record its erasures, and nothing else.
  realm.realmRoles.set(portalAccount, ['default-roles-wifi', 'svc-admin-retention']);
  realm.tokens.set('operator', { realm: realm.name, subject: operator, username: 'svc-operator', clientId: 'svc-admin' });
  realm.tokens.set('customer', { realm: realm.name, subject: customer, username: 'bob@example.com', clientId: 'wifi-portal-api' });
  realm.tokens.set('master', { realm: 'master', subject: masterAdmin, username: 'admin', clientId: 'admin-cli' });
  realm.tokens.set('portal', { realm: realm.name, subject: portalAccount, username: 'service-account-wifi-portal-api', clientId: 'wifi-portal-api' });
  const decisionUrl = 'http://decision.test';
  realm.store.set('decisionUrl', decisionUrl);
  realm.guiManifest = JSON.stringify(TEST_GUI_MANIFEST);
  realm.files.set('WifiEntitlement.dmn', readFileSync('dmn/models/WifiEntitlement.dmn', 'utf8'));
  realm.http.postJson = (url) => (url.startsWith(decisionUrl) ? { status: 200, body: '{"reloaded":true}' } : { failure: 'unreachable' });
  // The test's names, as a resolver would answer them: two public addresses and a private one.
  const names: Record<string, string[]> = { 'healthy.test': ['198.51.100.7'], 'dead.test': ['198.51.100.8'], 'internal.test': ['198.51.100.9', '192.168.1.5'] };
  const literal = realm.http.resolve;
  realm.http.resolve = (name) => names[name] ?? literal(name);
  realm.http.getAt = (url, address) =>
    url.startsWith(HEALTHY) && address === '198.51.100.7' ? { status: 200 } : address === '127.0.0.1' ? { status: 503 } : { failure: 'unreachable' };
  return {
    realm,
    tokens: { operator: 'operator', customer: 'customer', master: 'master', portal: 'portal' },
    healthyOrigin: HEALTHY,
    deadOrigin: DEAD,
    decisionUrl,
    setDecisionUrl: async (url) => void realm.store.set('decisionUrl', url),
    nowMs: () => realm.clockMs,
    send: async (request) => {
      const headers = { ...request.headers, ...(request.token === undefined ? {} : { Authorization: `Bearer ${request.token}` }) };
      const reply = await handleAdminRequest(memoryHost(realm, { ...request, headers }));
      if (!completeRequest(realm, reply.rollback === true) && reply.rollback !== true) {
        return { status: 500, body: { code: 'INTERNAL_ERROR' }, headers: { 'Content-Type': 'application/json' } };
      }
      const body: unknown = reply.contentType.startsWith('application/json') ? JSON.parse(reply.body) : reply.body;
      return { status: reply.status, body, headers: { 'Content-Type': reply.contentType, ...reply.headers } };
    },
    createEmployee: async (employeeRef, company) => {
      const id = randomUUID();
      realm.users.set(id, {
        id,
        username: `emp-${id}`,
        email: undefined,
        emailVerified: false,
        enabled: true,
        hasPassword: false,
        attributes: { user_type: 'EMPLOYEE', employee_ref: employeeRef, company, employee_verified: 'true' },
      });
      realm.sessions.set(id, 1);
      return id;
    },
    createAccount: async (email, options) => {
      const id = randomUUID();
      realm.users.set(id, { id, username: email, email, emailVerified: options.emailVerified, enabled: true, hasPassword: options.password, attributes: {} });
      return id;
    },
    employee: async (id) => {
      const user = realm.users.get(id)!;
      return { enabled: user.enabled, attributes: { ...user.attributes } };
    },
  };
}
