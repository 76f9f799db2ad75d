import { randomUUID } from 'node:crypto';
import test from 'ava';
import type { Database } from '../../../services/kit/store/index.js';
import { periodOf } from '../../../services/session/allowance-period.js';
import { createUsageCounters, type UsageReport } from '../../../services/session/usage-counters.js';
import { startPostgres, type PostgresServer } from '../../helpers/postgres-server.js';
import { openSessionDb, TestClock } from './session-service.js';

// Allowance counters per person and period, the same rules on PGlite and on a PostgreSQL server.
// The venue is in Ho Chi Minh City (UTC+7): its day starts at 17:00 UTC the day before.
const VENUE = 'Asia/Ho_Chi_Minh';
const GB = 2 ** 30;
const DAILY = { dataBytes: GB, timeSeconds: 2 * 3600, period: 'DAY' as const };

let server: PostgresServer;
const databases: Record<'memory' | 'postgres', Database | undefined> = { memory: undefined, postgres: undefined };
test.before(async () => {
  server = await startPostgres();
  databases.memory = await openSessionDb('memory');
  databases.postgres = await openSessionDb('postgres', await server.createDatabase());
});
test.after.always(async () => {
  await databases.memory?.close();
  await databases.postgres?.close();
  await server?.stop();
});

function counters(backend: 'memory' | 'postgres') {
  const db = databases[backend];
  if (db === undefined) throw new Error('database not open');
  return { db, usage: createUsageCounters(db, VENUE) };
}

/** Packets of one connection of a fresh person, on a clock the test moves. */
function person(clock = new TestClock(new Date('2026-11-27T03:00:00Z'))) {
  const subjectId = randomUUID();
  const connection =
    (name = 'nas-1/acct-1') =>
    (octets: number, sessionTime: number, at = clock.now()): UsageReport => ({
      connectionKey: `${name}/${subjectId}`,
      subjectId,
      period: 'DAY',
      at,
      octets,
      sessionTime,
    });
  return { subjectId, clock, connection };
}

const rowsOf = async (db: Database, subjectId: string) => ({
  counters: await db.query('SELECT bytes::text, seconds::text FROM usage_counters WHERE subject_id = $1 ORDER BY period_start', [subjectId]),
  connections: await db.query('SELECT bytes::text, seconds::text FROM usage_connections WHERE subject_id = $1', [subjectId]),
});

for (const backend of ['memory', 'postgres'] as const) {
  const named = (title: string) => `${backend === 'memory' ? 'PGlite' : 'PostgreSQL'}: ${title}`;

  test(named('totals of a connection are counted once: each packet adds what is new, a replay adds nothing'), async (t) => {
    const { usage } = counters(backend);
    const { subjectId, clock, connection } = person();
    const packet = connection();
    t.like(await usage.add(packet(1000, 60)), { kind: 'counted', added: { bytes: 1000, seconds: 60 }, used: { bytes: 1000, seconds: 60 } });
    clock.advance(60_000);
    const interim = packet(5000, 120);
    t.like(await usage.add(interim), { kind: 'counted', added: { bytes: 4000, seconds: 60 }, used: { bytes: 5000, seconds: 120 } });
    t.like(await usage.add(interim), { kind: 'counted', added: { bytes: 0, seconds: 0 }, used: { bytes: 5000, seconds: 120 } });
    t.deepEqual(await usage.remaining(subjectId, DAILY, clock.now()), {
      bytesRemaining: GB - 5000,
      secondsRemaining: 7200 - 120,
      renewsAt: new Date('2026-11-27T17:00:00Z'),
    });
  });

  test(named('the same packet ten times at once is counted once'), async (t) => {
    const { usage } = counters(backend);
    const { subjectId, clock, connection } = person();
    await usage.add(connection()(1000, 10));
    const packet = connection()(4000, 40);
    await Promise.all(Array.from({ length: 10 }, () => usage.add(packet)));
    t.like(await usage.remaining(subjectId, DAILY, clock.now()), { bytesRemaining: GB - 4000, secondsRemaining: 7200 - 40 });
  });

  test(named('a late packet (an earlier event with smaller totals) adds nothing; a Stop before its Start counts the Stop once'), async (t) => {
    const { usage } = counters(backend);
    const { clock, connection } = person();
    const packet = connection();
    const early = clock.now();
    clock.advance(120_000);
    t.like(await usage.add(packet(9000, 120)), { added: { bytes: 9000, seconds: 120 } });
    t.like(await usage.add(packet(3000, 60, early)), { kind: 'counted', added: { bytes: 0, seconds: 0 }, used: { bytes: 9000, seconds: 120 } });
    t.like(await usage.add(packet(0, 0, new Date(early.getTime() - 60_000))), { kind: 'counted', used: { bytes: 9000, seconds: 120 } });
  });

  test(named('one person is counted across devices and sessions; another person is not touched'), async (t) => {
    const { usage } = counters(backend);
    const { subjectId, connection, clock } = person();
    await usage.add(connection('nas-1/phone')(2000, 30));
    await usage.add(connection('nas-2/laptop')(3000, 40));
    const other = person();
    await usage.add(other.connection()(7, 7));
    t.like(await usage.remaining(subjectId, DAILY, clock.now()), { bytesRemaining: GB - 5000, secondsRemaining: 7200 - 70 });
  });

  test(named('counters going backwards in a later packet are refused with nothing changed'), async (t) => {
    const { db, usage } = counters(backend);
    const { subjectId, clock, connection } = person();
    const packet = connection();
    await usage.add(packet(2 ** 32 - 10, 600));
    const before = await rowsOf(db, subjectId);
    clock.advance(60_000);
    // An octet counter that wrapped with no gigawords sent reads as a smaller total.
    t.deepEqual(await usage.add(packet(100, 660)), { kind: 'refused', reason: 'BACKWARDS' });
    t.deepEqual(await usage.add(packet(2 ** 32, 10)), { kind: 'refused', reason: 'BACKWARDS' });
    t.deepEqual(await rowsOf(db, subjectId), before);
  });

  test(named('gigawords carry the total past 4 GiB and are counted, not refused'), async (t) => {
    const { usage } = counters(backend);
    const { clock, connection } = person();
    const packet = connection();
    await usage.add(packet(2 ** 32 - 10, 3600));
    clock.advance(60_000);
    t.like(await usage.add(packet(2 ** 32 + 90, 3660)), { kind: 'counted', added: { bytes: 100, seconds: 60 } });
  });

  test(named('absurd values are refused with nothing changed: beyond a 10 Gbit/s link, a year of session time, not integers'), async (t) => {
    const { db, usage } = counters(backend);
    const { subjectId, connection } = person();
    const packet = connection();
    for (const [octets, seconds] of [
      [10 ** 12, 10],
      [10, 400 * 86_400],
      [-1, 10],
      [1.5, 10],
      [Number.MAX_SAFE_INTEGER + 2, 10 ** 7],
    ] as const) {
      t.deepEqual(await usage.add(packet(octets, seconds)), { kind: 'refused', reason: 'ABSURD' }, `${octets} octets in ${seconds} s`);
    }
    t.deepEqual(await rowsOf(db, subjectId), { counters: [], connections: [] });
    // At the line rate, with an interim interval's slack, it is usage.
    t.like(await usage.add(packet(310 * 1.25e9, 10)), { kind: 'counted', added: { bytes: 310 * 1.25e9 } });
  });

  test(named("a connection reported for another person is refused; the first person's counter is unchanged"), async (t) => {
    const { usage } = counters(backend);
    const first = person();
    const report = first.connection()(1000, 10);
    await usage.add(report);
    t.deepEqual(await usage.add({ ...report, subjectId: randomUUID(), octets: 5000 }), { kind: 'refused', reason: 'OTHER_SUBJECT' });
    t.like(await usage.remaining(first.subjectId, DAILY, first.clock.now()), { bytesRemaining: GB - 1000 });
  });

  test(named("a new period in the venue's time zone starts from zero without any action; the old one keeps its total"), async (t) => {
    const { usage } = counters(backend);
    // 16:59 UTC is 23:59 at the venue; two minutes later the venue's next day has begun.
    const { subjectId, clock, connection } = person(new TestClock(new Date('2026-11-27T16:59:00Z')));
    const packet = connection();
    await usage.add(packet(GB, 7200));
    t.like(await usage.remaining(subjectId, DAILY, clock.now()), { bytesRemaining: 0, secondsRemaining: 0 });
    clock.advance(120_000);
    t.like(await usage.add(packet(GB + 500, 7320)), { kind: 'counted', added: { bytes: 500, seconds: 120 }, used: { bytes: 500, seconds: 120 } });
    t.deepEqual(await usage.remaining(subjectId, DAILY, clock.now()), {
      bytesRemaining: GB - 500,
      secondsRemaining: 7200 - 120,
      renewsAt: new Date('2026-11-28T17:00:00Z'),
    });
  });
}

test('periods follow the venue: a day from local midnight, a week from Monday, a month from the first', (t) => {
  const at = new Date('2026-11-27T18:30:00Z'); // Saturday 28 November, 01:30 at the venue
  t.deepEqual(periodOf('DAY', at, VENUE), { start: new Date('2026-11-27T17:00:00Z'), renewsAt: new Date('2026-11-28T17:00:00Z') });
  t.deepEqual(periodOf('WEEK', at, VENUE), { start: new Date('2026-11-22T17:00:00Z'), renewsAt: new Date('2026-11-29T17:00:00Z') });
  t.deepEqual(periodOf('MONTH', at, VENUE), { start: new Date('2026-10-31T17:00:00Z'), renewsAt: new Date('2026-11-30T17:00:00Z') });
  t.deepEqual(periodOf('DAY', at, 'UTC'), { start: new Date('2026-11-27T00:00:00Z'), renewsAt: new Date('2026-11-28T00:00:00Z') });
});

test('a day across a daylight-saving change is 23 or 25 hours long, from local midnight to local midnight', (t) => {
  const spring = periodOf('DAY', new Date('2026-03-29T12:00:00Z'), 'Europe/Paris');
  t.deepEqual(spring, { start: new Date('2026-03-28T23:00:00Z'), renewsAt: new Date('2026-03-29T22:00:00Z') });
});
