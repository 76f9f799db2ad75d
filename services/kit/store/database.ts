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

/** A channel name for LISTEN/NOTIFY: a plain lower-case SQL identifier (it is written into the statement). */
export const CHANNEL_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/;

/** Which engine runs the SQL: PGlite on a folder, PGlite in memory (unit tests), or a PostgreSQL server. */
export type DatabaseKind = 'pglite' | 'memory' | 'postgres';

export interface Database extends Queryable {
  readonly kind: DatabaseKind;
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Calls `onNotify` for each `NOTIFY` on `channel` committed by any writer of this database (any
   * process, on a server). A listener that lost its connection reports `listening() === false`
   * until it has it back: a caller waiting on notifications then falls back to reading on a
   * clock, since notifications sent meanwhile are lost.
   */
  listen(channel: string, onNotify: () => void): Promise<Listener>;
  /**
   * A count that moves with each write this process makes (every statement but a plain
   * SELECT, and every transaction), when this process is the database's only writer (PGlite: one
   * process opens its folder); undefined on a server, where other processes write too. What was
   * read while the count stood still holds for as long as it stays there (`keptUntilWrite`).
   */
  writes(): number | undefined;
  close(): Promise<void>;
}

/** A LISTEN in effect (Database.listen). */
export interface Listener {
  /** False while the connection that listens is lost (PostgreSQL server); always true on PGlite. */
  listening(): boolean;
  stop(): Promise<void>;
}
