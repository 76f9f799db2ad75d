import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keptUntilWrite, openPglite, openPostgres, type Database } from '../../../services/kit/store/index.js';
import { startPostgres } from '../../helpers/postgres-server.js';
import { countingStatements as counting } from '../../helpers/databases.js';

// On PGlite this process is the database's only writer, so what it read holds until it
// writes; an idle process's periodic looks then cost no statement (a cold store is slow to touch
// here). On a server other processes write: nothing is kept.

async function things(db: Database) {
  await db.execute('CREATE TABLE things (id text PRIMARY KEY, n integer NOT NULL)');
  await db.query("INSERT INTO things VALUES ('a', 1)");
}

test('PGlite: a SELECT leaves the write count where it was; a write, a transaction and a script move it', async (t) => {
  const db = await openPglite(join(mkdtempSync(join(tmpdir(), 'wifi-kept-')), 'db'));
  t.teardown(() => db.close());
  await things(db);
  const at = db.writes();
  t.is(typeof at, 'number');
  await db.query('SELECT n FROM things');
  await db.query('  select count(*) FROM things');
  t.is(db.writes(), at, 'reads write nothing');
  await db.query("UPDATE things SET n = 2 WHERE id = 'none'");
  const afterUpdate = db.writes();
  t.not(afterUpdate, at, 'an UPDATE moves it, even one that changed no row');
  await db.query("WITH x AS (SELECT 1) INSERT INTO things SELECT 'b', 2 FROM x");
  t.not(db.writes(), afterUpdate, 'a statement that is not a plain SELECT moves it');
  const beforeTx = db.writes();
  await db.transaction((tx) => tx.query('SELECT 1'));
  t.not(db.writes(), beforeTx, 'a transaction moves it');
  const beforeScript = db.writes();
  await db.execute('SELECT 1');
  t.not(db.writes(), beforeScript, 'a script moves it');
});

test('PGlite: a kept read runs once until the next write, per key', async (t) => {
  const db = counting(await openPglite(undefined));
  t.teardown(() => db.close());
  await things(db);
  const n = keptUntilWrite(
    db,
    async (id: string) => (await db.query<{ n: number }>('SELECT n FROM things WHERE id = $1', [id]))[0]?.n,
    (id) => id,
  );
  const start = db.statements();
  t.is(await n('a'), 1);
  t.is(await n('a'), 1);
  t.is(await n('b'), undefined);
  t.is(await n('b'), undefined);
  t.is(db.statements() - start, 2, 'one statement per key while nothing was written');
  await db.query("UPDATE things SET n = 5 WHERE id = 'a'");
  t.is(await n('a'), 5, 'a write makes it read again');
  t.is(await n('a'), 5);
  t.is(db.statements() - start, 4);
});

test('PGlite: a read that a write overlapped is not kept', async (t) => {
  const db = counting(await openPglite(undefined));
  t.teardown(() => db.close());
  await things(db);
  const n = keptUntilWrite(db, async () => (await db.query<{ n: number }>("SELECT n FROM things WHERE id = 'a'"))[0]?.n);
  // The write is sent while the read is under way: whichever runs first, the read is not trusted.
  const [first] = await Promise.all([n(), db.query("UPDATE things SET n = 7 WHERE id = 'a'")]);
  t.true(first === 1 || first === 7);
  t.is(await n(), 7, 'the next call reads again and sees the write');
});

test('a PostgreSQL server: nothing is kept (other processes write too)', async (t) => {
  const server = await startPostgres();
  t.teardown(() => server.stop());
  const url = await server.createDatabase();
  const plain = openPostgres(url, 2);
  const db = counting(plain);
  t.teardown(() => plain.close());
  await things(plain);
  t.is(db.writes(), undefined);
  const n = keptUntilWrite(db, async () => (await db.query<{ n: number }>("SELECT n FROM things WHERE id = 'a'"))[0]?.n);
  t.is(await n(), 1);
  // Another process's write, which this one cannot count, is seen at once.
  const other = openPostgres(url, 1);
  t.teardown(() => other.close());
  await other.query("UPDATE things SET n = 3 WHERE id = 'a'");
  t.is(await n(), 3);
  t.is(db.statements(), 2, 'every call read');
});
