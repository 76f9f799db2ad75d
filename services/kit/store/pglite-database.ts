import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { Database } from './database.js';
import { lockFolder, StoreError, type FolderLock } from './folder-lock.js';
import { answerBackupRequests } from './pglite-backup.js';
import { preparedQueries } from './pglite-prepared.js';

const cannotOpen = (dir: string, error: unknown) =>
  new StoreError(
    `the embedded store at ${dir} could not be opened (${error instanceof Error ? error.message : String(error)}). ` +
      `Restore a backup into it ('npm run store -- restore <service> <file>'), or move the folder aside to start empty.`,
  );

/**
 * PGlite: PostgreSQL compiled to WebAssembly, running in this process on a folder (or in
 * memory when `dataDir` is undefined). One process owns a folder (folder-lock.ts), so each
 * service has its own; the owner answers backup requests (pglite-backup.ts). `options.lock`: the
 * folder's lock, taken already by the caller (the restore command, which holds it while it moves
 * the old folder aside); closing releases it.
 */
export async function openPglite(dataDir: string | undefined, options: { loadDataDir?: Blob; lock?: FolderLock } = {}): Promise<Database & { dump?: () => Promise<Blob> }> {
  if (dataDir !== undefined) mkdirSync(dataDir, { recursive: true });
  const lock = dataDir === undefined ? undefined : (options.lock ?? lockFolder(dataDir));
  let db: PGlite;
  try {
    db = await PGlite.create(dataDir, options.loadDataDir === undefined ? {} : { loadDataDir: options.loadDataDir });
  } catch (error) {
    lock?.release();
    throw cannotOpen(dataDir ?? 'memory:', error);
  }
  const dump = () => db.dumpDataDir('gzip');
  const stopAnswering = dataDir === undefined ? () => undefined : answerBackupRequests(dataDir, dump);
  const statements = preparedQueries(db);
  // A schema change (a migration) makes every prepared statement stale.
  const executeOn = async (target: { exec(sql: string): Promise<unknown> }, sql: string) => {
    await target.exec(sql);
    statements.forget();
  };
  return {
    kind: dataDir === undefined ? 'memory' : 'pglite',
    query: (sql, params = []) => statements.query(sql, params),
    execute: (sql) => executeOn(db, sql),
    transaction: (work) =>
      db.transaction((tx) =>
        work({
          query: (sql, params = []) => statements.queryInTransaction(tx, sql, params),
          execute: (sql) => executeOn(tx, sql),
        }),
      ),
    // PGlite runs in this process: its notifications cannot be lost while it is open.
    async listen(channel, onNotify) {
      const unlisten = await db.listen(channel, () => onNotify());
      return { listening: () => true, stop: () => unlisten() };
    },
    close: async () => {
      stopAnswering();
      try {
        await db.close();
      } finally {
        lock?.release();
      }
    },
    dump,
  };
}
