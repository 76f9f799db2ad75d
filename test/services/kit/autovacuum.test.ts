import test from 'ava';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { metricsRegistry } from '../../../services/kit/metrics.js';
import { openDatabase, openPglite, type Database } from '../../../services/kit/store/index.js';
import type { MaintenanceRun } from '../../../services/kit/store/pglite-autovacuum.js';
import { waitFor } from '../../helpers/wait-for.js';

// PGlite (PostgreSQL in single-user mode) has no autovacuum; the kit runs PostgreSQL's
// rule itself, started by this process's writes (an idle store costs nothing).

async function opened(every: number): Promise<{ db: Database; runs: MaintenanceRun[] }> {
  const runs: MaintenanceRun[] = [];
  const db = await openPglite(undefined, { autovacuumEvery: every, onMaintenance: (run) => runs.push(run) });
  return { db, runs };
}

const stats = async (db: Database) =>
  (
    await db.query<{ n_dead_tup: string; vacuum_count: string; analyze_count: string }>(
      "SELECT n_dead_tup::text, vacuum_count::text, analyze_count::text FROM pg_stat_user_tables WHERE relname = 'things'",
    )
  )[0];

test('PGlite: after so many writes, a table with more dead rows than the rule allows is vacuumed and analysed', async (t) => {
  const { db, runs } = await opened(10);
  t.teardown(() => db.close());
  await db.execute('CREATE TABLE things (id integer PRIMARY KEY, n integer NOT NULL)');
  await db.query('INSERT INTO things SELECT g, 0 FROM generate_series(1, 200) AS g');
  for (let i = 0; i < 7; i++) await db.query('UPDATE things SET n = n + 1');
  await db.query('SELECT count(*) FROM things');
  t.deepEqual(runs, [], 'nine writes: no look yet');
  t.is((await stats(db))?.vacuum_count, '0');

  await db.query('UPDATE things SET n = n + 1');
  await waitFor(
    () => runs.length,
    (n) => n > 0,
  );
  t.deepEqual(runs, [{ vacuumed: ['public.things'], analysed: ['public.things'] }]);
  t.like(await stats(db), { n_dead_tup: '0', vacuum_count: '1', analyze_count: '1' });
});

test('PGlite: a table under the rule is left alone; one changed enough is only analysed', async (t) => {
  const { db, runs } = await opened(3);
  t.teardown(() => db.close());
  await db.execute('CREATE TABLE things (id integer PRIMARY KEY, n integer NOT NULL)');
  await db.query('INSERT INTO things SELECT g, 0 FROM generate_series(1, 1000) AS g');
  await db.query('UPDATE things SET n = 1 WHERE id = 1');
  // 1,000 rows inserted: not over 1000 + 20% since the last vacuum, over 50 + 10% since the last analyze.
  await waitFor(
    () => runs.length,
    (n) => n === 1,
  );
  t.deepEqual(runs[0], { vacuumed: [], analysed: ['public.things'] });
  for (let id = 2; id <= 4; id++) await db.query('UPDATE things SET n = 1 WHERE id = $1', [id]);
  await waitFor(
    () => runs.length,
    (n) => n === 2,
  );
  t.deepEqual(runs[1], { vacuumed: [], analysed: [] }, 'three dead rows of 1,000: nothing due');
  t.like(await stats(db), { vacuum_count: '0', analyze_count: '1' });
});

test('PGlite: reads start no look, and 0 turns the looks off', async (t) => {
  const reading = await opened(1);
  t.teardown(() => reading.db.close());
  for (let i = 0; i < 20; i++) await reading.db.query('SELECT 1 AS one');
  await reading.db.query('SELECT 2 AS two');
  t.deepEqual(reading.runs, []);

  const off = await opened(0);
  t.teardown(() => off.db.close());
  await off.db.execute('CREATE TABLE things (id integer PRIMARY KEY, n integer NOT NULL)');
  await off.db.query('INSERT INTO things SELECT g, 0 FROM generate_series(1, 200) AS g');
  for (let i = 0; i < 10; i++) await off.db.query('UPDATE things SET n = n + 1');
  await off.db.query('SELECT count(*) FROM things');
  t.deepEqual(off.runs, []);
  t.is((await stats(off.db))?.vacuum_count, '0');
});

test('openDatabase: PGLITE_AUTOVACUUM_EVERY sets the looks, and db_maintenance_total counts what they did', async (t) => {
  const migrations = join(mkdtempSync(join(tmpdir(), 'wifi-autovacuum-')), 'migrations');
  mkdirSync(migrations);
  writeFileSync(join(migrations, '001_things.sql'), 'CREATE TABLE things (id integer PRIMARY KEY, n integer NOT NULL);');
  const service = `autovacuum-${process.pid}`;
  const counted = async (action: string) =>
    (await metricsRegistry.getSingleMetric('db_maintenance_total')?.get())?.values.find((v) => v.labels.service === service && v.labels.action === action)
      ?.value ?? 0;
  const db = await openDatabase(
    service,
    { DATABASE_URL: 'memory:', DATA_DIR: '.data', DATABASE_POOL_SIZE: 1, PGLITE_AUTOVACUUM_EVERY: 4 },
    pathToFileURL(`${migrations}/`),
  );
  t.teardown(() => db.close());
  await db.query('INSERT INTO things SELECT g, 0 FROM generate_series(1, 200) AS g');
  for (let i = 0; i < 3; i++) await db.query('UPDATE things SET n = n + 1');
  await waitFor(
    () => counted('vacuum'),
    (n) => n >= 1,
  );
  t.true((await counted('analyze')) >= 1);
  t.is(await counted('failed'), 0);
});
