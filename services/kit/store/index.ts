export { CHANNEL_PATTERN, type Database, type DatabaseKind, type Listener, type Queryable, type Row } from './database.js';
export { migrate, readMigrations, type Migration } from './migrations.js';
export { openDatabase, sourceDir, storeSettings, type StoreConfig } from './open-database.js';
export { lockFolder, ownerOf, StoreError, type FolderLock } from './folder-lock.js';
export { backupFileOf } from './pglite-backup.js';
export { openPglite } from './pglite-database.js';
export { openPostgres } from './postgres-database.js';
export { keptUntilWrite } from './kept.js';
export { storeReadiness } from './readiness.js';
export {
  deleteBatch,
  deleteWithChildren,
  purgeOnce,
  purgeSettings,
  retentionDays,
  startPurgeJob,
  type PurgeSettings,
  type RetentionRule,
} from './retention.js';
