import test from 'ava';
import { createSealer } from '../../../services/kit/index.js';
import { purgeOnce } from '../../../services/kit/store/index.js';
import { createAccountAdmin } from '../../../services/portal/account-admin.js';
import { accountRetention } from '../../../services/portal/account-retention.js';
import { MIGRATIONS } from '../../../services/portal/app.js';
import { PortalConfig } from '../../../services/portal/config.js';
import { createPortalSessionStore } from '../../../services/portal/portal-session-store.js';
import { createSignInDays } from '../../../services/portal/sign-in-days.js';
import { createUpstreams } from '../../../services/portal/upstreams.js';
import { openTestDatabase } from '../../helpers/databases.js';
import { capturingLogger } from '../../helpers/service.js';
import { adminApi, adminToken } from '../keycloak/kc-client.js';
import { MODULE_URL, operatorToken } from '../svc-admin/kc-driver.js';
import { URLS } from '../platform-urls.js';
import { freshEmail, networkSession, PortalBrowser } from './portal-client.js';

// The portal's purge job erases an inactive self-registered account through the running platform
// (real Keycloak, session, entitlement and gateway services) and records it in svc-admin's audit;
// an imported employee's account as inactive is kept. The job runs in this process on a portal
// database of its own, whose sign-in days the test's clock made old: the platform's own portal
// and every other account of the run are left alone (none was created two years ago).
const PORTAL_SESSION_KEY = { 'X-API-Key': process.env['PORTAL_SESSION_KEY'] ?? 'dev-session-portal-key' };
const DAY_MS = 86_400_000;

async function subjectOf(browser: PortalBrowser): Promise<{ subjectId: string; sessionId: string }> {
  const state = (await browser.session()).body;
  return {
    subjectId: String((state['claims'] as Record<string, unknown>)['sub']),
    sessionId: String((state['session'] as Record<string, unknown>)['sessionId']),
  };
}

async function userGone(subjectId: string): Promise<boolean> {
  return adminApi(await adminToken(), 'GET', `/users/${subjectId}`).then(
    () => false,
    (error: Error) => error.message.endsWith(': 404'),
  );
}

test('an inactive customer is erased by the retention job everywhere and audited as the job; an inactive employee is kept', async (t) => {
  let customer = new PortalBrowser();
  // A Keycloak just started on a loaded machine may miss the portal's 5 s admin timeout once (502):
  // a fresh address then, since the first may have been created all the same.
  for (let attempt = 1; ; attempt++) {
    const registered = await customer.register(freshEmail('inactive'), 'inactive-account-pass', 'Long Gone');
    if (registered.status === 200) break;
    t.true(registered.status === 502 && attempt < 3, registered.text);
    customer = new PortalBrowser();
  }
  const gone = await subjectOf(customer);
  const employee = new PortalBrowser();
  t.is((await employee.employee('A-1001', '079201001234')).status, 200);
  const kept = await subjectOf(employee);
  t.like(await networkSession(gone.sessionId), { state: 'GRANTED', subjectId: gone.subjectId });

  const config = PortalConfig.parse({});
  const db = await openTestDatabase('pglite', { service: 'portal', migrations: MIGRATIONS });
  t.teardown(() => db.close());
  const now = new Date();
  const longAgo = createSignInDays(db, () => new Date(now.getTime() - (config.RETENTION_INACTIVE_ACCOUNTS_DAYS + 1) * DAY_MS));
  await longAgo.record(gone.subjectId);
  await longAgo.record(kept.subjectId);
  const keycloak = createAccountAdmin(config);
  const rules = accountRetention({
    config,
    accounts: keycloak,
    directory: keycloak,
    audit: keycloak,
    upstreams: createUpstreams(config),
    store: createPortalSessionStore(db, createSealer(config.PORTAL_TOKEN_KEY), () => now),
    logger: capturingLogger('portal').logger,
  });

  const removed = await purgeOnce(db, 'portal', rules, now, config.RETENTION_PURGE_BATCH);

  t.like(removed, { inactive_accounts: 1, voucher_accounts: 0 });
  t.true(await userGone(gone.subjectId), 'the Keycloak user is removed');
  t.like(await networkSession(gone.sessionId), { state: 'REVOKED', subjectId: 'erased', deviceRef: null }, 'revoked and anonymised');
  const sessions = await fetch(`${URLS.session}/api/v1/subjects/${gone.subjectId}/sessions`, { headers: PORTAL_SESSION_KEY });
  t.deepEqual(((await sessions.json()) as { sessions: unknown[] }).sessions, []);
  t.false(await userGone(kept.subjectId), "the employee's account stays: its company's HR ends it");

  const operator = await operatorToken();
  const audit = await fetch(`${MODULE_URL}/api/audit?limit=500`, { headers: { authorization: `Bearer ${operator}` } });
  const entries = ((await audit.json()) as { entries: { operator: string; action: string; outcome: string; reason: string }[] }).entries;
  t.like(
    entries.find((entry) => entry.operator === 'retention-job'),
    { action: 'ERASE', outcome: 'ERASED', reason: 'no sign-in within RETENTION_INACTIVE_ACCOUNTS_DAYS' },
  );
  t.is(entries.filter((entry) => entry.operator === 'retention-job').length, 1, 'one entry: the employee was never erased');
  await employee.logout();
});
