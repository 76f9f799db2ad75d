import { readFileSync } from 'node:fs';
import test from 'ava';
import { developmentRealm } from '../../scripts/realm-files.js';

interface Client {
  clientId: string;
  directAccessGrantsEnabled?: boolean;
  protocolMappers?: Array<{ config: Record<string, string> }>;
}
interface Realm {
  clients: Client[];
  users: Array<{ username: string; credentials?: unknown[] }>;
}

const production = JSON.parse(readFileSync('realm-export.json', 'utf8')) as Realm;
const development = JSON.parse(developmentRealm()) as Realm;
const client = (realm: Realm, id: string): Client | undefined => realm.clients.find((c) => c.clientId === id);
const mappedAttributes = (c: Client | undefined): string[] =>
  (c?.protocolMappers ?? []).map((m) => m.config['user.attribute']).filter((a): a is string => a !== undefined);
const EMPLOYEE_CLAIMS = ['employee_verified', 'employee_ref', 'company', 'wifi_eligible'];

test("the production realm file holds no person: only the portal's service account, no password anywhere", (t) => {
  t.deepEqual(
    production.users.map((user) => user.username),
    ['service-account-wifi-portal-api'],
  );
  t.false(JSON.stringify(production).includes('operator-demo-pass'));
  t.true(production.users.every((user) => user.credentials === undefined));
});

test("the production realm's admin-cli takes no password grant; the development realm's does (kcadm.sh, the tests)", (t) => {
  t.is(client(production, 'admin-cli')?.directAccessGrantsEnabled, false);
  t.is(client(development, 'admin-cli')?.directAccessGrantsEnabled, true);
});

test('the development realm adds the demo operator and customers to the production realm, changing nothing else', (t) => {
  const names = development.users.map((user) => user.username);
  for (const name of ['service-account-wifi-portal-api', 'svc-operator', 'alice@example.com', 'bob@example.com', 'emp-b-2002'])
    t.true(names.includes(name), name);
  const { clients: devClients, users: _devUsers, ...devRest } = development as Realm & Record<string, unknown>;
  const { clients: prodClients, users: _prodUsers, ...prodRest } = production as Realm & Record<string, unknown>;
  t.deepEqual(devRest, prodRest);
  t.deepEqual(
    devClients.map((c) => ({ ...c, directAccessGrantsEnabled: null })),
    prodClients.map((c) => ({ ...c, directAccessGrantsEnabled: null })),
  );
});

test('pre-hijack: the customer client maps no employee claim; the employee client maps them all', (t) => {
  for (const realm of [production, development]) {
    t.deepEqual(
      mappedAttributes(client(realm, 'wifi-portal-api')).filter((a) => EMPLOYEE_CLAIMS.includes(a)),
      [],
    );
    t.deepEqual(
      mappedAttributes(client(realm, 'wifi-portal-employee-api'))
        .filter((a) => EMPLOYEE_CLAIMS.includes(a))
        .sort(),
      [...EMPLOYEE_CLAIMS].sort(),
    );
  }
});

test("Keycloak's event store is bounded: the realm make up and the tests import stores sign-in events for at most a month", (t) => {
  for (const realm of [production, development] as unknown as Array<{ eventsEnabled?: boolean; eventsExpiration?: number }>) {
    t.true(realm.eventsEnabled);
    t.true(typeof realm.eventsExpiration === 'number' && realm.eventsExpiration > 0 && realm.eventsExpiration <= 31 * 86_400, String(realm.eventsExpiration));
  }
});
