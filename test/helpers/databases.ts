import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate, openPglite, openPostgres, readMigrations, type Database } from '../../services/kit/store/index.js';
import { fileURLToPath } from 'node:url';

export type Backend = 'memory' | 'pglite' | 'postgres';

/** Opens a database of one kind, migrated with a service's migrations; the caller closes it. */
export async function openTestDatabase(backend: Backend, options: { service: string; migrations: URL; postgresUrl?: string; dir?: string }): Promise<Database> {
  const db =
    backend === 'memory'
      ? await openPglite(undefined)
      : backend === 'pglite'
        ? await openPglite(options.dir ?? mkdtempSync(join(tmpdir(), 'wifi-pglite-')))
        : openPostgres(requireUrl(options.postgresUrl), 20);
  await migrate(db, options.service, readMigrations(fileURLToPath(options.migrations)));
  return db;
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
