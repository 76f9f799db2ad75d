import type { Database } from './database.js';

/** Answers kept at most (a caller asking for ever new keys without writing cannot grow the memory). */
const MAX_KEPT = 64;

/**
 * `read`, with its answers kept (per `keyOf` of its arguments) for as long as this
 * process has written nothing to `db` since they were read, where this process is the database's
 * only writer (PGlite); on a server every call reads. An idle process wakes into a cold store
 * (on the 2-core machine, memory untouched for minutes is slow to touch again), so a periodic look
 * that finds what it found last time costs no statement. Hand-written: the validity is the
 * store's own write count, which no caching library knows about.
 */
export function keptUntilWrite<A extends unknown[], T>(
  db: Pick<Database, 'writes'>,
  read: (...args: A) => Promise<T>,
  keyOf: (...args: A) => string = () => '',
): (...args: A) => Promise<T> {
  let keptAt: number | undefined;
  const kept = new Map<string, T>();
  return async (...args: A) => {
    const before = db.writes();
    const key = keyOf(...args);
    if (before !== undefined && before === keptAt && kept.has(key)) return kept.get(key) as T;
    const value = await read(...args);
    // A write that overlapped the read moved the count past `before`: the next call reads again.
    if (before !== undefined) {
      if (keptAt !== before || kept.size >= MAX_KEPT) kept.clear();
      keptAt = before;
      kept.set(key, value);
    }
    return value;
  };
}
