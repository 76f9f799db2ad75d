import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { lockFolder, openPglite } from '../../../services/kit/store/index.js';

// `npm run store -- backup|restore` on a stopped service work under the folder's lock.
const ROOT = new URL('../../../', import.meta.url).pathname;
const store = (dataDir: string, ...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'store.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir },
    encoding: 'utf8',
    timeout: 120_000,
  });

async function folderWithRow(dataDir: string): Promise<void> {
  const db = await openPglite(join(dataDir, 'svc'));
  await db.execute('CREATE TABLE kept (n integer)');
  await db.query('INSERT INTO kept VALUES (1)');
  await db.close();
}

test('an offline backup and restore leave the folder unlocked, and the restored folder holds the data', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'wifi-store-cmd-'));
  await folderWithRow(dataDir);
  const file = join(dataDir, 'svc.tar.gz');
  const backup = store(dataDir, 'backup', 'svc', file);
  t.is(backup.status, 0, backup.stderr);
  t.false(existsSync(join(dataDir, 'svc.lock')));
  const restore = store(dataDir, 'restore', 'svc', file);
  t.is(restore.status, 0, restore.stderr);
  t.false(existsSync(join(dataDir, 'svc.lock')));
  t.true(readdirSync(dataDir).some((name) => name.startsWith('svc.before-restore-')));
  const db = await openPglite(join(dataDir, 'svc'));
  t.teardown(() => db.close());
  t.deepEqual(await db.query('SELECT n FROM kept'), [{ n: 1 }]);
});

test('a restore while a live process holds the folder is refused, naming it, and moves nothing aside', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'wifi-store-cmd-'));
  await folderWithRow(dataDir);
  const file = join(dataDir, 'svc.tar.gz');
  t.is(store(dataDir, 'backup', 'svc', file).status, 0);
  const lock = lockFolder(join(dataDir, 'svc'));
  t.teardown(() => lock.release());
  const restore = store(dataDir, 'restore', 'svc', file);
  t.is(restore.status, 1);
  t.regex(restore.stderr, new RegExp(`in use by process ${process.pid}`));
  t.false(readdirSync(dataDir).some((name) => name.startsWith('svc.before-restore-')));
});
