// Backup and restore of a service's embedded store (README "Back up and restore"):
//   npm run store -- backup <service> <file.tar.gz>    while the service runs or is stopped
//   npm run store -- restore <service> <file.tar.gz>   with the service stopped
// DATA_DIR as the services read it (default .data). A running owner is asked by SIGUSR2 for a
// consistent copy (services/kit/store/pglite-backup.ts); a stopped folder is opened here.
import { copyFileSync, existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { backupFileOf, openPglite, ownerOf } from '../services/kit/store/index.js';
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

if (command === 'backup') {
  const owner = ownerOf(dir);
  if (owner !== undefined) {
    const since = Date.now();
    process.kill(owner.pid, 'SIGUSR2');
    await waitForBackup(since);
    copyFileSync(backupFileOf(dir), target);
  } else {
    if (!existsSync(dir)) fail(`no data folder ${dir}`);
    const db = await openPglite(dir);
    try {
      writeFileSync(target, Buffer.from(await (await db.dump!()).arrayBuffer()));
    } finally {
      await db.close();
    }
  }
  process.stdout.write(`backed up ${dir} to ${target}\n`);
} else {
  const owner = ownerOf(dir);
  if (owner !== undefined) fail(`the data folder ${dir} is in use by process ${owner.pid}: stop the ${service} service first`);
  if (!existsSync(target)) fail(`no backup file ${target}`);
  const aside = `${dir}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  if (existsSync(dir)) renameSync(dir, aside);
  const db = await openPglite(dir, { loadDataDir: new Blob([readFileSync(target)]) });
  try {
    await db.query('SELECT 1');
  } finally {
    await db.close();
  }
  process.stdout.write(`restored ${dir} from ${target}${existsSync(aside) ? `; the folder it replaced is ${aside}` : ''}\n`);
}
