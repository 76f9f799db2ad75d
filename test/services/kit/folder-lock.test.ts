import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { lockFolder, ownerOf, StoreError } from '../../../services/kit/store/index.js';

// The data-folder lock (services/kit/store/folder-lock.ts).
const folder = () => join(mkdtempSync(join(tmpdir(), 'wifi-lock-')), 'svc');

/** Fields of /proc/<pid>/stat after the command name: state is the first, start time the 20th. */
const statFields = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
};

/**
 * A real zombie: a shell starts a short sleep in the background and then becomes a long sleep
 * (exec), which never waits for its children; the short sleep exits and stays a zombie.
 */
async function zombie(t: import('ava').ExecutionContext): Promise<number> {
  const parent = spawn('sh', ['-c', 'sleep 0.2 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
  t.teardown(() => parent.kill('SIGKILL'));
  const pid = Number(await new Promise<string>((resolve) => parent.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()))));
  const startTime = statFields(pid)[19];
  for (let waited = 0; statFields(pid)[0] !== 'Z'; waited += 20) {
    if (waited > 5000) throw new Error('the child never became a zombie');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  t.is(statFields(pid)[19], startTime);
  return pid;
}

test('a zombie owner (state Z, not yet reaped by its parent) is not an owner: the folder is taken over at once', async (t) => {
  const dir = folder();
  const pid = await zombie(t);
  writeFileSync(`${dir}.lock`, JSON.stringify({ pid, startTime: statFields(pid)[19], host: hostname() }));
  t.is(ownerOf(dir), undefined);
  const lock = lockFolder(dir);
  t.is(ownerOf(dir)?.pid, process.pid);
  lock.release();
  t.false(existsSync(`${dir}.lock`));
});

test('a live owner keeps its folder', (t) => {
  const dir = folder();
  const lock = lockFolder(dir);
  t.teardown(() => lock.release());
  const error = t.throws(() => lockFolder(dir), { instanceOf: StoreError });
  t.regex(error?.message ?? '', /in use by process/);
});

// A second process that met a lock file between its creation and its content would take it
// for a stale one and take the folder too. The lock file appears whole, or not at all: a child
// takes and releases the lock in a loop while this process reads the file as fast as it can.
test('the lock file is never seen half-written: every lock read while another process takes and releases it in a loop names its owner', async (t) => {
  const dir = folder();
  const kit = new URL('../../../services/kit/store/index.ts', import.meta.url).pathname;
  const loop = `import { lockFolder } from ${JSON.stringify(kit)};\nconst end = Date.now() + 3000;\nwhile (Date.now() < end) lockFolder(${JSON.stringify(dir)}).release();\n`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', loop], { stdio: 'inherit' });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let done = false;
  void exited.then(() => (done = true));
  let seen = 0;
  let halfWritten = 0;
  while (!done) {
    let text: string;
    try {
      text = readFileSync(`${dir}.lock`, 'utf8');
    } catch {
      await new Promise((resolve) => setImmediate(resolve));
      continue;
    }
    seen += 1;
    try {
      if (typeof (JSON.parse(text) as { pid?: unknown }).pid !== 'number') halfWritten += 1;
    } catch {
      halfWritten += 1;
    }
  }
  t.is(await exited, 0);
  t.true(seen > 100, `the lock was seen ${seen} times`);
  t.is(halfWritten, 0, `${halfWritten} of ${seen} reads met a half-written lock`);
});
