import { readFileSync } from 'node:fs';
import test from 'ava';
import { startRefusal, type StartFacts } from '../../kc-extension/start-check.js';

const CLEAN: StartFacts = {
  devMode: false,
  developmentDefaults: [],
  switches: [],
  developmentClientSecrets: [],
  demoPasswords: [],
  adminCliPasswordGrants: [],
};

test('a production start (kc.sh start) is refused while the seal key is the development default, naming it', (t) => {
  const line = startRefusal({ ...CLEAN, developmentDefaults: ['SVC_ADMIN_SEAL_KEY'] });
  t.regex(line, /^wifi extension: a production Keycloak \(kc\.sh start\) refuses to start: SVC_ADMIN_SEAL_KEY is still the development default/);
  t.false(line.includes('dev-svc-admin-seal-key'), 'names the setting, never a value');
});

test('every development default and every test switch is named in the one line', (t) => {
  const line = startRefusal({ ...CLEAN, developmentDefaults: ['SVC_ADMIN_SEAL_KEY', 'SESSION_API_KEY'], switches: ['TEST_HARNESS'] });
  for (const name of ['SVC_ADMIN_SEAL_KEY', 'SESSION_API_KEY', 'TEST_HARNESS']) t.true(line.includes(name), name);
  t.false(line.includes('\n'));
});

test("a shipped client secret, the demo operator's password and admin-cli password grants are each refused, named, never a value", (t) => {
  const line = startRefusal({
    ...CLEAN,
    developmentClientSecrets: ['wifi/wifi-portal-api', 'wifi/wifi-portal-employee-api'],
    demoPasswords: ['wifi/svc-operator'],
    adminCliPasswordGrants: ['wifi/admin-cli'],
  });
  t.regex(line, /client wifi\/wifi-portal-api still has its shipped development secret/);
  t.regex(line, /client wifi\/wifi-portal-employee-api still has its shipped development secret/);
  t.regex(line, /user wifi\/svc-operator still signs in with the demo password/);
  t.regex(line, /wifi\/admin-cli takes password grants/);
  for (const value of ['dev-portal-api-secret', 'operator-demo-pass']) t.false(line.includes(value), value);
  for (const facts of [
    { developmentClientSecrets: ['wifi/wifi-portal-api'] },
    { demoPasswords: ['wifi/svc-operator'] },
    { adminCliPasswordGrants: ['wifi/admin-cli'] },
  ]) {
    t.not(startRefusal({ ...CLEAN, ...facts }), '', JSON.stringify(facts));
  }
});

test('start-dev keeps the development defaults, the demo data and the harness; a production start with secrets of its own starts', (t) => {
  t.is(
    startRefusal({
      devMode: true,
      developmentDefaults: ['SVC_ADMIN_SEAL_KEY', 'SESSION_API_KEY'],
      switches: ['TEST_HARNESS'],
      developmentClientSecrets: ['wifi/wifi-portal-api'],
      demoPasswords: ['wifi/svc-operator'],
      adminCliPasswordGrants: ['wifi/admin-cli'],
    }),
    '',
  );
  t.is(startRefusal(CLEAN), '');
});

test('the values Keycloak checks (RealmFacts.java) are the ones the realm files ship', (t) => {
  const java = readFileSync('spi-wrapper/src/main/java/wifi/kc/RealmFacts.java', 'utf8');
  const production = readFileSync('realm-export.json', 'utf8');
  const shipped = [...production.matchAll(/"secret": "\$\{[A-Z_]+:([^}]*)\}"/g)].map((match) => match[1]!);
  t.deepEqual(shipped, ['dev-portal-api-secret', 'dev-portal-employee-api-secret', 'dev-portal-phone-api-secret', 'dev-portal-voucher-api-secret']);
  for (const value of shipped) t.true(java.includes(`"${value}"`), value);
  const development = JSON.parse(readFileSync('realm-dev.json', 'utf8')) as { users: Array<{ username: string; credentials?: Array<{ value: string }> }> };
  const operator = development.users.find((user) => user.username === 'svc-operator');
  t.regex(operator?.credentials?.[0]?.value ?? '', /:operator-demo-pass\}$/);
  t.true(java.includes('"svc-operator"') && java.includes('"operator-demo-pass"'));
});
