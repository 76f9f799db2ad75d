import test from 'ava';
import { MIGRATIONS as ENTITLEMENT_MIGRATIONS } from '../../../services/entitlement/app.js';
import { EntitlementConfig } from '../../../services/entitlement/config.js';
import { entitlementRetention } from '../../../services/entitlement/retention.js';
import { MIGRATIONS as GATEWAY_MIGRATIONS } from '../../../services/gateway/app.js';
import { GatewayConfig } from '../../../services/gateway/config.js';
import { gatewayRetention } from '../../../services/gateway/retention.js';
import { metricsRegistry } from '../../../services/kit/index.js';
import { purgeOnce, type Database } from '../../../services/kit/store/index.js';
import { MIGRATIONS as PORTAL_MIGRATIONS } from '../../../services/portal/app.js';
import { portalRetention } from '../../../services/portal/retention.js';
import { createApp as createSessionApp, MIGRATIONS as SESSION_MIGRATIONS } from '../../../services/session/app.js';
import { SessionConfig } from '../../../services/session/config.js';
import { sessionRetention } from '../../../services/session/retention.js';
import { openTestDatabase, type Backend } from '../../helpers/databases.js';
import { startPostgres, type PostgresServer } from '../../helpers/postgres-server.js';
import { samples } from '../../helpers/prometheus.js';
import { capturingLogger } from '../../helpers/service.js';
import { waitFor } from '../../helpers/wait-for.js';

// Retention windows: each owning service's purge removes exactly the records past their window,
// on PGlite and on a PostgreSQL server, by a clock the test sets (purgeOnce takes "now"). A batch
// of one record makes every rule go round its batch loop.
const NOW = new Date('2026-11-23T10:00:00.000Z');
const daysAgo = (days: number): Date => new Date(NOW.getTime() - days * 86_400_000);
const hoursAgo = (hours: number): Date => new Date(NOW.getTime() - hours * 3_600_000);

let server: PostgresServer;
test.before(async () => {
  server = await startPostgres();
});
test.after.always(async () => {
  await server?.stop();
});

const BACKENDS: Backend[] = ['pglite', 'postgres'];

async function open(backend: Backend, service: string, migrations: URL): Promise<Database> {
  return openTestDatabase(backend, { service, migrations, postgresUrl: backend === 'postgres' ? await server.createDatabase() : undefined });
}

const ids = async (db: Database, sql: string): Promise<string[]> => (await db.query<{ id: string }>(sql)).map((row) => row.id).sort();

async function addSession(db: Database, id: string, state: string, updatedAt: Date): Promise<void> {
  const granted = state === 'GRANTED';
  await db.query(
    'INSERT INTO sessions (session_id, subject_id, state, entitlement_id, expires_at, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6)',
    [id, `subject-${id}`, state, granted ? `ent-${id}` : null, granted ? new Date(NOW.getTime() + 3_600_000) : null, updatedAt],
  );
  await db.query('INSERT INTO session_events (session_id, at, to_state) VALUES ($1, $2, $3)', [id, updatedAt, state]);
}

for (const backend of BACKENDS) {
  test(`${backend}: the session service removes ended sessions and events past their windows, never a granted session`, async (t) => {
    const db = await open(backend, 'session', SESSION_MIGRATIONS);
    t.teardown(() => db.close());
    await addSession(db, 'old-revoked', 'REVOKED', daysAgo(91));
    await addSession(db, 'old-expired', 'EXPIRED', daysAgo(200));
    await addSession(db, 'old-created', 'CREATED', daysAgo(91));
    await addSession(db, 'recent-revoked', 'REVOKED', daysAgo(89));
    await addSession(db, 'old-granted', 'GRANTED', daysAgo(120));

    const removed = await purgeOnce(db, 'session', sessionRetention(SessionConfig.parse({})), NOW, 1);

    t.deepEqual(removed, { network_sessions: 3, session_events: 1, usage_connections: 0, usage_counters: 0 });
    t.deepEqual(await ids(db, 'SELECT session_id AS id FROM sessions'), ['old-granted', 'recent-revoked']);
    t.deepEqual(await ids(db, 'SELECT session_id AS id FROM session_events'), ['recent-revoked']);
  });

  test(`${backend}: a window of 0 days keeps every record for ever`, async (t) => {
    const db = await open(backend, 'session', SESSION_MIGRATIONS);
    t.teardown(() => db.close());
    await addSession(db, 'ancient', 'REVOKED', daysAgo(3000));
    const config = SessionConfig.parse({ RETENTION_NETWORK_SESSIONS_DAYS: '0', RETENTION_SESSION_EVENTS_DAYS: '0', RETENTION_USAGE_DAYS: '0' });

    t.deepEqual(await purgeOnce(db, 'session', sessionRetention(config), NOW, 10), {});
    t.deepEqual(await ids(db, 'SELECT session_id AS id FROM session_events'), ['ancient']);
  });

  test(`${backend}: the session service removes what a person used past its window: connections by their last packet, counters by their period's end, never a counter in force`, async (t) => {
    const db = await open(backend, 'session', SESSION_MIGRATIONS);
    t.teardown(() => db.close());
    const addConnection = (key: string, at: Date) =>
      db.query('INSERT INTO usage_connections (connection_key, subject_id, bytes, seconds, at) VALUES ($1, $2, 10, 5, $3)', [key, 'subject-u', at]);
    const addCounter = (period: string, start: Date) =>
      db.query('INSERT INTO usage_counters (subject_id, period, period_start, bytes, seconds) VALUES ($1, $2, $3, 10, 5)', ['subject-u', period, start]);
    await addConnection('old', daysAgo(36));
    await addConnection('recent', daysAgo(34));
    // The window is 35 days (the default); a counter goes once its period ended that long ago.
    await addCounter('DAY', daysAgo(38)); // ended 37 days ago: gone
    await addCounter('DAY', daysAgo(36)); // ended 35 days ago at most a day's slack: kept
    await addCounter('WEEK', daysAgo(44)); // ended 37 days ago: gone
    await addCounter('WEEK', daysAgo(41)); // ended 34 days ago: kept
    await addCounter('MONTH', daysAgo(68)); // ended at least 37 days ago: gone
    // A month that began 60 days ago ended, at the latest, 28 days ago: kept. A month that began
    // before the window and is still in force (a window shorter than a month) is kept below.
    await addCounter('MONTH', daysAgo(60));

    const removed = await purgeOnce(db, 'session', sessionRetention(SessionConfig.parse({})), NOW, 1);

    t.like(removed, { usage_connections: 1, usage_counters: 3 });
    t.deepEqual(await ids(db, 'SELECT connection_key AS id FROM usage_connections'), ['recent']);
    t.deepEqual(await ids(db, "SELECT period || ':' || (extract(epoch FROM period_start)::bigint)::text AS id FROM usage_counters"), [
      `DAY:${daysAgo(36).getTime() / 1000}`,
      `MONTH:${daysAgo(60).getTime() / 1000}`,
      `WEEK:${daysAgo(41).getTime() / 1000}`,
    ]);

    // A one-day window, shorter than the periods: the counters of ended periods go, but this
    // month's (begun 20 days ago), this week's and today's stay: they are still in force.
    await addCounter('MONTH', daysAgo(20));
    await addCounter('WEEK', daysAgo(6));
    await addCounter('DAY', hoursAgo(10));
    await purgeOnce(db, 'session', sessionRetention(SessionConfig.parse({ RETENTION_USAGE_DAYS: '1' })), NOW, 10);
    t.deepEqual(await ids(db, "SELECT period || ':' || (extract(epoch FROM period_start)::bigint)::text AS id FROM usage_counters"), [
      `DAY:${hoursAgo(10).getTime() / 1000}`,
      `MONTH:${daysAgo(20).getTime() / 1000}`,
      `WEEK:${daysAgo(6).getTime() / 1000}`,
    ]);
  });

  test(`${backend}: the entitlement service removes entitlements with their requests, and idempotency records past theirs`, async (t) => {
    const db = await open(backend, 'entitlement', ENTITLEMENT_MIGRATIONS);
    t.teardown(() => db.close());
    const addEntitlement = (id: string, at: Date) =>
      db.query('INSERT INTO entitlements (entitlement_id, subject_id, session_id, body, created_at) VALUES ($1, $2, $1, $3, $4)', [
        id,
        `subject-${id}`,
        '{}',
        at,
      ]);
    const addRequest = (key: string, entitlementId: string | null, at: Date) =>
      db.query('INSERT INTO entitlement_requests (idempotency_key, subject_id, entitlement_id, claimed_at, settled_at) VALUES ($1, $2, $3, $4, $4)', [
        key,
        'someone',
        entitlementId,
        at,
      ]);
    await addEntitlement('old', daysAgo(91));
    await addRequest('old-key', 'old', daysAgo(91));
    await addEntitlement('recent', daysAgo(3));
    await addRequest('recent-key', 'recent', daysAgo(3));
    await addRequest('fresh-key', null, hoursAgo(1));

    const removed = await purgeOnce(db, 'entitlement', entitlementRetention(EntitlementConfig.parse({})), NOW, 1);

    t.deepEqual(removed, { entitlements: 1, idempotency_records: 1 });
    t.deepEqual(await ids(db, 'SELECT entitlement_id AS id FROM entitlements'), ['recent']);
    t.deepEqual(await ids(db, 'SELECT idempotency_key AS id FROM entitlement_requests'), ['fresh-key']);
  });

  test(`${backend}: the gateway service removes stopped connections, ended sessions and credentials past their windows, never a running connection`, async (t) => {
    const db = await open(backend, 'gateway', GATEWAY_MIGRATIONS);
    t.teardown(() => db.close());
    const addConnection = (id: string, startedAt: Date, stoppedAt: Date | null) =>
      db.query('INSERT INTO connections (nas_id, acct_session_id, session_id, started_at, updated_at, stopped_at) VALUES ($1, $2, $2, $3, $3, $4)', [
        'nas-1',
        id,
        startedAt,
        stoppedAt,
      ]);
    await addConnection('old-stopped', daysAgo(400), daysAgo(366));
    await addConnection('recent-stopped', daysAgo(400), daysAgo(364));
    await addConnection('old-running', daysAgo(400), null);
    const addEnded = (id: string, at: Date) => db.query("INSERT INTO ended_sessions (session_id, state, ended_at) VALUES ($1, 'REVOKED', $2)", [id, at]);
    await addEnded('old-ended', daysAgo(91));
    await addEnded('recent-ended', daysAgo(89));
    const addCredential = (id: string, expiresAt: Date) =>
      db.query('INSERT INTO credentials (username_hash, session_id, device_ref, nas_id, issued_at, expires_at) VALUES ($1, $1, $2, $3, $4, $4)', [
        id,
        'device',
        'nas-1',
        expiresAt,
      ]);
    await addCredential('old-credential', daysAgo(31));
    await addCredential('recent-credential', daysAgo(29));
    const addAuthorisation = (id: string, state: string, endedAt: Date | null) =>
      db.query(
        `INSERT INTO opennds_authorisations (rhid, hid, nas_id, session_id, device_ref, session_minutes, up_kbit, down_kbit, up_quota_kb, down_quota_kb, custom, state, created_at, ended_at)
         VALUES ($1, $1, 'nas-1', $1, 'device', 60, 0, 0, 0, 0, '', $2, $3, $4)`,
        [id, state, daysAgo(400), endedAt],
      );
    await addAuthorisation('old-ended-authorisation', 'ENDED', daysAgo(366));
    await addAuthorisation('old-authorised', 'AUTHORISED', null);
    const addDevice = (id: string, sessionId: string, removedAt: Date | null) =>
      db.query(
        `INSERT INTO device_credentials (device_id, username_hash, password_hash, session_id, label, created_at, removed_at) VALUES ($1, $1, 'hash', $2, 'phone', $3, $4)`,
        [id, sessionId, daysAgo(100), removedAt],
      );
    await addDevice('long-removed', 'live-session', daysAgo(31));
    await addDevice('just-removed', 'live-session', daysAgo(29));
    await addDevice('of-long-ended', 'old-ended', null);
    await addEnded('fresh-ended', daysAgo(10));
    await addDevice('of-recent-ended', 'recent-ended', null);
    await addDevice('of-fresh-ended', 'fresh-ended', null);
    await addDevice('live', 'live-session', null);

    const removed = await purgeOnce(db, 'gateway', gatewayRetention(GatewayConfig.parse({})), NOW, 1);

    t.deepEqual(removed, { connections: 1, opennds_authorisations: 1, ended_sessions: 1, credentials: 1, device_credentials: 3 });
    t.deepEqual(await ids(db, 'SELECT device_id AS id FROM device_credentials'), ['just-removed', 'live', 'of-fresh-ended']);
    t.deepEqual(await ids(db, 'SELECT acct_session_id AS id FROM connections'), ['old-running', 'recent-stopped']);
    t.deepEqual(await ids(db, 'SELECT session_id AS id FROM ended_sessions'), ['fresh-ended', 'recent-ended']);
    t.deepEqual(await ids(db, 'SELECT username_hash AS id FROM credentials'), ['recent-credential']);
    t.deepEqual(await ids(db, 'SELECT rhid AS id FROM opennds_authorisations'), ['old-authorised']);
  });

  test(`${backend}: the portal removes sign-ins, gateway contexts and used hids a day after they stopped serving`, async (t) => {
    const db = await open(backend, 'portal', PORTAL_MIGRATIONS);
    t.teardown(() => db.close());
    const addSignIn = (id: string, expiresAt: Date) =>
      db.query(
        `INSERT INTO portal_sessions (sid_hash, subject_id, client, access_token_enc, claims, entitlement, network_session_id, created_at, expires_at)
         VALUES ($1, 'someone', 'wifi-portal-api', 'sealed', '{}', '{}', 'network', $2, $2)`,
        [id, expiresAt],
      );
    await addSignIn('long-expired', hoursAgo(25));
    await addSignIn('just-expired', hoursAgo(23));
    const addContext = (id: string, expiresAt: Date) =>
      db.query(
        "INSERT INTO gateway_contexts (id_hash, profile, nas_id, device_ref, login_url, expires_at) VALUES ($1, 'coova', 'nas-1', 'device', 'http://x/', $2)",
        [id, expiresAt],
      );
    await addContext('long-expired', hoursAgo(25));
    await addContext('just-expired', hoursAgo(23));
    await db.query('INSERT INTO opennds_used_hids (hid, used_at) VALUES ($1, $2), ($3, $4)', ['long-used', hoursAgo(25), 'just-used', hoursAgo(23)]);

    const removed = await purgeOnce(db, 'portal', portalRetention({ RETENTION_TERMS_ACCEPTANCES_DAYS: 365, RETENTION_INACTIVE_ACCOUNTS_DAYS: 0 }), NOW, 1);

    t.like(removed, { portal_sessions: 1, gateway_contexts: 1, opennds_used_hids: 1 });
    t.deepEqual(await ids(db, 'SELECT sid_hash AS id FROM portal_sessions'), ['just-expired']);
    t.deepEqual(await ids(db, 'SELECT id_hash AS id FROM gateway_contexts'), ['just-expired']);
    t.deepEqual(await ids(db, 'SELECT hid AS id FROM opennds_used_hids'), ['just-used']);
  });

  test(`${backend}: the portal removes a terms acceptance its window after it ended: superseded, or the person's newest after their last sign-in day`, async (t) => {
    const db = await open(backend, 'portal', PORTAL_MIGRATIONS);
    t.teardown(() => db.close());
    const accept = (subject: string, version: string, days: number) =>
      db.query("INSERT INTO terms_acceptances (subject_id, version, accepted_at, channel) VALUES ($1, $2, $3, 'password')", [subject, version, daysAgo(days)]);
    const signedIn = (subject: string, days: number) =>
      db.query('INSERT INTO sign_in_days (subject_id, last_day) VALUES ($1, $2)', [subject, daysAgo(days).toISOString().slice(0, 10)]);
    await accept('moved-on', 'v1', 800);
    await accept('moved-on', 'v2', 400);
    await accept('moved-on', 'v3', 100);
    await signedIn('moved-on', 10);
    await accept('recently-superseded', 'v1', 500);
    await accept('recently-superseded', 'v2', 300);
    await signedIn('recently-superseded', 300);
    await accept('gone-quiet', 'v1', 500);
    await signedIn('gone-quiet', 400);
    await accept('still-signing-in', 'v1', 700);
    await signedIn('still-signing-in', 2);
    await accept('no-day-old', 'v1', 400);
    await accept('no-day-recent', 'v1', 100);
    const acceptances = () =>
      db.query<{ id: string }>("SELECT subject_id || ' ' || version AS id FROM terms_acceptances").then((rows) => rows.map((row) => row.id).sort());

    const removed = await purgeOnce(db, 'portal', portalRetention({ RETENTION_TERMS_ACCEPTANCES_DAYS: 365, RETENTION_INACTIVE_ACCOUNTS_DAYS: 0 }), NOW, 1);

    t.like(removed, { terms_acceptances: 3, sign_in_days: 1 });
    t.deepEqual(await acceptances(), [
      'moved-on v2',
      'moved-on v3',
      'no-day-recent v1',
      'recently-superseded v1',
      'recently-superseded v2',
      'still-signing-in v1',
    ]);
    t.deepEqual(await ids(db, 'SELECT subject_id AS id FROM sign_in_days'), ['moved-on', 'recently-superseded', 'still-signing-in']);

    const shorter = await purgeOnce(db, 'portal', portalRetention({ RETENTION_TERMS_ACCEPTANCES_DAYS: 90, RETENTION_INACTIVE_ACCOUNTS_DAYS: 0 }), NOW, 1);
    t.like(shorter, { terms_acceptances: 4, sign_in_days: 1 }, 'the window is the setting');
    t.deepEqual(await acceptances(), ['moved-on v3', 'still-signing-in v1']);
  });
}

test('postgres: a purge waits for no lock a sign-in holds, and takes the locked record on a later run', async (t) => {
  const db = await open('postgres', 'session', SESSION_MIGRATIONS);
  t.teardown(() => db.close());
  await addSession(db, 'held', 'REVOKED', daysAgo(100));
  await addSession(db, 'free', 'REVOKED', daysAgo(100));
  const rules = sessionRetention(SessionConfig.parse({}));
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let locked: () => void = () => undefined;
  const isLocked = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const holder = db.transaction(async (tx) => {
    await tx.query("SELECT session_id FROM sessions WHERE session_id = 'held' FOR UPDATE");
    await tx.query("SELECT id FROM session_events WHERE session_id = 'held' FOR UPDATE");
    locked();
    await released;
  });
  await isLocked;
  // The lock is released only after the purge answers, or after a bound far above what two rows
  // take even on a busy machine: a purge that waited on the lock fails the assertion below.
  const purge = purgeOnce(db, 'session', rules, NOW, 10);
  let bound: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    purge,
    new Promise<'waited for the lock'>((resolve) => {
      bound = setTimeout(() => resolve('waited for the lock'), 30_000);
    }),
  ]);
  clearTimeout(bound);
  release();
  await holder;
  await purge;
  t.deepEqual(outcome, { network_sessions: 1, session_events: 0, usage_connections: 0, usage_counters: 0 });
  t.deepEqual(await ids(db, 'SELECT session_id AS id FROM sessions'), ['held']);
  t.deepEqual(await purgeOnce(db, 'session', rules, NOW, 10), { network_sessions: 1, session_events: 0, usage_connections: 0, usage_counters: 0 });
});

test('the session service runs its purge on its own clock', async (t) => {
  const db = await open('pglite', 'session', SESSION_MIGRATIONS);
  t.teardown(() => db.close());
  await addSession(db, 'old', 'REVOKED', daysAgo(100));
  await addSession(db, 'recent', 'REVOKED', daysAgo(1));
  const instance = await createSessionApp(SessionConfig.parse({ RETENTION_PURGE_EVERY_SECONDS: '1' }), capturingLogger('session').logger, {
    db,
    now: () => NOW,
  });
  t.teardown(() => instance.close());

  t.deepEqual(
    await waitFor(
      () => ids(db, 'SELECT session_id AS id FROM sessions'),
      (left) => left.length === 1,
      { timeoutMs: 60_000 },
    ),
    ['recent'],
  );
});

test('each purge is counted by outcome and each record removed by kind, as metrics', async (t) => {
  const db = await open('pglite', 'session', SESSION_MIGRATIONS);
  t.teardown(() => db.close());
  await addSession(db, 'a', 'REVOKED', daysAgo(100));
  await addSession(db, 'b', 'EXPIRED', daysAgo(100));
  // A service name of this test's own, so other tests' purges in this process do not count here.
  await purgeOnce(db, 'metrics-check', sessionRetention(SessionConfig.parse({})), NOW, 10);
  await db.query('DROP TABLE session_events CASCADE');
  await t.throwsAsync(purgeOnce(db, 'metrics-check', sessionRetention(SessionConfig.parse({})), NOW, 10));

  const mine = samples(await metricsRegistry.metrics()).filter((sample) => sample.labels['service'] === 'metrics-check');
  const value = (name: string, labels: Record<string, string>) =>
    mine.find((sample) => sample.name === name && Object.entries(labels).every(([key, v]) => sample.labels[key] === v))?.value;
  t.is(value('retention_purge_runs_total', { outcome: 'ok' }), 1);
  t.is(value('retention_purge_runs_total', { outcome: 'failed' }), 1);
  t.is(value('retention_purged_records_total', { record: 'network_sessions' }), 2);
});
