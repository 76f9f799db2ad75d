import test from 'ava';
import { build } from 'esbuild';
import { runInNewContext } from 'node:vm';

/**
 * The bundle must run where only ECMAScript globals exist (GraalJS inside Keycloak): evaluate
 * it in a bare VM context, as JsRuntime does, and drive it through the Java-facing functions.
 */
async function loadBundle(): Promise<Record<string, (...args: unknown[]) => string>> {
  const result = await build({
    entryPoints: ['kc-extension/main.ts'],
    bundle: true,
    format: 'iife',
    globalName: 'WifiExtension',
    platform: 'neutral',
    target: 'es2022',
    write: false,
  });
  const sandbox: Record<string, unknown> = {};
  runInNewContext(result.outputFiles[0]!.text, sandbox);
  return sandbox['WifiExtension'] as Record<string, (...args: unknown[]) => string>;
}

test('the bundle exposes authenticateEmployee and handleAdmin on WifiExtension', async (t) => {
  const bundle = await loadBundle();
  t.is(typeof bundle['authenticateEmployee'], 'function');
  t.is(typeof bundle['handleAdmin'], 'function');
});

test('the bundled authenticator answers a Java-shaped host without Node APIs', async (t) => {
  const bundle = await loadBundle();
  const raw = {
    formParam: (name: string) => ({ employeeId: 'A-1001', citizenId: '079201001234' })[name] ?? null,
    header: () => null,
    configJson: () => JSON.stringify({ hrUrl: 'http://hr.test', hrApiKey: 'k' }),
    newUuid: () => '00000000-0000-4000-8000-000000000009',
    nowMs: () => 1,
    log: () => undefined,
    eventDetail: () => undefined,
    httpPostJson: () => JSON.stringify({ status: 200, body: JSON.stringify({ verified: false, active: false }) }),
    findUsersByAttribute: () => '[]',
    findUserByUsername: () => null,
    createUser: () => '{}',
    setUserAttributes: () => undefined,
    counterGet: () => null,
    counterPut: () => undefined,
    counterRemove: () => undefined,
  };
  const outcome = JSON.parse(bundle['authenticateEmployee']!(raw)) as { status: number; body: unknown };
  t.is(outcome.status, 401);
  t.deepEqual(outcome.body, { error: 'invalid_grant', error_description: 'Invalid employee credentials' });
});
