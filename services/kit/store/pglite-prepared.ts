import { parse, protocol, type PGlite } from '@electric-sql/pglite';
import type { Row } from './database.js';

/** Most statements kept prepared; further ones run unprepared. */
const MOST_PREPARED = 500;

const concat = (parts: Uint8Array[]): Uint8Array => {
  const message = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    message.set(part, offset);
    offset += part.length;
  }
  return message;
};

/**
 * PGlite's `query` sends each statement as six protocol messages, each a trip into WebAssembly,
 * and parses and plans it every time: about half a millisecond of CPU for a lookup by key. This
 * prepares each distinct statement once (named, with its parameter types described) and then
 * runs it as one trip (Bind, Describe, Execute, Sync): a third of the cost on the hot paths
 * (an Access-Request's credential UPDATE, a session read). Parameters are serialized by the
 * described types with PGlite's own serializers, as its `query` does; statements run under the
 * same locks as its `query`; inside a transaction (whose lock is held) under the query lock only,
 * as PGlite's own `tx.query` does. A statement stays prepared when its transaction rolls back
 * (PostgreSQL's protocol-level statements are not transactional).
 */
export function preparedQueries(db: PGlite) {
  const prepared = new Map<string, { name: string; types: number[] }>();
  let named = 0;
  const exclusive = <T>(work: () => Promise<T>) => db._runExclusiveTransaction(() => db._runExclusiveQuery(work));
  const inTransaction = <T>(work: () => Promise<T>) => db._runExclusiveQuery(work);

  async function prepare(sql: string): Promise<{ name: string; types: number[] }> {
    named += 1;
    const name = `kit_${named}`;
    const { messages } = await db.execProtocol(
      concat([protocol.serialize.parse({ name, text: sql, types: [] }), protocol.serialize.describe({ type: 'S', name }), protocol.serialize.sync()]),
    );
    const statement = { name, types: parse.parseDescribeStatementResults(messages) };
    prepared.set(sql, statement);
    return statement;
  }

  async function run<R extends Row>(lock: <T>(work: () => Promise<T>) => Promise<T>, sql: string, params: readonly unknown[]): Promise<R[]> {
    return lock(async () => {
      const { name, types } = prepared.get(sql) ?? (await prepare(sql));
      const values = params.map((value, i) => {
        if (value === null || value === undefined) return null;
        const serialize = db.serializers[types[i] ?? 0];
        return serialize ? serialize(value) : String(value);
      });
      const { messages } = await db.execProtocol(
        concat([
          protocol.serialize.bind({ statement: name, values }),
          protocol.serialize.describe({ type: 'P' }),
          protocol.serialize.execute({}),
          protocol.serialize.sync(),
        ]),
      );
      return (parse.parseResults(messages, db.parsers)[0]?.rows ?? []) as R[];
    });
  }

  return {
    async query<R extends Row = Row>(sql: string, params: readonly unknown[]): Promise<R[]> {
      if (!prepared.has(sql) && prepared.size >= MOST_PREPARED) return (await db.query<R>(sql, [...params])).rows;
      return run<R>(exclusive, sql, params);
    },
    /** The same, from inside `db.transaction` (its `tx`), whose transaction lock is already held. */
    async queryInTransaction<R extends Row = Row>(tx: Pick<PGlite, 'query'>, sql: string, params: readonly unknown[]): Promise<R[]> {
      if (!prepared.has(sql) && prepared.size >= MOST_PREPARED) return (await tx.query<R>(sql, [...params])).rows;
      return run<R>(inTransaction, sql, params);
    },
    /** After a schema change a prepared statement's plan may not fit: prepare afresh. */
    forget(): void {
      prepared.clear();
    },
  };
}
