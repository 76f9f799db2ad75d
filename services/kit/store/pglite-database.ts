import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { Database, Queryable, Row } from './database.js';

/**
 * PGlite: PostgreSQL compiled to WebAssembly, running in this process on a folder (or in
 * memory when `dataDir` is undefined). One process owns a folder, so each service has its own.
 */
export async function openPglite(dataDir: string | undefined): Promise<Database> {
  if (dataDir !== undefined) mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create(dataDir);
  const queryable = (target: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    async query<R extends Row = Row>(sql: string, params: readonly unknown[] = []) {
      return (await target.query<R>(sql, [...params])).rows;
    },
    async execute(sql: string) {
      await target.exec(sql);
    },
  });
  return {
    kind: dataDir === undefined ? 'memory' : 'pglite',
    ...queryable(db),
    transaction: (work) => db.transaction((tx) => work(queryable(tx))),
    close: () => db.close(),
  };
}
