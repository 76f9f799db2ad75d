import test from 'ava';
import type { ErasureOutcome } from '../../../contract/erasure.js';
import { purgeOnce, type Database } from '../../../services/kit/store/index.js';
import type { AccountAdmin, AccountDirectory, DirectoryAccount, HoldOutcome } from '../../../services/portal/account-admin.js';
import { accountRetention, type RetentionReason } from '../../../services/portal/account-retention.js';
import { MIGRATIONS } from '../../../services/portal/app.js';
import type { PortalSessionStore } from '../../../services/portal/portal-session-store.js';
import { portalRetention } from '../../../services/portal/retention.js';
import type { PeerAnswer, Upstreams } from '../../../services/portal/upstreams.js';
import { openTestDatabase, type Backend } from '../../helpers/databases.js';
import { startPostgres, type PostgresServer } from '../../helpers/postgres-server.js';
import { capturingLogger } from '../../helpers/service.js';

// The portal's purge job chooses which accounts to erase (inactive self-registered ones, vouchers
// long expired) by a clock the test sets, on PGlite and on a PostgreSQL server; Keycloak, the
// services and svc-admin's audit are fakes that record what the erasure's steps asked of them.
const NOW = new Date('2026-11-23T10:00:00.000Z');
const DAY_MS = 86_400_000;
const daysAgo = (days: number): Date => new Date(NOW.getTime() - days * DAY_MS);
const CONFIG = { RETENTION_INACTIVE_ACCOUNTS_DAYS: 730, RETENTION_VOUCHER_ACCOUNTS_DAYS: 90, RETENTION_ACCOUNTS_PER_RUN: 100 };

let server: PostgresServer;
test.before(async () => {
  server = await startPostgres();
});
test.after.always(async () => {
  await server?.stop();
});

async function open(backend: Backend): Promise<Database> {
  return openTestDatabase(backend, {
    service: 'portal',
    migrations: MIGRATIONS,
    postgresUrl: backend === 'postgres' ? await server.createDatabase() : undefined,
  });
}

interface Fake {
  account: DirectoryAccount;
  signedInDaysAgo?: number;
}

const customer = (
  id: string,
  createdDaysAgo: number,
  attributes: Record<string, unknown> = {},
  roles: string[] = ['default-roles-wifi', 'offline_access'],
): DirectoryAccount => ({
  id,
  username: `${id}@example.com`,
  createdMs: daysAgo(createdDaysAgo).getTime(),
  attributes,
  roles,
});
const voucher = (id: string, expiredDaysAgo: number): DirectoryAccount => ({
  id,
  username: `voucher-${id}`,
  createdMs: daysAgo(expiredDaysAgo + 30).getTime(),
  attributes: { user_type: ['VOUCHER'], voucher_valid_until: [daysAgo(expiredDaysAgo).toISOString()] },
  roles: ['default-roles-wifi'],
});

/** A realm and the services behind the erasure's steps, in memory. */
function platform(fakes: Fake[]) {
  const realm = new Map(fakes.map((fake) => [fake.account.id, fake.account]));
  const steps: string[] = [];
  const audited: { subjectId: string; reason: RetentionReason; outcome: ErasureOutcome }[] = [];
  const ok = (body: Record<string, unknown> = {}): PeerAnswer => ({ kind: 'answer', status: 200, body });
  const accounts: AccountAdmin = {
    createAccount: () => Promise.reject(new Error('not used')),
    readAccount: () => Promise.reject(new Error('not used')),
    holdForErasure: async (id, options): Promise<HoldOutcome> => {
      const account = realm.get(id);
      if (account === undefined) return { kind: 'gone' };
      if (account.attributes['user_type']?.toString() === 'VOUCHER' && options?.voucher !== true) return { kind: 'voucher' };
      steps.push(`hold ${id}`);
      return { kind: 'held' };
    },
    removeAccount: async (id) => (steps.push(`remove ${id}`), realm.delete(id), true),
  };
  const directory: AccountDirectory = {
    listAccounts: async (first, max, search) =>
      [...realm.values()]
        .filter((account) => search !== 'user_type:VOUCHER' || account.attributes['user_type']?.toString() === 'VOUCHER')
        .slice(first, first + max)
        .map(({ roles: _roles, ...listed }) => listed),
    findAccount: async (id) => realm.get(id) ?? null,
  };
  const upstreams = {
    subjectSessions: async (id: string) => (steps.push(`sessions ${id}`), ok({ subjectId: id, sessions: [] })),
    eraseConnections: async () => ok(),
    eraseSessions: async (id: string) => (steps.push(`erase-sessions ${id}`), ok()),
    eraseEntitlements: async (id: string) => (steps.push(`erase-entitlements ${id}`), ok()),
  } as unknown as Upstreams;
  const store = { dropSubject: async (id: string) => (steps.push(`drop ${id}`), 1) } as unknown as PortalSessionStore;
  const audit = { record: async (subjectId: string, reason: RetentionReason, outcome: ErasureOutcome) => void audited.push({ subjectId, reason, outcome }) };
  const rules = (config = CONFIG) => accountRetention({ config, accounts, directory, upstreams, store, audit, logger: capturingLogger('portal').logger });
  return { realm, steps, audited, rules };
}

async function seed(db: Database, fakes: Fake[]): Promise<void> {
  for (const fake of fakes) {
    if (fake.signedInDaysAgo === undefined) continue;
    await db.query('INSERT INTO sign_in_days (subject_id, last_day) VALUES ($1, $2)', [
      fake.account.id,
      daysAgo(fake.signedInDaysAgo).toISOString().slice(0, 10),
    ]);
  }
}

const FAKES: Fake[] = [
  { account: customer('active', 1000), signedInDaysAgo: 3 },
  { account: customer('inactive', 1000), signedInDaysAgo: 731 },
  { account: customer('never-young', 700) },
  { account: customer('never-old', 731) },
  { account: customer('employee', 1000, { user_type: ['EMPLOYEE'], employee_ref: ['HR-1'] }), signedInDaysAgo: 800 },
  { account: customer('employee-never', 1000, { employee_ref: ['HR-2'] }) },
  { account: customer('demo', 1000, { user_type: ['CUSTOMER'], demo_account: ['true'] }) },
  { account: customer('operator', 1000, {}, ['default-roles-wifi', 'svc-admin']), signedInDaysAgo: 900 },
  { account: { ...customer('service-account-wifi-portal-api', 1000), roles: [] } },
  { account: voucher('voucher-long-expired', 91) },
  { account: voucher('voucher-recently-expired', 89) },
  { account: voucher('voucher-valid', -10) },
];

for (const backend of ['pglite', 'postgres'] as const) {
  test(`${backend}: the job erases inactive self-registered accounts and long-expired vouchers through the erasure's steps, and keeps every other account`, async (t) => {
    const db = await open(backend);
    t.teardown(() => db.close());
    await seed(db, FAKES);
    const { realm, steps, audited, rules } = platform(FAKES);

    const removed = await purgeOnce(db, 'portal', rules(), NOW, 500);

    t.deepEqual(removed, { inactive_accounts: 2, voucher_accounts: 1 });
    t.deepEqual(
      [...realm.keys()].sort(),
      [
        'active',
        'demo',
        'employee',
        'employee-never',
        'never-young',
        'operator',
        'service-account-wifi-portal-api',
        'voucher-recently-expired',
        'voucher-valid',
      ],
      'the active, the young, the employees, the demo, the operator and the vouchers still in their window stay',
    );
    t.deepEqual(
      steps.filter((step) => step.endsWith(' inactive')),
      ['hold inactive', 'sessions inactive', 'erase-sessions inactive', 'erase-entitlements inactive', 'remove inactive', 'drop inactive'],
      "the person's own erasure's steps, in their order, then the portal's sign-ins",
    );
    t.deepEqual(
      audited.sort((a, b) => a.subjectId.localeCompare(b.subjectId)),
      [
        { subjectId: 'inactive', reason: 'inactive', outcome: 'erased' },
        { subjectId: 'never-old', reason: 'inactive', outcome: 'erased' },
        { subjectId: 'voucher-long-expired', reason: 'voucher-expired', outcome: 'erased' },
      ],
      'each erasure is audited as the job with its reason',
    );
    t.deepEqual(
      await db.query('SELECT subject_id FROM sign_in_days WHERE subject_id = $1', ['inactive']),
      [{ subject_id: 'inactive' }],
      'the sign-in day stays: terms acceptances are kept counted from it',
    );

    t.deepEqual(await purgeOnce(db, 'portal', rules(), NOW, 500), { inactive_accounts: 0, voucher_accounts: 0 }, 'a second run finds nothing more');
    t.deepEqual(
      await purgeOnce(db, 'portal', rules({ ...CONFIG, RETENTION_INACTIVE_ACCOUNTS_DAYS: 0, RETENTION_VOUCHER_ACCOUNTS_DAYS: 0 }), daysAgo(-5000), 500),
      {},
      '0 keeps accounts for ever',
    );
  });
}

test('a run erases at most a page of accounts, and the next run carries on past the accounts it kept', async (t) => {
  const db = await open('pglite');
  t.teardown(() => db.close());
  const fakes: Fake[] = [
    ...['e1', 'e2', 'e3'].map((id) => ({ account: customer(id, 1000, { employee_ref: [id] }), signedInDaysAgo: 900 })),
    ...['c1', 'c2', 'c3'].map((id) => ({ account: customer(id, 1000), signedInDaysAgo: 800 })),
  ];
  await seed(db, fakes);
  const { realm, rules } = platform(fakes);
  const paged = rules({ ...CONFIG, RETENTION_ACCOUNTS_PER_RUN: 2 });
  const erasedOf = (removed: Record<string, number>) => removed['inactive_accounts'];

  t.is(erasedOf(await purgeOnce(db, 'portal', paged, NOW, 1)), 0, 'the oldest days are two employees: kept, nothing erased, the batch of 1 not repeated');
  t.is(erasedOf(await purgeOnce(db, 'portal', paged, NOW, 1)), 1);
  t.is(erasedOf(await purgeOnce(db, 'portal', paged, NOW, 1)), 2);
  t.deepEqual([...realm.keys()].sort(), ['e1', 'e2', 'e3']);
});

test('the sign-in days are kept as long as the inactive accounts job needs them, a month more', (t) => {
  const window = (terms: number, inactive: number) =>
    portalRetention({ RETENTION_TERMS_ACCEPTANCES_DAYS: terms, RETENTION_INACTIVE_ACCOUNTS_DAYS: inactive }).find((rule) => rule.record === 'sign_in_days')
      ?.days;
  t.is(window(365, 730), 760);
  t.is(window(365, 0), 365);
  t.is(window(365, 90), 365);
  t.is(window(0, 730), 0);
});
