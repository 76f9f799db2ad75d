import test, { type ExecutionContext } from 'ava';
import { createApp } from '../../../services/gateway/app.js';
import { GatewayConfig } from '../../../services/gateway/config.js';
import { createConnectionStore, type Usage } from '../../../services/gateway/connection-store.js';
import { sessionPeer, type SessionPeer } from '../../../services/gateway/session-client.js';
import { createLogger } from '../../../services/kit/index.js';
import { countingStatements } from '../../helpers/databases.js';
import { waitFor } from '../../helpers/wait-for.js';
import { gatewaysFile, openGatewayDb, sessionWorld } from './platform.js';
import { freeUdpPort } from './radclient.js';

// An idle gateway wakes once per held feed read, and then looks at its cursor, its
// Disconnect queue and its open connections. On PGlite it is the store's only writer, so a look
// that would find what the last one found runs no statement (a cold store is what an idle wake
// costs on the 2-core machine); anything it writes makes the next look read again.
const start = (acctSessionId: string, sessionId: string): Usage => ({
  nasId: 'nas-1',
  acctSessionId,
  sessionId,
  usernameHash: null,
  status: 'Start',
  inputOctets: 0,
  outputOctets: 0,
  sessionTime: 0,
  sealedIdentity: 'sealed',
  stopCause: null,
});

async function setup(t: ExecutionContext) {
  const plain = await openGatewayDb('memory');
  t.teardown(() => plain.close());
  const db = countingStatements(plain);
  return { db, store: createConnectionStore(db) };
}

/** How many statements `look` ran. */
async function cost(db: { statements(): number }, look: () => Promise<unknown>): Promise<number> {
  const before = db.statements();
  await look();
  return db.statements() - before;
}

test('the feed cursor is read once while nothing is written, and a stored cursor is read again', async (t) => {
  const { db, store } = await setup(t);
  t.is(await store.cursor('feed'), undefined);
  t.is(await cost(db, () => store.cursor('feed')), 0, 'an idle follower reads its cursor from memory');
  await store.endSessions('feed', [], '12.3', new Date());
  t.is(await store.cursor('feed'), '12.3', 'the next read after a write goes to the store');
  t.is(await cost(db, () => store.cursor('feed')), 0);
});

test('the stale sweep runs no statement while nothing is open, and closes what fell silent', async (t) => {
  const { db, store } = await setup(t);
  const now = new Date();
  t.is(await store.closeStale(now, now), 0);
  t.is(await cost(db, () => store.closeStale(now, now)), 0, 'nothing open and nothing written since: no statement');
  await store.record(start('acct-1', 'sess-a'), now);
  t.is(await store.closeStale(new Date(now.getTime() - 1000), now), 0, 'heard of after the silence began: not stale');
  t.is(await cost(db, () => store.closeStale(new Date(now.getTime() - 1000), now)), 0, 'the same look again: no statement');
  t.is(await store.closeStale(new Date(now.getTime() + 1000), now), 1, 'silent since before the limit: closed');
  t.is(await store.closeStale(new Date(now.getTime() + 2000), now), 0);
});

test('the Disconnect queue is read once while nothing is written, and a queued Disconnect is seen', async (t) => {
  const { db, store } = await setup(t);
  const now = new Date();
  t.is(await store.nextDueAt(), undefined);
  t.is(await cost(db, () => store.nextDueAt()), 0, 'an idle look at an empty queue runs no statement');
  await store.record(start('acct-1', 'sess-a'), now);
  await store.endSessions('feed', [{ sessionId: 'sess-a', state: 'REVOKED' }], '1.1', now);
  t.deepEqual(await store.nextDueAt(), now, "the ended session's connection is due at once");
});

test("an idle gateway's wakes (each held feed read that ran out, and the looks it brings along) run no statement", async (t) => {
  const world = await sessionWorld(t);
  const { db } = await setup(t);
  const config = GatewayConfig.parse({
    SESSION_URL: world.session.url,
    GATEWAYS_FILE: gatewaysFile(t, await freeUdpPort()),
    FEED_WAIT_SECONDS: '1',
    FEED_POLL_MS: '50',
    SESSION_TIMEOUT_MS: '15000',
    // The hourly retention purge is a clock's work, not a wake's: kept out of what is counted here.
    RETENTION_PURGE_EVERY_SECONDS: '0',
  });
  // The session peer, counting the held reads answered.
  const real = sessionPeer(config);
  let reads = 0;
  const peer: SessionPeer = {
    ...real,
    changes: async (...args) => {
      const page = await real.changes(...args);
      reads += 1;
      return page;
    },
  };
  const instance = await createApp(config, createLogger({ service: 'gateway-test', level: 'silent' }), { db, peer });
  t.teardown(() => instance.close());
  await waitFor(
    async () => reads,
    (n) => n >= 2,
    { timeoutMs: 30_000 },
  );
  const before = db.statements();
  const from = reads;
  await waitFor(
    async () => reads,
    (n) => n >= from + 2,
    { timeoutMs: 30_000 },
  );
  t.is(db.statements() - before, 0, `${reads - from} quiet cycles ran ${db.statements() - before} statements`);
});
