import type { ConnectionStore } from './connection-store.js';
import type { SessionPeer } from './session-client.js';

/** The feed's start (the session service's own constant; services share no files). */
const FEED_START = '0.0';

const FEED = 'session-changes';
const ENDING = new Set(['REVOKED', 'EXPIRED']);

/**
 * Reads the session service's change feed from the stored cursor; every REVOKED or EXPIRED
 * session is ended here (credentials revoked, running gateway sessions queued for a Disconnect)
 * in the transaction that stores the new cursor. Answers how many changes it read, or undefined
 * when the session service did not answer (tried again next time).
 */
export async function followFeed(store: ConnectionStore, peer: SessionPeer, now: () => Date, correlationId: string): Promise<number | undefined> {
  const after = (await store.cursor(FEED)) ?? FEED_START;
  const page = await peer.changes(after, correlationId);
  if (page === undefined) return undefined;
  if (page.changes.length === 0 && page.next === after) return 0;
  const ended = page.changes.filter((c) => ENDING.has(c.state)).map((c) => ({ sessionId: c.sessionId, state: c.state }));
  await store.endSessions(FEED, ended, page.next, now());
  return page.changes.length;
}
