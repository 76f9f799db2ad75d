import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { COHOST_NODE_FLAGS, SERVICE_NODE_FLAGS, stopChild, waitHealthy } from '../../../scripts/child-process.js';
import { freePort } from '../../helpers/free-port.js';
import { startServiceProcess } from '../../helpers/process.js';
import { waitFor } from '../../helpers/wait-for.js';

// The embedded default runs every service in one co-host process (services/kit/cohost.ts); each
// must still be itself there: its own port, keys, fault mode and store, and a service that cannot
// start takes the host down with it rather than leaving part of the platform answering.
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const EMPLOYEE = { employeeId: 'A-1001', citizenId: '079201001234' };

function startHost(services: string[], env: Record<string, string>): { child: ChildProcess; output: string[] } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/kit/cohost.ts', ...services], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  return { child, output };
}

const post = (url: string, path: string, key: string, body: unknown) =>
  fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify(body) });

test('co-hosted services each keep their own port, keys and fault mode', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'wifi-cohost-'));
  const [hrPort, sessionPort] = [await freePort(), await freePort()];
  const host = startHost([`hr:${hrPort}`, `session:${sessionPort}`], { DATA_DIR: dataDir, TEST_HARNESS: 'true' });
  t.teardown(async () => {
    await stopChild(host.child);
    rmSync(dataDir, { recursive: true, force: true });
  });
  const [hr, session] = [`http://127.0.0.1:${hrPort}`, `http://127.0.0.1:${sessionPort}`];
  await waitHealthy(hr, host.child, 180_000);
  await waitHealthy(session, host.child, 180_000);

  t.is((await post(hr, '/api/v1/employees/verify', 'dev-hr-key', EMPLOYEE)).status, 200);
  // Another co-hosted service's key is no key here.
  t.is((await post(hr, '/api/v1/employees/verify', 'dev-session-tools-key', EMPLOYEE)).status, 401);

  // A fault set in one service is that service's only: hr fails closed, session still answers.
  t.is((await post(hr, '/admin/fault', 'dev-hr-tools-key', { mode: 'unavailable', delayMs: 0 })).status, 200);
  const refused = await post(hr, '/api/v1/employees/verify', 'dev-hr-key', EMPLOYEE);
  t.is(refused.status, 503);
  t.like(await refused.json(), { code: 'HR_SERVICE_UNAVAILABLE' });
  // The session service in the same process still reads its own store: an unknown id is a 404, not a 503.
  const read = await fetch(`${session}/api/v1/sessions/00000000-0000-4000-8000-000000000000`, { headers: { 'x-api-key': 'dev-session-tools-key' } });
  t.is(read.status, 404);
});

test('a co-hosted service that cannot open its store stops the whole host with exit code 1, and no other port stays open', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'wifi-cohost-'));
  // The session folder is held by a session process of its own, so the co-hosted session cannot take it.
  const owner = await startServiceProcess('session', await freePort(), { DATA_DIR: dataDir });
  const hrPort = await freePort();
  const host = startHost([`hr:${hrPort}`, `session:${await freePort()}`], { DATA_DIR: dataDir });
  t.teardown(async () => {
    await stopChild(host.child);
    await owner.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const code = await waitFor(
    () => host.child.exitCode,
    (exit) => exit !== null,
    { timeoutMs: 90_000, intervalMs: 100 },
  ).catch(() => 'still running');
  t.is(code, 1, host.output.join(''));
  t.regex(host.output.join(''), /session: .*in use/i);
  const hrAnswer = await fetch(`http://127.0.0.1:${hrPort}/health`).then(
    (answer) => answer.status,
    () => 'closed',
  );
  t.is(hrAnswer, 'closed');
});

// Nine services starting in one process grow V8's young generation to its maximum, and with
// --no-memory-reducer it never shrinks: the co-host's flags cap it, which held 32 MB at rest.
test('the co-host runs with a small young generation: after a burst of short-lived objects it stays at most 4 MB', (t) => {
  const youngAfterBurst = (flags: readonly string[]) => {
    const script =
      "const keep = []; for (let i = 0; i < 3e5; i += 1) { keep.push({ i, s: 'x'.repeat(40) }); if (keep.length > 2e4) keep.length = 0; }" +
      "console.log(require('node:v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size)";
    const run = spawnSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8' });
    return Number(run.stdout.trim()) / 2 ** 20;
  };
  t.true(youngAfterBurst(COHOST_NODE_FLAGS) <= 4);
  // The burst does grow it without the cap, so the figure above is the flag's doing.
  t.true(youngAfterBurst(SERVICE_NODE_FLAGS) > 4);
});
