import type { Database } from '../kit/store/index.js';
import { keyOf, type Counters } from './connection-records.js';

/** The counters of Interim-Updates not yet written, for one connection. */
export type PendingCounters = { nasId: string; acctSessionId: string; sessionId: string; at: Date } & Counters;

/** A connection an Interim-Update found running, as the buffer remembers it. */
export interface RunningConnection {
  sessionId: string;
  usernameHash: string | null;
  seenAt: number;
}

export interface CountersBufferOptions {
  /** How long Interim-Updates wait in memory before one statement writes them (0: the buffer is off). */
  flushMs: number;
  /** Connections known running are forgotten after this long without an Interim-Update. */
  forgetAfterMs: number;
  onFlushError?: (error: unknown) => void;
}

/**
 * The write-behind buffer of Interim-Update counters: which connections are known running, and
 * their counters waiting to be written together. Per instance: in a cluster each writes what it
 * received, and "the greatest value seen" makes the order of writers moot.
 */
export interface CountersBuffer {
  /** Whether Interim-Updates wait in memory at all (INTERIM_FLUSH_MS > 0). */
  readonly enabled: boolean;
  /** The connection under `key` when an Interim-Update found it running. */
  running(key: string): RunningConnection | undefined;
  /** Remembers a connection an Interim-Update found running. */
  noteRunning(key: string, connection: RunningConnection): void;
  /** Forgets connections known running: one, or every one `matches` names. */
  forget(matches: (key: string) => boolean): void;
  /** Keeps an Interim-Update's counters for the next write (the greatest of each seen). */
  add(key: string, entry: PendingCounters): void;
  /** Writes the waiting counters (all, or those of `keys`) in one statement. */
  write(keys?: string[]): Promise<void>;
  /** Forgets (after writing its waiting counters) a connection a Start, Stop or Disconnect changes. */
  settle(nasId: string, acctSessionId: string): Promise<void>;
  /** Writes everything waiting now, without waiting for the timer (before a read, and at shutdown). */
  flush(): Promise<void>;
}

export function createCountersBuffer(db: Database, options: CountersBufferOptions): CountersBuffer {
  const { flushMs, forgetAfterMs } = options;
  const running = new Map<string, RunningConnection>();
  const pending = new Map<string, PendingCounters>();
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();
  const flush = (keys?: string[]): Promise<void> => {
    const take = keys === undefined ? [...pending.keys()] : keys.filter((key) => pending.has(key));
    if (take.length === 0) return flushing;
    const batch = take.flatMap((key) => {
      const entry = pending.get(key);
      return entry === undefined ? [] : [[key, entry] as const];
    });
    for (const key of take) pending.delete(key);
    const write = async () => {
      try {
        await db.query(
          `UPDATE connections AS c SET updated_at = GREATEST(c.updated_at, v.at), input_octets = GREATEST(c.input_octets, v.input_octets),
             output_octets = GREATEST(c.output_octets, v.output_octets), session_time = GREATEST(c.session_time, v.session_time)
           FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::bigint[], $6::bigint[], $7::integer[])
             AS v(nas_id, acct_session_id, session_id, at, input_octets, output_octets, session_time)
           WHERE c.nas_id = v.nas_id AND c.acct_session_id = v.acct_session_id AND c.session_id = v.session_id`,
          [
            batch.map(([, p]) => p.nasId),
            batch.map(([, p]) => p.acctSessionId),
            batch.map(([, p]) => p.sessionId),
            batch.map(([, p]) => p.at),
            batch.map(([, p]) => p.inputOctets),
            batch.map(([, p]) => p.outputOctets),
            batch.map(([, p]) => p.sessionTime),
          ],
        );
      } catch (error) {
        // Kept for the next write (merged with what came since).
        for (const [key, entry] of batch) merge(key, entry);
        options.onFlushError?.(error);
      }
      const forgetBefore = Date.now() - forgetAfterMs;
      for (const [key, entry] of running) if (entry.seenAt < forgetBefore) running.delete(key);
    };
    flushing = flushing.then(write);
    return flushing;
  };
  const merge = (key: string, entry: PendingCounters) => {
    const known = pending.get(key);
    pending.set(
      key,
      known === undefined
        ? entry
        : {
            ...known,
            // biome-ignore lint/complexity/useMathMinMax: these are Dates; Math.max would make a number.
            at: known.at > entry.at ? known.at : entry.at,
            inputOctets: Math.max(known.inputOctets, entry.inputOctets),
            outputOctets: Math.max(known.outputOctets, entry.outputOctets),
            sessionTime: Math.max(known.sessionTime, entry.sessionTime),
          },
    );
    // Armed only while something waits (an idle gateway runs no timer), never holding the process.
    if (timer === undefined) {
      timer = setTimeout(() => {
        timer = undefined;
        void flush();
      }, flushMs);
      timer.unref();
    }
  };
  return {
    enabled: flushMs > 0,
    running: (key) => running.get(key),
    noteRunning: (key, connection) => void running.set(key, connection),
    forget(matches) {
      for (const [key] of running) if (matches(key)) running.delete(key);
    },
    add: merge,
    write: flush,
    async settle(nasId, acctSessionId) {
      const key = keyOf(nasId, acctSessionId);
      running.delete(key);
      await flush([key]);
    },
    async flush() {
      clearTimeout(timer);
      timer = undefined;
      await flush();
    },
  };
}
