import type { Queryable } from '../kit/store/index.js';
import { nextExpiry, type FeedWake } from './feed-wake.js';
import { expireDue, type SessionState } from './session-store.js';

/** One state change of a session, as the feed hands it out (after `cursor`, the next read starts). */
export interface SessionChange {
  cursor: string;
  sessionId: string;
  fromState: SessionState | null;
  state: SessionState;
  reason: string | null;
  at: string;
}

/** The feed's start: before every change. */
export const FEED_START = '0.0';
/**
 * The longest a reader may ask the feed to hold its answer: every answer wakes two
 * processes, so an idle platform exchanges one per wait; a proxy between follower and feed needs
 * a read timeout above it (the cluster's nginx: 300 s on the session upstream).
 */
export const MAX_FEED_WAIT_SECONDS = 295;

/** `<transaction>.<event id>`: an opaque, ordered position in the feed. */
export const CURSOR_PATTERN = /^[0-9]{1,20}\.[0-9]{1,20}$/;

interface ChangeRow {
  tx: string;
  id: string;
  session_id: string;
  from_state: SessionState | null;
  to_state: SessionState;
  reason: string | null;
  at: Date;
  xmin: string;
  [column: string]: unknown;
}

/**
 * Changes after `cursor`, oldest first. Sessions past their expiry are marked EXPIRED first, so
 * an expiry nobody read still reaches the feed. Only transactions older than the oldest one
 * still running are shown (`pg_snapshot_xmin`): nothing can later commit before the cursor, so a
 * follower storing the last cursor it handled misses no change (at-least-once).
 */
export async function readChanges(
  db: Queryable,
  cursor: string,
  limit: number,
  now: Date,
  correlationId: string,
): Promise<{ changes: SessionChange[]; next: string }> {
  const { changes, next } = await readPage(db, cursor, limit, now, correlationId);
  return { changes, next };
}

/** `readChanges`, and whether changes after the cursor exist that a running older transaction still holds back. */
async function readPage(
  db: Queryable,
  cursor: string,
  limit: number,
  now: Date,
  correlationId: string,
): Promise<{ changes: SessionChange[]; next: string; heldBack: boolean }> {
  await expireDue(db, 'true', [], now, correlationId);
  const [tx, id] = cursor.split('.');
  const rows = await db.query<ChangeRow>(
    `SELECT tx::text AS tx, id::text AS id, session_id, from_state, to_state, reason, at, pg_snapshot_xmin(pg_current_snapshot())::text AS xmin
     FROM session_events
     WHERE (tx, id) > ($1::text::xid8, $2::bigint)
     ORDER BY tx, id
     LIMIT $3`,
    [tx, id, limit],
  );
  // Ordered by transaction: what is shown is the rows before the first one at or past the horizon.
  const shown = rows.filter((row) => BigInt(row.tx) < BigInt(row.xmin));
  const changes = shown.map((row) => ({
    cursor: `${row.tx}.${row.id}`,
    sessionId: row.session_id,
    fromState: row.from_state,
    state: row.to_state,
    reason: row.reason,
    at: row.at.toISOString(),
  }));
  return { changes, next: changes.at(-1)?.cursor ?? cursor, heldBack: shown.length < rows.length };
}

/**
 * `readChanges`, but with nothing after the cursor the answer waits (up to `waitMs`)
 * for a committed session event or for the next session's expiry, and then reads again; or for
 * the reader to go away, or until the wait runs out, and then answers the empty page. A follower
 * asks again as soon as it has its answer, so the feed reaches it within milliseconds and costs
 * nothing while nothing happens.
 */
export async function awaitChanges(
  db: Queryable,
  wake: FeedWake,
  options: { after: string; limit: number; waitMs: number; now: () => Date; correlationId: string; signal: AbortSignal },
): Promise<{ changes: SessionChange[]; next: string }> {
  const deadline = Date.now() + options.waitMs;
  let settling = 0;
  for (;;) {
    const mark = wake.mark();
    // What a read at this cursor found when nothing was notified since: no statement.
    const known = settling === 0 ? wake.knownEmpty(options.after, options.now().getTime()) : undefined;
    const page =
      known !== undefined
        ? { changes: [], next: options.after, heldBack: false }
        : await readPage(db, options.after, options.limit, options.now(), options.correlationId);
    const answer = { changes: page.changes, next: page.next };
    const left = deadline - Date.now();
    if (page.changes.length > 0 || left <= 0) return answer;
    const expiry = known !== undefined ? known.expiry : await nextExpiry(db);
    if (known === undefined && !page.heldBack) wake.foundNothing(options.after, mark, expiry);
    // `now` may be a test's clock: the expiry's distance is measured on it, the sleep on the real one.
    const untilExpiry = expiry === undefined ? Number.POSITIVE_INFINITY : Math.max(0, expiry - options.now().getTime());
    // Changes held back by a running transaction show once it ends, which notifies nothing: look again soon.
    const woken = await wake.wait(mark, Math.min(left, untilExpiry), page.heldBack ? Math.max(settling, 1) : settling, options.signal);
    if (woken === 'gone') return answer;
    // The wait ran out with nothing heard: the answer is the empty page. Reading again would only
    // repeat what the follower's next request, sent as soon as it has this answer, reads anyway.
    if (woken === 'timeout' && Date.now() >= deadline) return answer;
    settling = woken === 'timeout' ? 0 : settling + 1;
  }
}
