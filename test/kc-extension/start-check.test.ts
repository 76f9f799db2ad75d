import test from 'ava';
import { startRefusal } from '../../kc-extension/start-check.js';

test('a production start (kc.sh start) is refused while the seal key is the development default, naming it', (t) => {
  const line = startRefusal({ devMode: false, developmentDefaults: ['SVC_ADMIN_SEAL_KEY'], switches: [] });
  t.regex(line, /^wifi extension: a production Keycloak \(kc\.sh start\) refuses to start: SVC_ADMIN_SEAL_KEY is still the development default/);
  t.false(line.includes('dev-svc-admin-seal-key'), 'names the setting, never a value');
});

test('every development default and every test switch is named in the one line', (t) => {
  const line = startRefusal({ devMode: false, developmentDefaults: ['SVC_ADMIN_SEAL_KEY', 'SESSION_API_KEY'], switches: ['TEST_HARNESS'] });
  for (const name of ['SVC_ADMIN_SEAL_KEY', 'SESSION_API_KEY', 'TEST_HARNESS']) t.true(line.includes(name), name);
  t.false(line.includes('\n'));
});

test('start-dev keeps the development defaults and the harness; a production start with secrets of its own starts', (t) => {
  t.is(startRefusal({ devMode: true, developmentDefaults: ['SVC_ADMIN_SEAL_KEY', 'SESSION_API_KEY'], switches: ['TEST_HARNESS'] }), '');
  t.is(startRefusal({ devMode: false, developmentDefaults: [], switches: [] }), '');
});
