import test, { type ExecutionContext } from 'ava';
import { createConnectionStore, type Usage } from '../../../services/gateway/connection-store.js';
import { waitFor } from '../../helpers/wait-for.js';
import { openGatewayDb } from './platform.js';

// The Interim-Updates of a running connection are kept in memory and written in one
// statement per INTERIM_FLUSH_MS, not one statement each; whatever reads counters sees them (a
// read writes first), a Stop and shutdown write at once, and nothing of another session counts.
const NAS = 'nas-1';
const counters = (n: number) => ({ inputOctets: n, outputOctets: n * 2, sessionTime: n });
const usage = (status: Usage['status'], n: number, acctSessionId = 'acct-1', sessionId = 'sess-a'): Usage => ({
  nasId: NAS,
  acctSessionId,
  sessionId,
  usernameHash: null,
  status,
  ...counters(n),
  sealedIdentity: status === 'Stop' ? null : 'sealed',
  stopCause: null,
});
const key = (acctSessionId = 'acct-1', sessionId = 'sess-a') => ({ nasId: NAS, acctSessionId, sessionId, usernameHash: null });

async function setup(t: ExecutionContext, interimFlushMs: number) {
  const db = await openGatewayDb('memory');
  t.teardown(() => db.close());
  const store = createConnectionStore(db, { interimFlushMs, onFlushError: (error) => t.log(String(error)) });
  const stored = async (acctSessionId = 'acct-1') =>
    (
      await db.query<{ input_octets: string; stopped_at: Date | null; updated_at: Date }>(
        'SELECT input_octets, stopped_at, updated_at FROM connections WHERE acct_session_id = $1',
        [acctSessionId],
      )
    )[0];
  return { store, stored: async (acctSessionId?: string) => Number((await stored(acctSessionId))?.input_octets), row: stored };
}

test('an Interim-Update of a known running connection is written with the next batch, and read through at once', async (t) => {
  const { store, stored } = await setup(t, 60_000);
  await store.record(usage('Start', 0), new Date());
  t.true(await store.interim(key(), counters(100), new Date()), 'the first Interim finds the connection running (one statement)');
  t.is(await stored(), 100);
  t.true(await store.interim(key(), counters(200), new Date()));
  t.is(await stored(), 100, 'the next ones wait in memory');
  t.is((await store.connectionsOf('sess-a'))[0]?.inputOctets, 200, 'a read of the connection writes first');
  t.true(await store.interim(key(), counters(300), new Date()));
  await store.record(usage('Stop', 250), new Date());
  t.is(await stored(), 300, 'a Stop writes what waited, the greatest counters kept');
  t.false(await store.interim(key(), counters(400), new Date()), 'after its Stop the connection is no longer taken as running');
});

test('the batch is written after the interval on its own, and at shutdown', async (t) => {
  const { store, stored } = await setup(t, 50);
  await store.record(usage('Start', 0), new Date());
  await store.record(usage('Start', 0, 'acct-2', 'sess-b'), new Date());
  t.true(await store.interim(key(), counters(100), new Date()));
  t.true(await store.interim(key(), counters(200), new Date()));
  t.true(await store.interim(key('acct-2', 'sess-b'), counters(10), new Date()));
  t.true(await store.interim(key('acct-2', 'sess-b'), counters(20), new Date()));
  const written = await waitFor(
    () => Promise.all([stored(), stored('acct-2')]),
    ([a, b]) => a === 200 && b === 20,
    { timeoutMs: 20_000 },
  ).then(
    () => true,
    () => false,
  );
  t.true(written, 'one write took both, with no read or Stop to prompt it');

  const slow = await setup(t, 60_000);
  await slow.store.record(usage('Start', 0), new Date());
  t.true(await slow.store.interim(key(), counters(100), new Date()));
  t.true(await slow.store.interim(key(), counters(700), new Date()));
  await slow.store.flush();
  t.is(await slow.stored(), 700, 'shutdown writes what waited');
});

test('an Interim-Update naming another session under a known connection does not count', async (t) => {
  const { store, stored } = await setup(t, 60_000);
  await store.record(usage('Start', 0), new Date());
  t.true(await store.interim(key(), counters(100), new Date()));
  t.false(await store.interim(key('acct-1', 'sess-other'), counters(900), new Date()));
  await store.flush();
  t.is(await stored(), 100);
});

test('what waits in memory keeps a connection from being closed as stale', async (t) => {
  const { store, row } = await setup(t, 60_000);
  const start = new Date(Date.now() - 3_600_000);
  await store.record(usage('Start', 0), start);
  t.true(await store.interim(key(), counters(100), start));
  t.true(await store.interim(key(), counters(200), new Date()));
  t.is(await store.closeStale(new Date(Date.now() - 60_000), new Date()), 0);
  t.is((await row())?.stopped_at, null);
});
