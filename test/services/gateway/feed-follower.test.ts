// At idle the gateway wakes once per held read of the change feed; its other periodic
// looks (the stale sweep, the Disconnect sender's idle look) ride on that wake instead of waking
// the process on clocks of their own. Only a held read that ran out counts: an early empty answer
// (a service that does not hold) or a failure does not make the looks run every FEED_POLL_MS.
import test from 'ava';
import { createLogger } from '../../../services/kit/index.js';
import type { ConnectionStore } from '../../../services/gateway/connection-store.js';
import { followContinuously } from '../../../services/gateway/feed-follower.js';
import type { SessionPeer } from '../../../services/gateway/session-client.js';

const log = createLogger({ service: 'gateway-test', level: 'silent' });
const store = { cursor: async () => undefined, endSessions: async () => undefined } as unknown as ConnectionStore;

/** A session service whose reads answer the empty page after `holdMs`, or fail. */
function peer(holdMs: number, fails = false): { peer: SessionPeer; reads: () => number } {
  let reads = 0;
  return {
    reads: () => reads,
    peer: {
      changes: async (after: string) => {
        reads += 1;
        await new Promise((resolve) => setTimeout(resolve, holdMs));
        return fails ? undefined : { changes: [], next: after };
      },
    } as unknown as SessionPeer,
  };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

test('a held read that ran out with no change brings the other looks along, once per read', async (t) => {
  const session = peer(60);
  let quiet = 0;
  const follower = followContinuously(
    store,
    session.peer,
    () => new Date(),
    { FEED_WAIT_SECONDS: 1, FEED_POLL_MS: 20 },
    () => undefined,
    log,
    [],
    () => (quiet += 1),
  );
  await until(() => session.reads() >= 4);
  await follower.stop();
  t.true(quiet >= 3, `${quiet} looks after ${session.reads()} held reads`);
  t.true(quiet <= session.reads());
});

// FEED_POLL_MS is long here so that an answer given at once stays early on a loaded machine (20 ms
// did not once, in a run of many test files at a time).
test('an early empty answer or a failed read brings nothing along', async (t) => {
  for (const [holdMs, fails] of [
    [0, false],
    [30, true],
  ] as const) {
    const session = peer(holdMs, fails);
    let quiet = 0;
    const follower = followContinuously(
      store,
      session.peer,
      () => new Date(),
      { FEED_WAIT_SECONDS: 1, FEED_POLL_MS: 500 },
      () => undefined,
      log,
      [],
      () => (quiet += 1),
    );
    await until(() => session.reads() >= 3);
    await follower.stop();
    t.is(quiet, 0, fails ? 'a failed read' : 'an answer sooner than FEED_POLL_MS');
  }
});
