import { Counter } from 'prom-client';
import { metricsRegistry } from '../metrics.js';
import type { Database, Queryable } from './database.js';

// What a request costs in the store is counted where every statement passes, so
// `bench:portal` (and an operator) can see the statements and transactions per sign-in.
const statements = new Counter({
  name: 'db_statements_total',
  help: 'SQL statements run (inside transactions too), by service.',
  labelNames: ['service'],
  registers: [metricsRegistry],
});
const transactions = new Counter({
  name: 'db_transactions_total',
  help: 'Explicit transactions run (BEGIN ... COMMIT or ROLLBACK), by service.',
  labelNames: ['service'],
  registers: [metricsRegistry],
});

/** `db` with each statement and transaction counted under `service`; otherwise the same database. */
export function counted<D extends Database>(db: D, service: string): D {
  const statement = statements.labels({ service });
  const transaction = transactions.labels({ service });
  const count = (target: Queryable): Queryable => ({
    query: (sql, params) => {
      statement.inc();
      return target.query(sql, params);
    },
    execute: (sql) => target.execute(sql),
  });
  return Object.assign(Object.create(db) as D, {
    query: count(db).query,
    transaction: <T>(work: (tx: Queryable) => Promise<T>) => {
      transaction.inc();
      return db.transaction((tx) => work(count(tx)));
    },
  });
}
