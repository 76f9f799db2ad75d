import test from 'ava';
import { runInNewContext } from 'node:vm';
import { ERROR_CATALOGUE } from '../../contract/index.js';
import { bundleInJar, shippedBundle } from './shipped-bundle.js';

/**
 * The shipped bundle (the file `npm run bundle:kc` writes and spi-wrapper packs into its jar)
 * must run where only ECMAScript globals exist (GraalJS inside Keycloak): evaluate it in a bare
 * VM context, as JsRuntime does, and drive it through the Java-facing functions.
 */
function loadBundle(): Record<string, (...args: unknown[]) => string> {
  const sandbox: Record<string, unknown> = {};
  runInNewContext(shippedBundle(), sandbox);
  return sandbox['WifiExtension'] as Record<string, (...args: unknown[]) => string>;
}

test('the bundle in the built jar is the bundle tested here (a missing or older jar fails)', (t) => {
  const bundle = shippedBundle();
  t.is(bundleInJar(), bundle);
});

test('the shipped bundle uses no Node module and no require', (t) => {
  // The DMN engine's parser (lezer) reads process.env only behind a `typeof process` guard,
  // which is safe where no process exists; any other use is not.
  const unguarded = shippedBundle().replace(/typeof process\s*!==?\s*"undefined"\s*&&\s*process\.env[^;]*/g, '');
  t.false(/\brequire\(|from ['"]node:|process\.env/.test(unguarded));
});

test('the GraalJS bundle carries none of the browser GUI (dmn-js is served as files, not loaded by GraalJS)', (t) => {
  const bundle = shippedBundle();
  for (const marker of ['dmn-decision-table-container', 'bjs-powered-by', 'createVNode', 'EditorView']) t.false(bundle.includes(marker), marker);
  t.true(bundle.length < 2_000_000, `${bundle.length} characters`);
});

test('the bundle exposes authenticateEmployee and handleAdmin on WifiExtension', async (t) => {
  const bundle = loadBundle();
  t.is(typeof bundle['authenticateEmployee'], 'function');
  t.is(typeof bundle['handleAdmin'], 'function');
});

test('the bundled authenticator answers a Java-shaped host without Node APIs', async (t) => {
  const bundle = loadBundle();
  const raw = {
    formParam: (name: string) => ({ employeeId: 'A-1001', citizenId: '079201001234' })[name] ?? null,
    header: () => null,
    clientAddress: () => '192.0.2.10',
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
    counterClaim: () => true,
    counterRemove: () => undefined,
  };
  const outcome = JSON.parse(bundle['authenticateEmployee']!(raw)) as { status: number; body: unknown };
  t.is(outcome.status, 401);
  t.deepEqual(outcome.body, { error: 'invalid_grant', error_description: 'Invalid employee credentials' });
});

test('internalErrorReply gives the contract INTERNAL_ERROR body under a valid caller id, else a new one, and rolls back', (t) => {
  const bundle = loadBundle();
  const given = 'corr-0b7e7c52-0c1e-4a5e-9d1c-3f4a5b6c7d8e';
  const reply = JSON.parse(bundle['internalErrorReply']!(given, '00000000-0000-4000-8000-000000000001', 0)) as {
    status: number;
    rollback: boolean;
    headers: Record<string, string>;
    body: string;
  };
  t.like(reply, { status: 500, rollback: true, headers: { 'X-Correlation-ID': given } });
  t.deepEqual(JSON.parse(reply.body), {
    code: 'INTERNAL_ERROR',
    message: ERROR_CATALOGUE.INTERNAL_ERROR.message,
    correlationId: given,
    timestamp: '1970-01-01T00:00:00.000Z',
  });
  const planted = JSON.parse(bundle['internalErrorReply']!('987650001234', '00000000-0000-4000-8000-000000000001', 0)) as { body: string };
  t.is((JSON.parse(planted.body) as { correlationId: string }).correlationId, 'corr-00000000-0000-4000-8000-000000000001');
  t.false(planted.body.includes('987650001234'));
});
