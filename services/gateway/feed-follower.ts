import { newCorrelationId, type Logger } from '../kit/index.js';
import type { ConnectionStore } from './connection-store.js';
import type { SessionPeer } from './session-client.js';

/** The feed's start (the session service's own constant; services share no files). */
const FEED_START = '0.0';

const FEED = 'session-changes';
const ENDING = new Set(['REVOKED', 'EXPIRED']);

/**
 * Reads the session service's change feed from the stored cursor; every REVOKED or EXPIRED
 * session is ended here (credentials revoked, running gateway sessions queued for a Disconnect),
 * and every session granted again under new limits has its running gateway sessions at NASes of
 * `coaNasIds` queued for a CoA-Request, in the transaction that stores the new cursor. Answers how many changes it read, or undefined
 * when the session service did not answer (tried again next time).
 */
async function followFeed(
  store: ConnectionStore,
  peer: SessionPeer,
  now: () => Date,
  read: { correlationId: string; waitSeconds: number; signal: AbortSignal; coaNasIds: readonly string[] },
): Promise<number | undefined> {
  const after = (await store.cursor(FEED)) ?? FEED_START;
  const page = await peer.changes(after, read.correlationId, read.waitSeconds, read.signal);
  if (page === undefined) return undefined;
  if (page.changes.length === 0 && page.next === after) return 0;
  const ended = page.changes.filter((c) => ENDING.has(c.state)).map((c) => ({ sessionId: c.sessionId, state: c.state }));
  // Granted again while granted (another entitlement): its limits changed.
  const changed = [...new Set(page.changes.filter((c) => c.state === 'GRANTED' && c.fromState === 'GRANTED').map((c) => c.sessionId))];
  await store.endSessions(FEED, ended, page.next, now(), { sessionIds: changed, coaNasIds: [...read.coaNasIds] });
  return page.changes.length;
}

/**
 * Follows the feed without a clock. Each read asks the session service to hold an
 * empty answer up to `FEED_WAIT_SECONDS` until a change comes, and the next read starts as soon
 * as an answer arrives, so a revocation reaches the Disconnect sender within milliseconds and an
 * idle platform exchanges one request per wait. After a failure, or an empty answer that came
 * back sooner than FEED_POLL_MS (a session service stopping, or one that does not hold
 * answers), the next read waits out FEED_POLL_MS. `onChanges` runs after a read that had changes;
 * `onQuiet` after a held read whose wait ran out with none: the process is awake for it anyway, so
 * the gateway's other periodic looks run then too, warm, instead of waking it again on clocks of
 * their own (on this machine the first touch of a process's memory after minutes asleep
 * is what an idle wake-up costs).
 */
export function followContinuously(
  store: ConnectionStore,
  peer: SessionPeer,
  now: () => Date,
  settings: { FEED_WAIT_SECONDS: number; FEED_POLL_MS: number },
  onChanges: () => void,
  log: Logger,
  coaNasIds: readonly string[] = [],
  onQuiet: () => void = () => undefined,
): { stop(): Promise<void> } {
  const stopping = new AbortController();
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        stopping.signal.removeEventListener('abort', done);
        resolve();
      }
      stopping.signal.addEventListener('abort', done, { once: true });
    });
  const loop = async () => {
    while (!stopping.signal.aborted) {
      const started = Date.now();
      let read: number | undefined;
      try {
        read = await followFeed(store, peer, now, {
          correlationId: newCorrelationId(),
          waitSeconds: settings.FEED_WAIT_SECONDS,
          signal: stopping.signal,
          coaNasIds,
        });
      } catch (error) {
        if (!stopping.signal.aborted) log.warn({ err: error, task: 'feed' }, 'background task failed');
      }
      if (read !== undefined && read > 0) {
        onChanges();
        continue;
      }
      const rest = settings.FEED_POLL_MS - (Date.now() - started);
      if (read === 0 && rest <= 0 && settings.FEED_WAIT_SECONDS > 0 && !stopping.signal.aborted) onQuiet();
      if (!stopping.signal.aborted && (read === undefined || rest > 0)) await pause(read === undefined ? settings.FEED_POLL_MS : rest);
    }
  };
  const running = loop();
  return {
    async stop() {
      stopping.abort();
      await running;
    },
  };
}
