import { existsSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { migrate, openPglite, openPostgres, readMigrations, type Database } from '../../services/kit/store/index.js';
import { fileURLToPath } from 'node:url';

export type Backend = 'memory' | 'pglite' | 'postgres';

/** Opens a database of one kind, migrated with a service's migrations; the caller closes it. */
export async function openTestDatabase(backend: Backend, options: { service: string; migrations: URL; postgresUrl?: string; dir?: string }): Promise<Database> {
  const db =
    backend === 'memory'
      ? await openPglite(undefined, { loadDataDir: await freshCluster() })
      : backend === 'pglite'
        ? await openPglite(options.dir ?? mkdtempSync(join(tmpdir(), 'wifi-pglite-')))
        : openPostgres(requireUrl(options.postgresUrl), 20);
  await migrate(db, options.service, readMigrations(fileURLToPath(options.migrations)));
  return db;
}

// A new PGlite cluster in memory runs initdb: 3-10 s of CPU each on the project's 2-core machine
// under a test run's load, and the unit tests open a few hundred. Loading a copy of a fresh cluster
// costs about a quarter of that. The copy is made once per test run (a file in the run's data
// folder, or the temp dir, named by PGlite's version; written whole, then renamed, so that workers
// starting together never read half of one) and read once per process.
const PGLITE_VERSION = (
  JSON.parse(readFileSync(join(dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), '..', 'package.json'), 'utf8')) as {
    version: string;
  }
).version;
let cluster: Promise<Blob> | undefined;

function freshCluster(): Promise<Blob> {
  cluster ??= (async () => {
    const file = join(process.env['PLATFORM_DATA_DIR'] ?? tmpdir(), `wifi-pglite-cluster-${PGLITE_VERSION}.tar`);
    if (existsSync(file)) return new Blob([readFileSync(file)]);
    const made = await PGlite.create();
    const dump = await made.dumpDataDir('none');
    await made.close();
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
    return dump;
  })();
  return cluster;
}

function requireUrl(url: string | undefined): string {
  if (url === undefined) throw new Error("a postgres backend needs the server's database url");
  return url;
}

/** `db` with its statements counted (what an idle look costs), otherwise the same database. */
export function countingStatements(db: Database): Database & { statements: () => number } {
  let statements = 0;
  return Object.assign(Object.create(db) as Database, {
    query: (sql: string, params?: readonly unknown[]) => {
      statements += 1;
      return db.query(sql, params);
    },
    statements: () => statements,
  });
}
