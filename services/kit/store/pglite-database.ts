import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { Database, Row } from './database.js';
import { lockFolder, StoreError, type FolderLock } from './folder-lock.js';
import { autovacuum, type MaintenanceRun } from './pglite-autovacuum.js';
import { answerBackupRequests } from './pglite-backup.js';
import { preparedQueries } from './pglite-prepared.js';

/** Write statements between two looks at what needs vacuuming (docs/operate/configuration.md: PGLITE_AUTOVACUUM_EVERY). */
export const DEFAULT_AUTOVACUUM_EVERY = 500;

/**
 * PostgreSQL's buffer cache inside PGlite (docs/operate/configuration.md: PGLITE_SHARED_BUFFERS).
 * PostgreSQL's own default, 128MB, is written through when PGlite starts, so each service's
 * process was resident for it in full (about 140 MB of a 300 MB process, npm run bench:memory)
 * for stores of a few MB; the files' pages stay in the kernel's cache beside it. 1MB rather than
 * 8MB: each PGlite's resident WebAssembly memory went from 21 to 13 MB, 32 MB for the co-host's
 * four (docs/decisions/0108-co-host-memory-at-rest.md).
 */
export const DEFAULT_SHARED_BUFFERS = '1MB';

/**
 * Runs initdb for a new folder in a short-lived child process (pglite-initdb.ts). In process, its
 * WebAssembly memory stayed resident in the service until a full collection that, with
 * --no-memory-reducer, an idle service never runs: 660-810 MB for a stateful service's first
 * start against about 170 MB reopened (docs/decisions/0071-embedded-memory.md). The child runs with
 * this process's Node options (tsx in tests and scripts, the compiled file under dist/).
 */
function initdbApart(dir: string): Promise<void> {
  const compiled = fileURLToPath(new URL('./pglite-initdb.js', import.meta.url));
  const script = existsSync(compiled) ? compiled : fileURLToPath(new URL('./pglite-initdb.ts', import.meta.url));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, script, dir], { stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => {
      errors = `${errors}${chunk.toString()}`.slice(-2000);
    });
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`initdb ${signal ?? `exited with ${code}`}${errors === '' ? '' : `: ${errors.trim().split('\n').pop() ?? ''}`}`)),
    );
  });
}

/** A statement that writes nothing: a plain SELECT (our stores call no writing function from one). */
const READ_ONLY = /^\s*SELECT\b/i;

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
 * the old folder aside); closing releases it. `options.autovacuumEvery`: write statements between
 * two looks at what needs vacuuming (pglite-autovacuum.ts; 0: never), each look reported to
 * `options.onMaintenance`. `options.sharedBuffers`: PostgreSQL's shared_buffers, set at each
 * start and never written into the folder's postgresql.conf.
 */
export async function openPglite(
  dataDir: string | undefined,
  options: { loadDataDir?: Blob; lock?: FolderLock; autovacuumEvery?: number; onMaintenance?: (run: MaintenanceRun) => void; sharedBuffers?: string } = {},
): Promise<Database & { dump?: () => Promise<Blob> }> {
  if (dataDir !== undefined) mkdirSync(dataDir, { recursive: true });
  const lock = dataDir === undefined ? undefined : (options.lock ?? lockFolder(dataDir));
  let db: PGlite;
  try {
    if (dataDir !== undefined && options.loadDataDir === undefined && !existsSync(join(dataDir, 'PG_VERSION'))) await initdbApart(dataDir);
    // PGlite is one backend in this process, never a server taking connections; PostgreSQL's
    // default of 100 sizes its per-connection shared arrays (lock table, backend slots) for 100,
    // which PGlite sets up at start: 4 MB of each instance's resident memory (0108).
    const startParams = [...PGlite.defaultStartParams, '-c', `shared_buffers=${options.sharedBuffers ?? DEFAULT_SHARED_BUFFERS}`, '-c', 'max_connections=1'];
    db = await PGlite.create(dataDir, options.loadDataDir === undefined ? { startParams } : { startParams, loadDataDir: options.loadDataDir });
  } catch (error) {
    lock?.release();
    throw cannotOpen(dataDir ?? 'memory:', error);
  }
  const dump = () => db.dumpDataDir('gzip');
  const stopAnswering = dataDir === undefined ? () => undefined : answerBackupRequests(dataDir, dump);
  const statements = preparedQueries(db);
  const maintenance = autovacuum(db, options.autovacuumEvery ?? DEFAULT_AUTOVACUUM_EVERY, options.onMaintenance);
  // Moved when a write is sent and when it ends, so whatever a read overlapped, the
  // count has moved past the one the read was kept under.
  let writes = 0;
  const writing = async <T>(work: () => Promise<T>): Promise<T> => {
    writes += 1;
    try {
      return await work();
    } finally {
      writes += 1;
      maintenance.wrote();
    }
  };
  const query =
    (target: (sql: string, params: readonly unknown[]) => Promise<Row[]>) =>
    <R extends Row>(sql: string, params: readonly unknown[] = []): Promise<R[]> =>
      (READ_ONLY.test(sql) ? target(sql, params) : writing(() => target(sql, params))) as Promise<R[]>;
  // A schema change (a migration) makes every prepared statement stale.
  const executeOn = async (target: { exec(sql: string): Promise<unknown> }, sql: string) => {
    await target.exec(sql);
    statements.forget();
  };
  return {
    kind: dataDir === undefined ? 'memory' : 'pglite',
    query: query((sql, params) => statements.query(sql, params)),
    execute: (sql) => writing(() => executeOn(db, sql)),
    transaction: (work) =>
      writing(() =>
        db.transaction((tx) =>
          work({
            query: query((sql, params) => statements.queryInTransaction(tx, sql, params)),
            execute: (sql) => executeOn(tx, sql),
          }),
        ),
      ),
    // PGlite runs in this process: its notifications cannot be lost while it is open.
    async listen(channel, onNotify) {
      const unlisten = await db.listen(channel, () => onNotify());
      return { listening: () => true, stop: () => unlisten() };
    },
    writes: () => writes,
    close: async () => {
      stopAnswering();
      try {
        await maintenance.settled();
        await db.close();
      } finally {
        lock?.release();
      }
    },
    dump,
  };
}
