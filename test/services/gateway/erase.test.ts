import test from 'ava';
import { eraseConnections } from '../../../services/gateway/erase-routes.js';
import { MIGRATIONS } from '../../../services/gateway/app.js';
import type { Database } from '../../../services/kit/store/index.js';
import { openTestDatabase } from '../../helpers/databases.js';
import { assertError } from '../../helpers/error-shape.js';
import { startPostgres, type PostgresServer } from '../../helpers/postgres-server.js';
import { bootGateway, openGatewayDb, PORTAL_KEY } from './platform.js';

// A person's erasure at the gateway service, on PGlite and on a PostgreSQL server: their
// sessions end here (running connections queued for a Disconnect, which keeps the sealed identity
// it needs), credentials go, connections keep only counters, and another person's stay whole.
let server: PostgresServer;
let postgresUrl: string;
test.before(async () => {
  server = await startPostgres();
  postgresUrl = await server.createDatabase();
});
test.after.always(() => server?.stop());

const NOW = new Date('2026-11-25T10:00:00.000Z');

async function seed(db: Database): Promise<void> {
  const connection = (acct: string, sessionId: string, stopped: boolean) =>
    db.query(
      `INSERT INTO connections (nas_id, acct_session_id, session_id, username_hash, identity, station_ref, started_at, updated_at, stopped_at, input_octets, output_octets, session_time)
       VALUES ('test-nas', $1, $2, 'username-hash-canary', $3, 'station-ref-canary', '2026-11-25T09:00:00Z', '2026-11-25T09:30:00Z', $4, 500, 700, 1800)`,
      [acct, sessionId, stopped ? null : 'sealed-identity-canary', stopped ? '2026-11-25T09:30:00Z' : null],
    );
  await connection('acct-running', 'sess-mine', false);
  await connection('acct-stopped', 'sess-mine-old', true);
  await connection('acct-other', 'sess-other', false);
  for (const [hash, sessionId] of [
    ['hash-mine', 'sess-mine'],
    ['hash-other', 'sess-other'],
  ])
    await db.query(
      `INSERT INTO credentials (username_hash, session_id, device_ref, nas_id, issued_at, expires_at) VALUES ($1, $2, 'device-ref-canary', 'test-nas', $3, $3)`,
      [hash, sessionId, NOW],
    );
  await db.query(
    `INSERT INTO opennds_authorisations (rhid, hid, nas_id, session_id, device_ref, session_minutes, up_kbit, down_kbit, up_quota_kb, down_quota_kb, custom, state, created_at)
     VALUES ('rhid-mine', 'hid-mine', 'nds-1', 'sess-mine', 'device-ref-canary', 60, 1, 1, 0, 0, '', 'AUTHORISED', $1)`,
    [NOW],
  );
}

for (const backend of ['memory', 'postgres'] as const) {
  test.serial(`${backend}: erasing a person's sessions ends them, disconnects what runs and keeps only counters`, async (t) => {
    const db = await openTestDatabase(backend, { service: 'gateway', migrations: MIGRATIONS, postgresUrl });
    t.teardown(() => db.close());
    for (const table of ['connections', 'credentials', 'opennds_authorisations', 'ended_sessions']) await db.query(`DELETE FROM ${table}`);
    await seed(db);

    t.deepEqual(await eraseConnections(db, ['sess-mine', 'sess-mine-old'], NOW), { sessions: 2, disconnectsPending: 1 });

    const rows = await db.query<Record<string, unknown>>(
      'SELECT acct_session_id, username_hash, identity, station_ref, disconnect_status, input_octets::int AS input FROM connections ORDER BY acct_session_id',
    );
    t.deepEqual(rows, [
      {
        acct_session_id: 'acct-other',
        username_hash: 'username-hash-canary',
        identity: 'sealed-identity-canary',
        station_ref: 'station-ref-canary',
        disconnect_status: null,
        input: 500,
      },
      { acct_session_id: 'acct-running', username_hash: null, identity: 'sealed-identity-canary', station_ref: null, disconnect_status: 'PENDING', input: 500 },
      { acct_session_id: 'acct-stopped', username_hash: null, identity: null, station_ref: null, disconnect_status: null, input: 500 },
    ]);
    t.deepEqual(await db.query('SELECT session_id FROM credentials'), [{ session_id: 'sess-other' }]);
    t.deepEqual(await db.query('SELECT session_id, state FROM ended_sessions ORDER BY session_id'), [
      { session_id: 'sess-mine', state: 'REVOKED' },
      { session_id: 'sess-mine-old', state: 'REVOKED' },
    ]);
    t.deepEqual(await db.query('SELECT state, device_ref FROM opennds_authorisations'), [{ state: 'REVOKING', device_ref: '' }]);

    t.deepEqual(await eraseConnections(db, ['sess-mine', 'sess-mine-old'], NOW), { sessions: 2, disconnectsPending: 1 }, 'repeating it changes nothing more');
    t.is((await db.query("SELECT 1 AS n FROM connections WHERE session_id LIKE 'sess-mine%' AND username_hash IS NOT NULL")).length, 0);
  });
}

test.serial('the erase route takes a key with the erase scope and a list of session ids', async (t) => {
  const db = await openGatewayDb('memory');
  t.teardown(() => db.close());
  const gateway = await bootGateway(t, db, {});
  const reply = await gateway.request('POST', '/api/v1/connections/erase', { json: { sessionIds: [] }, headers: PORTAL_KEY });
  t.is(reply.status, 200, reply.text);
  t.deepEqual(reply.body, { sessions: 0, disconnectsPending: 0 });
  const tools = { 'X-API-Key': 'dev-gateway-tools-key' };
  assertError(t, await gateway.request('POST', '/api/v1/connections/erase', { json: { sessionIds: [] }, headers: tools }), 403, 'FORBIDDEN');
  assertError(t, await gateway.request('POST', '/api/v1/connections/erase', { json: { sessionIds: ['a/b'] }, headers: PORTAL_KEY }), 400, 'INVALID_REQUEST');
  assertError(t, await gateway.request('POST', '/api/v1/connections/erase', { json: { sessionIds: [] } }), 401, 'UNAUTHORIZED');
});
