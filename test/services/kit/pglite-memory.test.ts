import test from 'ava';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { openDatabase, openPglite, storeSettings, type Queryable } from '../../../services/kit/store/index.js';

// PostgreSQL's default buffer cache (128MB) is resident in full in a PGlite process; the kit
// starts PGlite with PGLITE_SHARED_BUFFERS instead (8MB unless configured).

const shared = async (db: Queryable) => (await db.query<{ shared_buffers: string }>('SHOW shared_buffers'))[0]?.shared_buffers;

test('openPglite: the buffer cache is 8MB by default, set at each start (a folder reopened with another size has that one)', async (t) => {
  const dir = join(mkdtempSync(join(tmpdir(), 'wifi-pglite-memory-')), 'db');
  const first = await openPglite(dir);
  t.is(await shared(first), '8MB');
  await first.close();
  const again = await openPglite(dir, { sharedBuffers: '1MB' });
  t.teardown(() => again.close());
  t.is(await shared(again), '1MB');
});

test('openDatabase: PGLITE_SHARED_BUFFERS sets the buffer cache, and a size that is not one is refused', async (t) => {
  const migrations = join(mkdtempSync(join(tmpdir(), 'wifi-pglite-memory-')), 'migrations');
  mkdirSync(migrations);
  writeFileSync(join(migrations, '001_things.sql'), 'CREATE TABLE things (id integer PRIMARY KEY);');
  const config = z.object(storeSettings).parse({ DATABASE_URL: 'memory:', PGLITE_SHARED_BUFFERS: '2MB' });
  const db = await openDatabase(`pglite-memory-${process.pid}`, config, pathToFileURL(`${migrations}/`));
  t.teardown(() => db.close());
  t.is(await shared(db), '2MB');
  t.is(z.object(storeSettings).parse({}).PGLITE_SHARED_BUFFERS, '8MB');
  t.false(z.object(storeSettings).safeParse({ PGLITE_SHARED_BUFFERS: 'lots' }).success);
});
