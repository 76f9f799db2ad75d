import type { Database } from '../kit/store/index.js';
import { createConnectionLog, type ConnectionLog } from './connection-log.js';
import { createCountersBuffer } from './counters-buffer.js';
import { createDisconnectQueue, type DisconnectQueue } from './disconnect-queue.js';
import { createFeedCursor, type FeedCursor } from './feed-cursor.js';

export type { CoaStatus, ConnectionRecord, DisconnectStatus, DueRequest, Usage } from './connection-records.js';

export interface ConnectionStoreOptions {
  onDisconnectQueued?: () => void;
  /**
   * How long the Interim-Updates of a running connection wait in memory before one
   * statement writes all of them (0: each at once). Counters are cumulative at the NAS: a crash
   * loses only their freshness. A Stop, a Start, a read of connections and shutdown write first.
   */
  interimFlushMs?: number;
  /** Connections known running are forgotten after this long without an Interim-Update. */
  forgetAfterMs?: number;
  onFlushError?: (error: unknown) => void;
}

/**
 * The gateway's store of table `connections` and what hangs on it, in four parts: the
 * connections accounting reports (connection-log.ts), the write-behind buffer of their
 * Interim-Update counters (counters-buffer.ts), the Disconnect and CoA queue
 * (disconnect-queue.ts) and the change-feed cursor with what a page of the feed causes
 * (feed-cursor.ts).
 */
export interface ConnectionStore extends ConnectionLog, DisconnectQueue, FeedCursor {
  /** Writes the Interim-Updates waiting in memory (before a read of counters, and at shutdown). */
  flush(): Promise<void>;
}

export function createConnectionStore(db: Database, options: ConnectionStoreOptions = {}): ConnectionStore {
  const buffer = createCountersBuffer(db, {
    flushMs: options.interimFlushMs ?? 0,
    forgetAfterMs: options.forgetAfterMs ?? 3_600_000,
    ...(options.onFlushError === undefined ? {} : { onFlushError: options.onFlushError }),
  });
  return {
    ...createConnectionLog(db, buffer, options.onDisconnectQueued ?? (() => undefined)),
    ...createDisconnectQueue(db, buffer),
    ...createFeedCursor(db),
    flush: () => buffer.flush(),
  };
}
