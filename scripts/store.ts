// Backup and restore of a service's embedded store (docs/decisions/0036-back-up-and-restore-the-embedded-store.md):
//   npm run store -- backup <service> <file.tar.gz>    while the service runs or is stopped
//   npm run store -- restore <service> <file.tar.gz>   with the service stopped
// DATA_DIR as the services read it (default .data). A running owner is asked by SIGUSR2 for a
// consistent copy (services/kit/store/pglite-backup.ts); a stopped folder is opened here under
// its lock, so a service started meanwhile is refused instead of sharing it.
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { backupFileOf, lockFolder, openPglite, ownerOf, StoreError, type FolderLock } from '../services/kit/store/index.js';
import { ROOT } from './platform.js';

const [command, service, file] = process.argv.slice(2);
if ((command !== 'backup' && command !== 'restore') || service === undefined || file === undefined || !/^[a-z-]+$/.test(service)) {
  process.stderr.write('usage: npm run store -- backup|restore <service> <file.tar.gz>\n');
  process.exit(2);
}
const dir = join(resolve(ROOT, process.env['DATA_DIR'] ?? '.data'), service);
const target = resolve(file);
const fail = (message: string): never => {
  process.stderr.write(`${message}\n`);
  process.exit(1);
};

async function waitForBackup(since: number): Promise<void> {
  const written = backupFileOf(dir);
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    if (existsSync(written) && statSync(written).mtimeMs >= since) return;
  }
  fail(`the process holding ${dir} wrote no backup within 120 s (see its log)`);
}

/** The folder's lock, held by this command; undefined while a live process (the service) holds it. */
function takeFolder(): FolderLock | undefined {
  try {
    return lockFolder(dir);
  } catch (error) {
    if (error instanceof StoreError && ownerOf(dir) !== undefined) return undefined;
    throw error;
  }
}

if (command === 'backup') {
  if (!existsSync(dir)) fail(`no data folder ${dir}`);
  const lock = takeFolder();
  if (lock === undefined) {
    const owner = ownerOf(dir) ?? fail(`the process holding ${dir} just stopped: run the backup again`);
    const since = Date.now();
    process.kill(owner.pid, 'SIGUSR2');
    await waitForBackup(since);
    copyFileSync(backupFileOf(dir), target);
  } else {
    const db = await openPglite(dir, { lock });
    try {
      writeFileSync(target, Buffer.from(await (await db.dump!()).arrayBuffer()));
    } finally {
      await db.close();
    }
  }
  process.stdout.write(`backed up ${dir} to ${target}\n`);
} else {
  if (!existsSync(target)) fail(`no backup file ${target}`);
  mkdirSync(dirname(dir), { recursive: true });
  // The lock is taken before the folder moves and held until the restored one is closed.
  const lock = takeFolder() ?? fail(`the data folder ${dir} is in use by process ${ownerOf(dir)?.pid ?? '?'}: stop the ${service} service first`);
  const aside = `${dir}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  try {
    if (existsSync(dir)) renameSync(dir, aside);
  } catch (error) {
    lock.release();
    throw error;
  }
  const db = await openPglite(dir, { loadDataDir: new Blob([readFileSync(target)]), lock });
  try {
    await db.query('SELECT 1');
  } finally {
    await db.close();
  }
  process.stdout.write(`restored ${dir} from ${target}${existsSync(aside) ? `; the folder it replaced is ${aside}` : ''}\n`);
}
