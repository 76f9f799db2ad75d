import type { Database, Listener, Queryable } from '../kit/store/index.js';

/** The channel the session_events trigger notifies (migrations/003_feed_notify.sql). */
export const FEED_CHANNEL = 'session_events';
/** While the database connection that listens is lost, waiting readers look again this often. */
const UNHEARD_RECHECK_MS = 500;
/**
 * A notified change may not be readable at once: the feed shows only transactions older than
 * every one still running (change-feed.ts), and a transaction holding that back notifies nothing
 * when it ends. After a notification that showed nothing, the reader looks again after these
 * delays (the last one repeating) until it shows, or its wait runs out.
 */
const SETTLE_DELAYS_MS = [20, 50, 100, 250, 500, 1000];

/** Cursors whose empty reads are remembered at most (a reader asking after ever new cursors cannot grow the memory). */
const MAX_REMEMBERED = 64;

/** Why a wait ended: a notification, a settle delay, its time ran out, or the reader or service went away. */
export type Woken = 'notified' | 'settle' | 'timeout' | 'gone';

export interface FeedWake {
  /** A mark taken before reading the feed: a notification after it ends the next wait at once. */
  mark(): number;
  /**
   * Sleeps until a session event may be readable (a notification since `mark`), until `delayMs`
   * has passed, until `signal` aborts or the service closes. `settling`: how many reads in a row
   * found nothing after a notification (the next one comes after SETTLE_DELAYS_MS).
   */
  wait(mark: number, delayMs: number, settling: number, signal: AbortSignal): Promise<Woken>;
  /**
   * Remembers that a read after `after`, begun at `mark`, found nothing (none shown,
   * none held back by a running transaction) and that the next session expiry was `expiry` then.
   */
  foundNothing(after: string, mark: number, expiry: number | undefined): void;
  /**
   * Whether a read after `after` would find nothing without running it: one did at the current
   * mark (nothing notified since, and heard throughout) and no expiry it knew is due by `now`.
   * Answers that read's next expiry, or undefined when the feed must be read.
   */
  knownEmpty(after: string, now: number): { expiry: number | undefined } | undefined;
  /** How many readers wait now. */
  waiting(): number;
  /** Wakes every waiting reader and makes later waits return at once (the service is stopping). */
  drain(): void;
  close(): Promise<void>;
}

/**
 * Long-polling readers of the change feed sleep until the database says a session
 * event was committed (LISTEN/NOTIFY, one listener per process), until the next session expiry
 * is due, or until their wait runs out; nothing runs on a clock while nothing happens.
 */
export async function createFeedWake(db: Database): Promise<FeedWake> {
  const sleepers = new Set<() => void>();
  let generation = 0;
  let closed = false;
  const listener: Listener = await db.listen(FEED_CHANNEL, () => {
    generation += 1;
    for (const wake of [...sleepers]) wake();
  });
  // Reads that found nothing, by cursor, at `emptyAt` (cleared when a notification moves the mark).
  const empty = new Map<string, number | undefined>();
  let emptyAt = -1;
  const drain = () => {
    closed = true;
    for (const wake of [...sleepers]) wake();
  };
  return {
    mark: () => generation,
    foundNothing(after, mark, expiry) {
      if (mark !== generation) return;
      if (emptyAt !== mark || empty.size >= MAX_REMEMBERED) empty.clear();
      emptyAt = mark;
      empty.set(after, expiry);
    },
    knownEmpty(after, now) {
      if (emptyAt !== generation || !listener.listening() || !empty.has(after)) return undefined;
      const expiry = empty.get(after);
      return expiry === undefined || now < expiry ? { expiry } : undefined;
    },
    waiting: () => sleepers.size,
    wait(mark, delayMs, settling, signal) {
      return new Promise((resolve) => {
        if (closed || signal.aborted) return resolve('gone');
        if (generation !== mark) return resolve('notified');
        const settleMs =
          settling > 0 ? (SETTLE_DELAYS_MS[Math.min(settling, SETTLE_DELAYS_MS.length) - 1] ?? Number.POSITIVE_INFINITY) : Number.POSITIVE_INFINITY;
        const unheardMs = listener.listening() ? Number.POSITIVE_INFINITY : UNHEARD_RECHECK_MS;
        const delay = Math.max(0, Math.min(delayMs, settleMs, unheardMs));
        const done = (how: Woken) => {
          clearTimeout(timer);
          sleepers.delete(wake);
          signal.removeEventListener('abort', aborted);
          resolve(how);
        };
        const wake = () => done(closed ? 'gone' : 'notified');
        const aborted = () => done('gone');
        const timer = setTimeout(() => done(delay < delayMs ? 'settle' : 'timeout'), delay);
        sleepers.add(wake);
        signal.addEventListener('abort', aborted, { once: true });
      });
    },
    drain,
    async close() {
      drain();
      await listener.stop();
    },
  };
}

/** When the next granted session expires (its EXPIRED change is due then), or undefined. */
export async function nextExpiry(db: Queryable): Promise<number | undefined> {
  const [row] = await db.query<{ next: Date | null }>(`SELECT min(expires_at) AS next FROM sessions WHERE state = 'GRANTED'`);
  return row?.next == null ? undefined : row.next.getTime();
}
