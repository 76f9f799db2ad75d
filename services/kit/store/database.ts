/**
 * The durable store's one interface (DESIGN.md "Durable state"): PostgreSQL's SQL dialect,
 * whichever engine runs it. Services write plain parameterised SQL against `Queryable` and
 * never learn which engine answers.
 */
export type Row = Record<string, unknown>;

export interface Queryable {
  /** Runs one statement with `$1`-style parameters and answers its rows. */
  query<R extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<R[]>;
  /** Runs a script of several statements without parameters (migrations). */
  execute(sql: string): Promise<void>;
}

/** Which engine runs the SQL: PGlite on a folder, PGlite in memory (unit tests), or a PostgreSQL server. */
export type DatabaseKind = 'pglite' | 'memory' | 'postgres';

export interface Database extends Queryable {
  readonly kind: DatabaseKind;
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
