import pg from 'pg';
import type { Database, Queryable, Row } from './database.js';

/** A PostgreSQL server through a `pg` connection pool (`DATABASE_URL=postgres://...`). */
export function openPostgres(connectionString: string, maxConnections: number): Database {
  const pool = new pg.Pool({ connectionString, max: maxConnections });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => undefined);
  const queryable = (target: Pick<pg.Pool, 'query'>): Queryable => ({
    async query<R extends Row = Row>(sql: string, params: readonly unknown[] = []) {
      return (await target.query<R>(sql, [...params])).rows;
    },
    // Without parameters pg uses the simple protocol, which takes several statements.
    async execute(sql: string) {
      await target.query(sql);
    },
  });
  return {
    kind: 'postgres',
    ...queryable(pool),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(queryable(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
