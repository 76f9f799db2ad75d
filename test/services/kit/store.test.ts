import test from 'ava';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate, openPglite, openPostgres, readMigrations, type Database } from '../../../services/kit/store/index.js';
import { startPostgres, type PostgresServer } from '../../helpers/postgres-server.js';

// The store contract: the same statements on PGlite (folder and memory) and on a real
// PostgreSQL server answer alike. Each test runs once per backend.
let server: PostgresServer;
test.before(async () => {
  server = await startPostgres();
});
test.after.always(async () => {
  await server?.stop();
});

function migrationsDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'wifi-migrations-'));
  mkdirSync(dir, { recursive: true });
  for (const [name, sql] of Object.entries(files)) writeFileSync(join(dir, name), sql);
  return dir;
}

const MIGRATIONS = {
  '001_things.sql': 'CREATE TABLE things (id text PRIMARY KEY, n integer NOT NULL);',
  '002_more.sql': 'ALTER TABLE things ADD COLUMN note text;',
  'README.md': 'not a migration',
};

type Opener = () => Promise<{ open(): Promise<Database> }>;
const BACKENDS: Record<string, Opener> = {
  'PGlite in a folder': async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wifi-pglite-'));
    return { open: () => openPglite(dir) };
  },
  'a PostgreSQL server': async () => {
    const url = await server.createDatabase();
    return { open: async () => openPostgres(url, 5) };
  },
};

for (const [name, backend] of Object.entries(BACKENDS)) {
  test(`${name}: migrations apply in order once, are recorded, and survive a restart`, async (t) => {
    const target = await backend();
    const dir = migrationsDir(MIGRATIONS);
    const first = await target.open();
    t.deepEqual(await migrate(first, 'svc', readMigrations(dir)), ['001_things', '002_more']);
    await first.query('INSERT INTO things (id, n, note) VALUES ($1, $2, $3)', ['a', 1, 'kept']);
    await first.close();

    const second = await target.open();
    t.teardown(() => second.close());
    t.deepEqual(await migrate(second, 'svc', readMigrations(dir)), []);
    t.deepEqual(await second.query('SELECT id, n, note FROM things'), [{ id: 'a', n: 1, note: 'kept' }]);
    const recorded = await second.query<{ version: string }>("SELECT version FROM schema_migrations WHERE service = 'svc' ORDER BY version");
    t.deepEqual(
      recorded.map((row) => row.version),
      ['001_things', '002_more'],
    );
  });

  test(`${name}: a failing migration applies nothing`, async (t) => {
    const target = await backend();
    const db = await target.open();
    t.teardown(() => db.close());
    const dir = migrationsDir({ '001_ok.sql': 'CREATE TABLE ok (id text);', '002_broken.sql': 'CREATE TABLE broken (id nosuchtype);' });
    await t.throwsAsync(migrate(db, 'svc', readMigrations(dir)));
    t.deepEqual(await db.query("SELECT to_regclass('ok') IS NULL AS absent"), [{ absent: true }]);
  });

  test(`${name}: a transaction that throws writes nothing, one that resolves commits`, async (t) => {
    const target = await backend();
    const db = await target.open();
    t.teardown(() => db.close());
    await migrate(db, 'svc', readMigrations(migrationsDir(MIGRATIONS)));
    await t.throwsAsync(
      db.transaction(async (tx) => {
        await tx.query("INSERT INTO things (id, n) VALUES ('x', 1)");
        throw new Error('midway');
      }),
      { message: 'midway' },
    );
    await db.transaction((tx) => tx.query("INSERT INTO things (id, n) VALUES ('y', 2)"));
    t.deepEqual(await db.query('SELECT id FROM things ORDER BY id'), [{ id: 'y' }]);
  });

  test(`${name}: a statement failing inside a transaction rolls it back, and the same statement runs again afterwards`, async (t) => {
    const target = await backend();
    const db = await target.open();
    t.teardown(() => db.close());
    await migrate(db, 'svc', readMigrations(migrationsDir(MIGRATIONS)));
    // The same text inside and outside transactions: on PGlite it is prepared once and reused.
    const insert = 'INSERT INTO things (id, n) VALUES ($1, $2)';
    await db.query(insert, ['a', 1]);
    await t.throwsAsync(
      db.transaction(async (tx) => {
        await tx.query(insert, ['b', 2]);
        await tx.query(insert, ['a', 3]);
      }),
    );
    await db.transaction((tx) => tx.query(insert, ['c', 4]));
    await db.query(insert, ['d', 5]);
    t.deepEqual(await db.query('SELECT id, n FROM things ORDER BY id'), [
      { id: 'a', n: 1 },
      { id: 'c', n: 4 },
      { id: 'd', n: 5 },
    ]);
  });

  test(`${name}: a unique constraint decides between concurrent inserts`, async (t) => {
    const target = await backend();
    const db = await target.open();
    t.teardown(() => db.close());
    await migrate(db, 'svc', readMigrations(migrationsDir(MIGRATIONS)));
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => db.query("INSERT INTO things (id, n) VALUES ('same', $1) ON CONFLICT (id) DO NOTHING RETURNING n", [i])),
    );
    t.is(results.filter((rows) => rows.length === 1).length, 1);
  });
}

test('two processes migrating one PostgreSQL database at once apply each migration once', async (t) => {
  const url = await server.createDatabase();
  const dir = migrationsDir(MIGRATIONS);
  const a = openPostgres(url, 2);
  const b = openPostgres(url, 2);
  t.teardown(async () => {
    await a.close();
    await b.close();
  });
  const [fromA, fromB] = await Promise.all([migrate(a, 'svc', readMigrations(dir)), migrate(b, 'svc', readMigrations(dir))]);
  t.deepEqual([...fromA, ...fromB].sort(), ['001_things', '002_more']);
});

test('PGlite in memory keeps nothing after it closes (unit tests only)', async (t) => {
  const db = await openPglite(undefined);
  t.is(db.kind, 'memory');
  await db.query('CREATE TABLE gone (id text)');
  await db.close();
  const again = await openPglite(undefined);
  t.teardown(() => again.close());
  t.deepEqual(await again.query("SELECT to_regclass('gone') IS NULL AS absent"), [{ absent: true }]);
});
