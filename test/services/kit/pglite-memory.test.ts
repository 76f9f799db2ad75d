import test from 'ava';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { openDatabase, openPglite, storeSettings, type Queryable } from '../../../services/kit/store/index.js';

// PostgreSQL's default buffer cache (128MB) is resident in full in a PGlite process; the kit
// starts PGlite with PGLITE_SHARED_BUFFERS instead (1MB unless configured). Serial: one test
// reads this process's resident size, which another's PGlite would move.

const shared = async (db: Queryable) => (await db.query<{ shared_buffers: string }>('SHOW shared_buffers'))[0]?.shared_buffers;

test.serial('openPglite: the buffer cache is 1MB by default, set at each start (a folder reopened with another size has that one)', async (t) => {
  const dir = join(mkdtempSync(join(tmpdir(), 'wifi-pglite-memory-')), 'db');
  const first = await openPglite(dir);
  t.is(await shared(first), '1MB');
  // One backend, so PostgreSQL's per-connection shared arrays are sized for one, not its default 100.
  t.is((await first.query<{ max_connections: string }>('SHOW max_connections'))[0]?.max_connections, '1');
  await first.close();
  const again = await openPglite(dir, { sharedBuffers: '4MB' });
  t.teardown(() => again.close());
  t.is(await shared(again), '4MB');
});

test.serial('openDatabase: PGLITE_SHARED_BUFFERS sets the buffer cache, and a size that is not one is refused', async (t) => {
  const migrations = join(mkdtempSync(join(tmpdir(), 'wifi-pglite-memory-')), 'migrations');
  mkdirSync(migrations);
  writeFileSync(join(migrations, '001_things.sql'), 'CREATE TABLE things (id integer PRIMARY KEY);');
  const config = z.object(storeSettings).parse({ DATABASE_URL: 'memory:', PGLITE_SHARED_BUFFERS: '2MB' });
  const db = await openDatabase(`pglite-memory-${process.pid}`, config, pathToFileURL(`${migrations}/`));
  t.teardown(() => db.close());
  t.is(await shared(db), '2MB');
  t.is(z.object(storeSettings).parse({}).PGLITE_SHARED_BUFFERS, '1MB');
  t.false(z.object(storeSettings).safeParse({ PGLITE_SHARED_BUFFERS: 'lots' }).success);
});

test.serial('openPglite: a new folder is created by initdb in a child process, so its memory does not stay in the opening one', async (t) => {
  const dir = join(mkdtempSync(join(tmpdir(), 'wifi-pglite-memory-')), 'db');
  // A fresh process opens the new folder and reports its resident size: about 170 MB when initdb
  // ran apart, 650 MB or more when it ran in the opening process.
  const opener = `import { openPglite } from ${JSON.stringify(new URL('../../../services/kit/store/pglite-database.ts', import.meta.url).href)};
const db = await openPglite(process.argv[2]);
await db.query('CREATE TABLE things (id integer PRIMARY KEY)');
process.stdout.write(String(process.memoryUsage.rss()));
await db.close();`;
  const script = join(dirname(dir), 'opener.mjs');
  writeFileSync(script, opener);
  const run = spawnSync(process.execPath, [...process.execArgv, script, dir], { encoding: 'utf8' });
  t.is(run.status, 0, run.stderr);
  const residentMb = Number(run.stdout) / 2 ** 20;
  t.true(residentMb < 400, `the opening process was resident for ${Math.round(residentMb)} MB`);
  t.true(existsSync(join(dir, 'PG_VERSION')));
  t.deepEqual(
    readdirSync(dirname(dir)).filter((name) => name.startsWith('db.initdb-')),
    [],
  );
});
