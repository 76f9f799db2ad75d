import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from './database.js';

export interface Migration {
  version: string;
  sql: string;
}

/** The versioned `NNN_name.sql` files of a folder, in version order. */
export function readMigrations(dir: string): Migration[] {
  return readdirSync(dir)
    .filter((file) => /^\d{3}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => ({ version: file.replace(/\.sql$/, ''), sql: readFileSync(join(dir, file), 'utf8') }));
}

// Any constant works: every service takes the same lock, so two processes starting at once on
// one PostgreSQL apply migrations one after the other instead of racing on CREATE TABLE.
const MIGRATION_LOCK = 7_412_903;

/**
 * Applies the migrations not yet recorded for `service`, each with its record, in one
 * transaction: a restart or a second process applies nothing twice, a failure applies nothing.
 */
export async function migrate(db: Database, service: string, migrations: readonly Migration[]): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      service text NOT NULL,
      version text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (service, version))`);
    const done = new Set(
      (await tx.query<{ version: string }>('SELECT version FROM schema_migrations WHERE service = $1', [service])).map((row) => row.version),
    );
    const applied: string[] = [];
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      await tx.execute(migration.sql);
      await tx.query('INSERT INTO schema_migrations (service, version) VALUES ($1, $2)', [service, migration.version]);
      applied.push(migration.version);
    }
    return applied;
  });
}
