import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test, { type ExecutionContext } from 'ava';
import { freePort } from '../../helpers/free-port.js';
import { startServiceProcess, type RunningService } from '../../helpers/process.js';
import { waitFor } from '../../helpers/wait-for.js';

// One process per embedded data folder, a kill -9 never leaves it unopenable,
// a folder that cannot be opened is named with what to do, backup and restore by one command.
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const KEY = { 'X-API-Key': 'dev-session-portal-key', 'content-type': 'application/json' };

function dataDir(t: ExecutionContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'wifi-store-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function createSession(url: string): Promise<string | undefined> {
  try {
    const reply = await fetch(`${url}/api/v1/sessions`, { method: 'POST', headers: KEY, body: JSON.stringify({ subjectId: randomUUID(), deviceRef: null }) });
    return reply.status === 201 ? String(((await reply.json()) as { sessionId: string }).sessionId) : undefined;
  } catch {
    return undefined; // the process was killed under this request: not acknowledged
  }
}

const readStatus = async (url: string, id: string) => (await fetch(`${url}/api/v1/sessions/${id}`, { headers: KEY })).status;

/** Runs a service's main.ts to its exit (it is expected to refuse to start). */
function runToExit(service: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', `services/${service}/main.ts`], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  return new Promise((resolve) => child.on('exit', (code) => (clearTimeout(timer), resolve({ code, output }))));
}

async function started(t: ExecutionContext, env: Record<string, string>): Promise<RunningService> {
  const service = await startServiceProcess('session', await freePort(), env);
  t.teardown(() => service.stop());
  return service;
}

test('a second process on a folder in use is refused with the folder and the holding pid, and writes nothing', async (t) => {
  const DATA_DIR = dataDir(t);
  const first = await started(t, { DATA_DIR });
  const id = await createSession(first.url);
  t.truthy(id);
  const second = await runToExit('session', { DATA_DIR, PORT: String(await freePort()) });
  t.is(second.code, 1, second.output);
  t.regex(second.output, new RegExp(`data folder ${join(DATA_DIR, 'session').replace(/[/.]/g, '\\$&')} is in use by process ${first.child.pid}`));
  t.notRegex(second.output, / {4}at /, 'no stack trace');
  // The first keeps working; after it stops, the folder opens again with everything in it.
  t.truthy(await createSession(first.url));
  await first.stop();
  const again = await started(t, { DATA_DIR });
  t.is(await readStatus(again.url, String(id)), 200);
});

test('a session service killed with SIGKILL under writes restarts cleanly ten times, and every acknowledged create reads back', async (t) => {
  t.timeout(900_000);
  const DATA_DIR = dataDir(t);
  const port = await freePort();
  const acknowledged: string[] = [];
  for (let round = 0; round < 10; round += 1) {
    const service = await startServiceProcess('session', port, { DATA_DIR });
    t.teardown(() => service.stop());
    let running = true;
    const writers = Array.from({ length: 4 }, async () => {
      while (running) {
        const id = await createSession(service.url);
        if (id !== undefined && running) acknowledged.push(id);
      }
    });
    const before = acknowledged.length;
    await waitFor(
      () => acknowledged.length,
      (count) => count >= before + 8,
      { timeoutMs: 120_000 },
    );
    const exited = new Promise((resolve) => service.child.once('exit', resolve));
    service.child.kill('SIGKILL');
    await exited;
    running = false;
    await Promise.all(writers);
  }
  const last = await started(t, { DATA_DIR });
  const statuses = await Promise.all(acknowledged.map((id) => readStatus(last.url, id)));
  t.true(acknowledged.length >= 80);
  t.deepEqual(
    statuses.filter((status) => status !== 200),
    [],
  );
});

test('a folder that cannot be opened is reported with its path and what to do, without a stack trace', async (t) => {
  const DATA_DIR = dataDir(t);
  const folder = join(DATA_DIR, 'session');
  mkdirSync(folder);
  writeFileSync(join(folder, 'PG_VERSION'), 'not a database\n');
  writeFileSync(join(folder, 'global'), 'garbage');
  const outcome = await runToExit('session', { DATA_DIR, PORT: String(await freePort()) });
  t.is(outcome.code, 1, outcome.output);
  t.true(outcome.output.includes(`the embedded store at ${folder} could not be opened`), outcome.output);
  t.regex(outcome.output, /npm run store -- restore/);
  t.notRegex(outcome.output, / {4}at /);
});

test('backup while the service runs, restore while it is stopped: the data comes back as backed up', async (t) => {
  const DATA_DIR = dataDir(t);
  const env = { ...process.env, DATA_DIR };
  const store = (...args: string[]) =>
    new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/store.ts', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('exit', (code) => resolve({ code, output }));
    });
  const service = await started(t, { DATA_DIR });
  const kept = String(await createSession(service.url));
  const file = join(DATA_DIR, 'session-backup.tar.gz');
  const backup = await store('backup', 'session', file);
  t.is(backup.code, 0, backup.output);
  t.true(existsSync(file));
  const later = String(await createSession(service.url));
  const refused = await store('restore', 'session', file);
  t.is(refused.code, 1);
  t.regex(refused.output, new RegExp(`in use by process ${service.child.pid}`));
  await service.stop();
  const restored = await store('restore', 'session', file);
  t.is(restored.code, 0, restored.output);
  const again = await started(t, { DATA_DIR });
  t.is(await readStatus(again.url, kept), 200);
  t.is(await readStatus(again.url, later), 404, 'the session created after the backup is not in it');
  await again.stop();
  const offline = await store('backup', 'session', join(DATA_DIR, 'offline.tar.gz'));
  t.is(offline.code, 0, offline.output);
});
