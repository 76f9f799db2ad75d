import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Counter } from 'prom-client';
import { z } from 'zod';
import { envInt } from '../config.js';
import { metricsRegistry } from '../metrics.js';
import { counted } from './counted.js';
import type { Database } from './database.js';
import { migrate, readMigrations } from './migrations.js';
import type { MaintenanceRun } from './pglite-autovacuum.js';
import { DEFAULT_AUTOVACUUM_EVERY, DEFAULT_SHARED_BUFFERS, openPglite } from './pglite-database.js';
import { openPostgres } from './postgres-database.js';

/** Store settings shared by every service that keeps state (docs/operate/configuration.md). */
export const storeSettings = {
  DATABASE_URL: z
    .string()
    .regex(/^(postgres(ql)?:\/\/.+|memory:)$/, 'must be postgres://..., postgresql://... or memory:')
    .optional()
    .describe('Unset: PGlite in DATA_DIR/<service>. postgres://...: a PostgreSQL server. memory: PGlite in memory (tests).'),
  DATA_DIR: z.string().default('.data').describe('Folder of the embedded PGlite databases, one sub-folder per service.'),
  DATABASE_POOL_SIZE: envInt(10, 1, 200).describe('Connections in the pool to a PostgreSQL server.'),
  PGLITE_AUTOVACUUM_EVERY: envInt(DEFAULT_AUTOVACUUM_EVERY, 0, 1_000_000).describe(
    "PGlite only: write statements between two looks at which tables PostgreSQL's autovacuum rule says to vacuum or analyze (PGlite has no autovacuum of its own). 0: never.",
  ),
  PGLITE_SHARED_BUFFERS: z
    .string()
    .regex(/^[1-9][0-9]{0,5}(kB|MB|GB)$/, 'must be a size such as 8MB, 512kB or 1GB')
    .default(DEFAULT_SHARED_BUFFERS)
    .describe("PGlite only: PostgreSQL's shared_buffers, resident in the service's process in full."),
};

export interface StoreConfig {
  DATABASE_URL?: string | undefined;
  DATA_DIR: string;
  DATABASE_POOL_SIZE: number;
  PGLITE_AUTOVACUUM_EVERY?: number;
  PGLITE_SHARED_BUFFERS?: string;
}

const maintenance = new Counter({
  name: 'db_maintenance_total',
  help: 'PGlite autovacuum: tables vacuumed and analysed, and rounds that failed, by service.',
  labelNames: ['service', 'action'],
  registers: [metricsRegistry],
});

/** Counts one autovacuum round of `service` (pglite-autovacuum.ts). */
function countRun(service: string): (run: MaintenanceRun) => void {
  return (run) => {
    if ('failed' in run) maintenance.inc({ service, action: 'failed' });
    else {
      if (run.vacuumed.length > 0) maintenance.inc({ service, action: 'vacuum' }, run.vacuumed.length);
      if (run.analysed.length > 0) maintenance.inc({ service, action: 'analyze' }, run.analysed.length);
    }
  };
}

/**
 * Opens the service's database and brings its schema up to date. The migrations folder is
 * the `migrations/` beside the caller's source; compiled code under dist/ reads the same files.
 */
export async function openDatabase(service: string, config: StoreConfig, migrationsUrl: URL): Promise<Database> {
  const url = config.DATABASE_URL;
  const embedded = {
    autovacuumEvery: config.PGLITE_AUTOVACUUM_EVERY ?? DEFAULT_AUTOVACUUM_EVERY,
    onMaintenance: countRun(service),
    sharedBuffers: config.PGLITE_SHARED_BUFFERS ?? DEFAULT_SHARED_BUFFERS,
  };
  const db =
    url === undefined
      ? await openPglite(join(config.DATA_DIR, service), embedded)
      : url === 'memory:'
        ? await openPglite(undefined, embedded)
        : openPostgres(url, config.DATABASE_POOL_SIZE);
  try {
    await migrate(db, service, readMigrations(sourceDir(migrationsUrl)));
  } catch (error) {
    await db.close();
    throw error;
  }
  return counted(db, service);
}

/**
 * A data file beside a service's source, also when the code runs compiled: `dist/services/x/...`
 * holds no SQL or dictionary (tsc copies none), so `services/x/...` is read.
 */
export function sourceDir(url: URL): string {
  return fileURLToPath(url).replace(/[\\/]dist([\\/]services[\\/])/, '$1');
}
