// The extension itself refuses development secrets, demo credentials and test switches when
// Keycloak runs `start` (its production profile), however it was launched: here bin/kc.sh start
// directly, without the cluster launcher's own check, importing the development realm (demo
// operator, shipped client secrets, admin-cli password grants). The test run's Keycloak (start-dev,
// the same realm and keys, TEST_HARNESS on) serving every other end-to-end test is the other half.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { developmentRealm } from '../../../scripts/realm-files.js';
import { freePort } from '../../helpers/free-port.js';

const KC_RUN_DIR = process.env['KC_RUN_DIR'] ?? '.run/keycloak';
/** Boot on a loaded machine: the optimized start, the fresh H2 schema, then the extension's start check. */
const START_LIMIT_MS = 240_000;

test('kc.sh start with the development keys, TEST_HARNESS on and the development realm stops, naming each setting, client secret, the demo operator and admin-cli, and never serves', async (t) => {
  t.timeout(START_LIMIT_MS + 30_000);
  const built = readdirSync(KC_RUN_DIR).find((name) => /^keycloak-\d/.test(name));
  if (built === undefined) throw new Error(`no Keycloak distribution under ${KC_RUN_DIR}: run scripts/kc.sh build`);
  const home = join(mkdtempSync(join(tmpdir(), 'wifi-kc-prod-')), 'keycloak');
  t.teardown(() => rmSync(join(home, '..'), { recursive: true, force: true }));
  // A copy of the test run's build, without its data. cp -a keeps the providers' modification
  // times to the nanosecond: an optimized start compares them with the build's record.
  const copied = spawnSync('cp', ['-a', join(KC_RUN_DIR, built), home], { encoding: 'utf8' });
  if (copied.status !== 0) throw new Error(`copying the build: ${copied.stderr}`);
  rmSync(join(home, 'data'), { recursive: true, force: true });
  mkdirSync(join(home, 'data', 'import'), { recursive: true });
  writeFileSync(join(home, 'data', 'import', 'wifi-realm.json'), developmentRealm());
  const [http, management] = [await freePort(), await freePort()];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TEST_HARNESS: 'true',
    KC_BOOTSTRAP_ADMIN_USERNAME: 'admin',
    KC_BOOTSTRAP_ADMIN_PASSWORD: 'a-password-of-this-test',
  };
  for (const name of [
    'SVC_ADMIN_SEAL_KEY',
    'SESSION_API_KEY',
    'WIFI_VOUCHER_HASH_KEY',
    'WIFI_PORTAL_API_SECRET',
    'WIFI_PORTAL_EMPLOYEE_API_SECRET',
    'SVC_OPERATOR_PASSWORD',
  ])
    delete env[name];
  const child = spawn(
    join(home, 'bin', 'kc.sh'),
    ['start', '--optimized', '--import-realm', '--http-enabled=true', '--hostname-strict=false', `--http-port=${http}`, `--http-management-port=${management}`],
    { cwd: home, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  // kc.sh runs the JVM as its child: both go, as a process group, if the start does not end by itself.
  const killGroup = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  const limit = setTimeout(killGroup, START_LIMIT_MS);
  t.teardown(() => {
    clearTimeout(limit);
    killGroup();
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  t.not(code, 0, 'Keycloak exits with a failure');
  t.not(code, null, `Keycloak exited by itself within ${START_LIMIT_MS} ms; output:\n${output.slice(-3000)}`);
  t.regex(output, /wifi extension: a production Keycloak \(kc\.sh start\) refuses to start: /);
  for (const name of ['SVC_ADMIN_SEAL_KEY', 'SESSION_API_KEY', 'WIFI_VOUCHER_HASH_KEY', 'TEST_HARNESS'])
    t.true(output.includes(`${name} is`), `${name} is named`);
  for (const client of ['wifi-portal-api', 'wifi-portal-employee-api'])
    t.true(output.includes(`client wifi/${client} still has its shipped development secret`), client);
  t.true(output.includes('user wifi/svc-operator still signs in with the demo password'));
  t.true(output.includes('wifi/admin-cli takes password grants'));
  for (const value of ['dev-svc-admin-seal-key', 'dev-portal-api-secret', 'operator-demo-pass']) t.false(output.includes(value), `never the value ${value}`);
  t.false(/Keycloak [\d.]+ on JVM .* started in/.test(output), 'it never started serving');
});
