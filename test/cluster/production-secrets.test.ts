// A production Keycloak start refuses development
// secrets, before anything starts, with one line naming the setting.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { ROOT } from '../../scripts/cluster.js';
import { keycloakDevelopmentSecrets, makeSecrets, realmDevelopmentSecrets, refuseDevelopmentSecrets } from '../../scripts/cluster/secrets.js';
import { realmForCluster } from '../../scripts/cluster/keycloak-node.js';

const DEVELOPMENT: [string, string][] = [
  ['SVC_ADMIN_SEAL_KEY', 'dev-svc-admin-seal-key'],
  ['KC_BOOTSTRAP_ADMIN_PASSWORD', 'admin'],
  ['WIFI_PORTAL_API_SECRET', 'dev-portal-api-secret'],
  ['WIFI_PORTAL_EMPLOYEE_API_SECRET', 'dev-portal-employee-api-secret'],
  ['WIFI_PORTAL_PHONE_API_SECRET', 'dev-portal-phone-api-secret'],
  ['WIFI_PHONE_CODE_HASH_KEY', 'dev-phone-code-hash-key'],
  ['WIFI_PORTAL_VOUCHER_API_SECRET', 'dev-portal-voucher-api-secret'],
  ['WIFI_VOUCHER_HASH_KEY', 'dev-voucher-hash-key'],
  ['SVC_OPERATOR_PASSWORD', 'operator-demo-pass'],
  ['HR_API_KEY', 'dev-hr-key'],
  ['SESSION_API_KEY', 'dev-session-keycloak-key'],
];

test('the generated secrets of a run hold no development value, and the realm copy made with them holds no development client secret', (t) => {
  const secrets = makeSecrets({});
  t.deepEqual(keycloakDevelopmentSecrets(secrets), []);
  const realm = realmForCluster(readFileSync(join(ROOT, 'realm-export.json'), 'utf8'), secrets);
  t.deepEqual(realmDevelopmentSecrets(realm), []);
  t.true(realm.includes(secrets.WIFI_PORTAL_API_SECRET));
  t.notThrows(() => refuseDevelopmentSecrets(secrets, realm));
  // The production realm file holds no person: the copy's only operator is the site's, with this run's password.
  const parsed = JSON.parse(realm) as {
    users: Array<{ username: string; credentials?: Array<{ value: string }> }>;
    clients: Array<{ clientId: string; directAccessGrantsEnabled?: boolean }>;
  };
  t.deepEqual(
    parsed.users.map((user) => user.username),
    ['service-account-wifi-portal-api', 'svc-operator'],
  );
  t.is(parsed.users[1]?.credentials?.[0]?.value, secrets.SVC_OPERATOR_PASSWORD);
  t.is(parsed.clients.find((client) => client.clientId === 'admin-cli')?.directAccessGrantsEnabled, false);
});

for (const [name, value] of DEVELOPMENT) {
  test(`${name} at its development value '${value}' is refused, naming the setting`, (t) => {
    const env = { ...makeSecrets({}), [name]: value };
    t.deepEqual(keycloakDevelopmentSecrets(env), [name]);
    t.throws(() => refuseDevelopmentSecrets(env, '{}'), { message: new RegExp(`^keycloak production start refused: ${name} `) });
  });
}

test('the realm file as shipped (its development client secrets) is refused', (t) => {
  const shipped = readFileSync(join(ROOT, 'realm-export.json'), 'utf8');
  t.throws(() => refuseDevelopmentSecrets(makeSecrets({}), realmForCluster(shipped, {})), { message: /realm client secret 'dev-portal-api-secret'/ });
});

test('make up-cluster with SVC_ADMIN_SEAL_KEY at its development default stops before anything starts, with one line naming it', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'wifi-cluster-refused-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'up-cluster.ts')], {
    cwd: ROOT,
    env: { ...process.env, CLUSTER_DIR: dir, SVC_ADMIN_SEAL_KEY: 'dev-svc-admin-seal-key' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  t.is(run.status, 1);
  const lines = run.stderr.trim().split('\n');
  t.is(lines.length, 1, run.stderr);
  t.regex(lines[0] ?? '', /^keycloak production start refused: SVC_ADMIN_SEAL_KEY still at the development default/);
  t.is(run.stdout, '');
});
