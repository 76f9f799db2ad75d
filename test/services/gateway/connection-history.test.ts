import test from 'ava';
import { assertError } from '../../helpers/error-shape.js';
import { bootGateway, openGatewayDb, PORTAL_KEY } from './platform.js';

// A person's copy of their data: every connection of one of their sessions, with times and
// counters, and nothing that names the device (sealed identity, username hash, the NAS's own id).
test("a session's connection history holds its connections only, newest first, without device identity", async (t) => {
  const db = await openGatewayDb('memory');
  t.teardown(() => db.close());
  const add = (acctSessionId: string, sessionId: string, startedAt: string, stoppedAt: string | null, octets: number) =>
    db.query(
      `INSERT INTO connections (nas_id, acct_session_id, session_id, username_hash, identity, started_at, updated_at, stopped_at, input_octets, output_octets, session_time)
       VALUES ('test-nas', $1, $2, 'username-hash-canary', 'sealed-identity-canary', $3, $3, $4, $5, $5, 60)`,
      [acctSessionId, sessionId, startedAt, stoppedAt, octets],
    );
  await add('acct-1', 'mine', '2026-11-20T10:00:00.000Z', '2026-11-20T11:00:00.000Z', 100);
  await add('acct-2', 'mine', '2026-11-21T10:00:00.000Z', '2026-11-21T12:00:00.000Z', 200);
  await add('acct-3', 'someone-elses', '2026-11-21T10:00:00.000Z', null, 300);
  const gateway = await bootGateway(t, db, {});

  const reply = await gateway.request('GET', '/api/v1/connections/mine/history', { headers: PORTAL_KEY });

  t.is(reply.status, 200, reply.text);
  t.deepEqual(reply.body, {
    sessionId: 'mine',
    connections: [
      {
        nasId: 'test-nas',
        startedAt: '2026-11-21T10:00:00.000Z',
        updatedAt: '2026-11-21T10:00:00.000Z',
        stoppedAt: '2026-11-21T12:00:00.000Z',
        inputOctets: 200,
        outputOctets: 200,
        sessionTime: 60,
      },
      {
        nasId: 'test-nas',
        startedAt: '2026-11-20T10:00:00.000Z',
        updatedAt: '2026-11-20T10:00:00.000Z',
        stoppedAt: '2026-11-20T11:00:00.000Z',
        inputOctets: 100,
        outputOctets: 100,
        sessionTime: 60,
      },
    ],
  });
  t.false(/canary|acct-/.test(reply.text));
  assertError(t, await gateway.request('GET', '/api/v1/connections/mine/history'), 401, 'UNAUTHORIZED');
});
