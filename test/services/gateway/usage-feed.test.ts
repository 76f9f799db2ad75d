import test, { type ExecutionContext } from 'ava';
import type { UsageReport, UsageReported } from '../../../contract/session.js';
import { createConnectionStore, type Usage } from '../../../services/gateway/connection-store.js';
import type { SessionPeer } from '../../../services/gateway/session-client.js';
import { createOpenndsStore } from '../../../services/gateway/opennds-store.js';
import { createUsageFeedStore, pushUsage } from '../../../services/gateway/usage-feed.js';
import { createLogger } from '../../../services/kit/index.js';
import { openGatewayDb } from './platform.js';

// The usage feed: connections whose counters passed what the session service acknowledged are
// sent to it (cumulative totals, so a resend adds nothing there), marked sent once it answered,
// kept due when it did not, and a session it names used up has its running connections queued
// for a Disconnect. Replays and late packets are settled by the connection store (the greatest
// counters kept), so they never make a connection due again.
const NAS = 'nas-1';
const usage = (status: Usage['status'], octets: number, seconds: number, acctSessionId = 'acct-1', sessionId = 'sess-a'): Usage => ({
  nasId: NAS,
  acctSessionId,
  sessionId,
  usernameHash: null,
  status,
  inputOctets: octets,
  outputOctets: octets,
  sessionTime: seconds,
  sealedIdentity: status === 'Stop' ? null : 'sealed',
  stopCause: null,
});

async function setup(t: ExecutionContext) {
  const db = await openGatewayDb('memory');
  t.teardown(() => db.close());
  const connections = createConnectionStore(db);
  const store = createUsageFeedStore(db);
  const sent: UsageReport[][] = [];
  const state = { answer: { counted: 0, refused: 0, ignored: 0, exhausted: [] } as UsageReported | undefined, queued: 0 };
  const peer = {
    reportUsage: async (reports: UsageReport[]) => {
      sent.push(reports);
      return state.answer;
    },
  } as unknown as SessionPeer;
  const push = () =>
    pushUsage(
      {
        store,
        peer,
        flush: () => connections.flush(),
        now: () => new Date(),
        onDisconnectQueued: () => void state.queued++,
        logger: createLogger({ service: 'gateway-test', level: 'silent' }),
      },
      'corr-test',
    );
  return { db, connections, sent, state, push };
}

test('new usage is sent once with its totals; a replayed or late packet makes nothing due again', async (t) => {
  const { connections, sent, push } = await setup(t);
  const at = new Date();
  await connections.record(usage('Start', 0, 0), at);
  t.is(await push(), 'done');
  t.is(sent.length, 0, 'a connection with nothing used is not sent');
  await connections.record(usage('Interim-Update', 1000, 60), at);
  t.is(await push(), 'done');
  t.like(sent[0]?.[0], { sessionId: 'sess-a', octets: 2000, sessionTime: 60 });
  await connections.record(usage('Interim-Update', 1000, 60), at);
  await connections.record(usage('Interim-Update', 500, 30), new Date(at.getTime() - 30_000));
  await push();
  t.is(sent.length, 1, 'the replay and the late packet changed no counter: nothing due');
  await connections.record(usage('Stop', 1500, 90), new Date(at.getTime() + 30_000));
  await push();
  t.like(sent[1]?.[0], { octets: 3000, sessionTime: 90, connectionKey: sent[0]?.[0]?.connectionKey });
});

test('a call the session service did not answer is retried with the same totals; nothing is marked sent', async (t) => {
  const { connections, sent, state, push } = await setup(t);
  await connections.record(usage('Start', 100, 10), new Date());
  state.answer = undefined;
  t.is(await push(), 'retry');
  state.answer = { counted: 1, refused: 0, ignored: 0, exhausted: [] };
  t.is(await push(), 'done');
  t.deepEqual(sent[1], sent[0], 'the same report again (it adds nothing twice there)');
  await push();
  t.is(sent.length, 2);
});

test('a NAS reusing an Acct-Session-Id after a reboot is a new connection key: its counters start again from zero there', async (t) => {
  const { connections, sent, push } = await setup(t);
  const at = new Date();
  await connections.record(usage('Start', 0, 0), at);
  await connections.record(usage('Interim-Update', 5000, 300), at);
  await push();
  await connections.closeAllOf(NAS, new Date(at.getTime() + 1000));
  await connections.record(usage('Start', 0, 0), new Date(at.getTime() + 2000));
  await connections.record(usage('Interim-Update', 100, 10), new Date(at.getTime() + 3000));
  await push();
  t.is(sent.length, 2);
  t.not(sent[1]?.[0]?.connectionKey, sent[0]?.[0]?.connectionKey);
  t.like(sent[1]?.[0], { octets: 200, sessionTime: 10 });
});

test("a session named used up has its running RADIUS connections queued for a Disconnect; another session's are not", async (t) => {
  const { db, connections, state, push } = await setup(t);
  const at = new Date();
  await connections.record(usage('Start', 100, 10), at);
  await connections.record(usage('Start', 100, 10, 'acct-2', 'sess-b'), at);
  state.answer = { counted: 2, refused: 0, ignored: 0, exhausted: ['sess-a'] };
  await push();
  t.is(state.queued, 1);
  const rows = await db.query<{ acct_session_id: string; disconnect_status: string | null }>(
    'SELECT acct_session_id, disconnect_status FROM connections ORDER BY acct_session_id',
  );
  t.deepEqual(
    rows.map((row) => [row.acct_session_id, row.disconnect_status]),
    [
      ['acct-1', 'PENDING'],
      ['acct-2', null],
    ],
  );
});

test("a session named used up has its openNDS authorisations listed for revocation-poll.sh, queued or authorised; another session's are not", async (t) => {
  const { db, connections, state, push } = await setup(t);
  const nds = createOpenndsStore(db);
  const at = new Date();
  const queue = (rhid: string, sessionId: string) =>
    nds.queue(
      {
        rhid,
        hid: rhid.replace(/^./, 'f'),
        nasId: 'nds-1',
        sessionId,
        deviceRef: 'ref',
        sessionMinutes: 60,
        uploadKbitPerSecond: 1000,
        downloadKbitPerSecond: 5000,
        uploadQuotaKB: 0,
        downloadQuotaKB: 1024,
        custom: 'eA==',
      },
      at,
    );
  const [online, queued, other] = ['a', 'b', 'c'].map((letter) => letter.repeat(64));
  await queue(online!, 'sess-a');
  await queue(queued!, 'sess-a');
  await queue(other!, 'sess-b');
  await nds.acked('nds-1', [online!, other!], at);
  // The usage of another device of the person (the openNDS clients report only at their end).
  await connections.record(usage('Start', 100, 10, 'acct-2', 'sess-x'), at);
  state.answer = { counted: 1, refused: 0, ignored: 0, exhausted: ['sess-x', 'sess-a'] };
  await push();
  t.deepEqual((await nds.revoking('nds-1')).sort(), [online, queued], 'both of the used-up session; not the other');
  t.deepEqual(await nds.pending('nds-1'), [], 'a queued one is never handed to authmon');
});
