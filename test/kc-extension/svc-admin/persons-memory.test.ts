import { randomUUID } from 'node:crypto';
import test from 'ava';
import type { PlatformService } from '../../../kc-extension/host/admin-host.js';
import { handleAdminRequest } from '../../../kc-extension/svc-admin/router.js';
import { memoryHost } from './memory-admin-host.js';
import { memoryDriver } from './memory-driver.js';

// An operator finds, reads and erases a person in svc-admin (in memory: the platform's services
// are a fake that keeps what each would hold, answering as their contracts say), and every
// access leaves an audit entry that names the person by a keyed reference only.

const json = { 'Content-Type': 'application/json' };
const REASON = 'request 12 from the front desk';
const at = '2026-11-20T10:00:00.000Z';

interface Held {
  sessions: string[];
  entitlements: number;
  acceptances: number;
}

/** The services as svc-admin reaches them: per subject what each holds; `down` services answer nothing. */
function fakePlatform(d: ReturnType<typeof memoryDriver>) {
  const held = new Map<string, Held>();
  const down = new Set<PlatformService>();
  const calls: string[] = [];
  const session = (sessionId: string) => ({
    sessionId,
    state: 'GRANTED',
    entitlementId: null,
    entitlementType: 'CUSTOMER',
    tier: 'STANDARD',
    qosClass: 'STANDARD',
    grantedAt: at,
    expiresAt: at,
    revokedAt: null,
    createdAt: at,
    updatedAt: at,
    revokeReason: null,
    events: [{ at, fromState: null, state: 'GRANTED', reason: null }],
  });
  const entitlement = (subjectId: string, n: number) => ({
    entitlementId: `ent-${randomUUID()}`,
    subjectId,
    sessionId: null,
    eligible: true,
    entitlementType: `CUSTOMER-${n}`,
    status: 'ACTIVE',
    validFrom: at,
    validUntil: at,
    permission: { tier: 'BASIC', qosClass: 'STANDARD', deviceSlots: 1, sourceType: 'IDP_ID_LOGIN', sourceRef: null },
    issuedAt: at,
    replayed: false,
  });
  d.realm.http.service = (service, method, path, body) => {
    calls.push(`${service} ${method} ${path.replace(/[0-9a-f-]{36}/g, ':id')}`);
    if (down.has(service)) return { failure: 'unreachable' };
    const subject = /\/subjects\/([^/]+)\//.exec(path)?.[1] ?? '';
    const of = held.get(subject) ?? { sessions: [], entitlements: 0, acceptances: 0 };
    const answer = (value: unknown) => ({ status: 200, body: JSON.stringify(value) });
    if (service === 'session' && method === 'GET') return answer({ subjectId: subject, sessions: of.sessions.map(session) });
    if (service === 'gateway' && method === 'GET') {
      const sessionId = /connections\/([^/]+)\/history/.exec(path)?.[1] ?? '';
      return answer({
        sessionId,
        connections: [{ nasId: 'venue-1', startedAt: at, updatedAt: at, stoppedAt: null, inputOctets: 10, outputOctets: 20, sessionTime: 30 }],
      });
    }
    if (service === 'entitlement' && method === 'GET') {
      return answer({ subjectId: subject, entitlements: Array.from({ length: of.entitlements }, (_, n) => entitlement(subject, n)) });
    }
    if (service === 'portal') {
      return answer({
        subjectId: subject,
        acceptances: Array.from({ length: of.acceptances }, () => ({ version: 'v1', acceptedAt: at, channel: 'register' })),
      });
    }
    if (service === 'gateway' && method === 'POST') {
      const ids = (JSON.parse(body ?? '{}') as { sessionIds: string[] }).sessionIds;
      return answer({ sessions: ids.length, disconnectsPending: 0 });
    }
    if (service === 'session' && method === 'POST') {
      held.set(subject, { ...of, sessions: [] });
      return answer({ subjectId: subject, revoked: of.sessions, anonymised: of.sessions });
    }
    if (service === 'entitlement' && method === 'POST') {
      held.set(subject, { ...(held.get(subject) ?? of), entitlements: 0 });
      return answer({ subjectId: subject, entitlements: of.entitlements, requests: 0 });
    }
    return { status: 404, body: '{}' };
  };
  return { held, down, calls };
}

function person(d: ReturnType<typeof memoryDriver>, attributes: Record<string, string> = {}, email = `p-${randomUUID().slice(0, 6)}@example.com`) {
  const id = randomUUID();
  d.realm.users.set(id, {
    id,
    username: email,
    email,
    emailVerified: true,
    enabled: true,
    hasPassword: true,
    attributes: { user_type: 'CUSTOMER', ...attributes },
  });
  d.realm.sessions.set(id, 2);
  return { id, email };
}

const find = (d: ReturnType<typeof memoryDriver>, query: Record<string, string>) =>
  d.send({ method: 'GET', path: '/api/persons', token: d.tokens.operator, query });
const readPerson = (d: ReturnType<typeof memoryDriver>, id: string, reason = REASON) =>
  d.send({ method: 'GET', path: `/api/persons/${id}`, token: d.tokens.operator, query: { reason } });
const erase = (d: ReturnType<typeof memoryDriver>, id: string, body: unknown = { confirm: true, reason: REASON }) =>
  d.send({ method: 'POST', path: `/api/persons/${id}/erase`, token: d.tokens.operator, headers: json, body: JSON.stringify(body) });
const audit = async (d: ReturnType<typeof memoryDriver>, query: Record<string, string> = {}) =>
  (await d.send({ method: 'GET', path: '/api/audit', token: d.tokens.operator, query })).body as {
    entries: { action: string; person: string | null; reason: string; outcome: string; operator: string }[];
    retentionDays: number;
  };

test('an operator finds a person by email, phone number (any spelling) or employee reference, and each find names a reason', async (t) => {
  const d = memoryDriver();
  fakePlatform(d);
  const customer = person(d, { phone_number: '+84912345678' });
  const employee = person(d, { user_type: 'EMPLOYEE', employee_ref: 'ACME:A-1001' });
  t.like(await find(d, { email: customer.email.toUpperCase(), reason: REASON }), {
    status: 200,
    body: { persons: [{ id: customer.id, phone: '+84912345678' }] },
  });
  t.like(await find(d, { phone: '0912 345 678', reason: REASON }), { status: 200, body: { persons: [{ id: customer.id }] } });
  t.like(await find(d, { employeeRef: 'ACME:A-1001', reason: REASON }), { status: 200, body: { persons: [{ id: employee.id, userType: 'EMPLOYEE' }] } });
  t.deepEqual((await find(d, { email: 'nobody@example.com', reason: REASON })).body, { persons: [] });
  const refused: Record<string, string>[] = [
    { email: customer.email },
    { email: customer.email, reason: ' x ' },
    { reason: REASON },
    { email: customer.email, phone: '0912345678', reason: REASON },
  ];
  for (const query of refused) {
    t.like(await find(d, query), { status: 400, body: { code: 'INVALID_REQUEST' } }, JSON.stringify(Object.keys(query)));
  }
  t.like(await d.send({ method: 'GET', path: '/api/persons', token: d.tokens.customer, query: { email: customer.email, reason: REASON } }), { status: 403 });
  const entries = (await audit(d)).entries;
  t.deepEqual(
    entries.map((entry) => `${entry.action} ${entry.outcome}`).sort(),
    ['FIND FOUND', 'FIND FOUND', 'FIND FOUND', 'FIND NONE_FOUND'],
    'one entry per find that answered, none for the refused ones',
  );
});

test("an operator reads a person's records: account, sessions with connections, entitlements and terms acceptances", async (t) => {
  const d = memoryDriver();
  const platform = fakePlatform(d);
  const { id, email } = person(d, { phone_number: '+84912345678', cccd_link: 'keyed-hash' });
  platform.held.set(id, { sessions: [`sess-${randomUUID()}`, `sess-${randomUUID()}`], entitlements: 2, acceptances: 1 });
  const read = await readPerson(d, id);
  t.is(read.status, 200, JSON.stringify(read.body));
  const body = read.body as {
    account: { email: string; attributes: Record<string, string> };
    sessions: { connections: unknown[] }[];
    entitlements: unknown[];
    termsAcceptances: unknown[];
  };
  t.is(body.account.email, email);
  t.false('cccd_link' in body.account.attributes, 'the keyed citizen-number link is never shown');
  t.is(body.sessions.length, 2);
  t.is(body.sessions[0]?.connections.length, 1);
  t.is(body.entitlements.length, 2);
  t.deepEqual(body.termsAcceptances, [{ version: 'v1', acceptedAt: at, channel: 'register' }]);
  t.like(await readPerson(d, id, ''), { status: 400 }, 'a read without a reason is refused');
  t.like(await readPerson(d, 'not-a-uuid'), { status: 400 });
  t.deepEqual(
    (await audit(d)).entries.map((entry) => `${entry.action} ${entry.outcome}`),
    ['READ READ'],
  );
});

test("an audit entry is written by the store's claim (its own commit), so a request that fails and rolls back keeps it", async (t) => {
  const d = memoryDriver();
  const platform = fakePlatform(d);
  const { id } = person(d);
  platform.down.add('session');
  const host = memoryHost(d.realm, {
    method: 'GET',
    path: `/api/persons/${id}`,
    query: { reason: REASON },
    headers: { Authorization: `Bearer ${d.tokens.operator}` },
  });
  // What goes through put is the request's transaction: Keycloak drops it at the rollback.
  const rolledBack: string[] = [];
  host.store.put = (key) => void rolledBack.push(key);
  const reply = await handleAdminRequest(host);
  t.is(reply.status, 502);
  t.true(reply.rollback);
  t.deepEqual(rolledBack, []);
  t.deepEqual(
    (await audit(d)).entries.map((entry) => `${entry.action} ${entry.outcome}`),
    ['READ READ'],
  );
});

test('a read whose services do not all answer is 502, never a partial record, and is still audited', async (t) => {
  for (const service of ['session', 'gateway', 'entitlement', 'portal'] as const) {
    const d = memoryDriver();
    const platform = fakePlatform(d);
    const { id } = person(d);
    platform.held.set(id, { sessions: [`sess-${randomUUID()}`], entitlements: 1, acceptances: 1 });
    platform.down.add(service);
    t.like(await readPerson(d, id), { status: 502, body: { code: 'UPSTREAM_UNAVAILABLE' } }, service);
    t.deepEqual((await audit(d)).entries.length, 1, service);
  }
});

test('an operator erases a person through every service in order; the account is removed and the audit keeps the erasure', async (t) => {
  const d = memoryDriver();
  const platform = fakePlatform(d);
  const { id, email } = person(d, { phone_number: '+84912345678' });
  const sessionId = `sess-${randomUUID()}`;
  platform.held.set(id, { sessions: [sessionId], entitlements: 1, acceptances: 1 });
  t.like(await erase(d, id, { confirm: true }), { status: 400 }, 'no reason');
  t.like(await erase(d, id, { reason: REASON }), { status: 400 }, 'not confirmed');
  t.true(d.realm.users.has(id));
  platform.calls.length = 0;
  const erased = await erase(d, id);
  t.like(erased, { status: 200, body: { erased: true, subjectId: id } });
  t.deepEqual(platform.calls, [
    'session GET /api/v1/subjects/:id/sessions',
    'gateway POST /api/v1/connections/erase',
    'session POST /api/v1/subjects/:id/erase',
    'entitlement POST /api/v1/subjects/:id/erase',
  ]);
  t.false(d.realm.users.has(id), 'the Keycloak user is removed');
  t.is(d.realm.sessions.get(id), undefined);
  d.realm.clockMs += 1000;
  t.like(await erase(d, id), { status: 200 }, 'repeating it finishes nothing more and answers the same');
  const entries = (await audit(d)).entries;
  t.deepEqual(
    entries.map((entry) => `${entry.action} ${entry.outcome}`),
    ['ERASE ERASED', 'ERASE ERASED'],
  );
  // Privacy canary: the audit names the person by a keyed reference only.
  const text = JSON.stringify(entries) + JSON.stringify([...d.realm.store.values()]) + d.realm.logs.join('\n');
  for (const canary of [id, email, '+84912345678', '912345678']) t.false(text.includes(canary), canary);
  t.regex(entries[0]?.person ?? '', /^p-[A-Za-z0-9]{22}$/);
  t.is(entries[0]?.person, entries[1]?.person, 'one person, one reference');
});

test("an imported employee's and a voucher's accounts are refused, unchanged, and the refusal is audited", async (t) => {
  const d = memoryDriver();
  const platform = fakePlatform(d);
  const employee = person(d, { user_type: 'EMPLOYEE', employee_ref: 'ACME:A-1' });
  const voucher = person(d, { user_type: 'VOUCHER' });
  platform.calls.length = 0;
  t.like(await erase(d, employee.id), { status: 403, body: { code: 'ACCOUNT_MANAGED_BY_EMPLOYER' } });
  d.realm.clockMs += 1000;
  t.like(await erase(d, voucher.id), { status: 403, body: { code: 'ACCOUNT_MANAGED_BY_VENUE' } });
  t.deepEqual(platform.calls, [], 'no service was asked');
  t.true(d.realm.users.get(employee.id)?.enabled);
  t.true(d.realm.users.get(voucher.id)?.enabled);
  t.is(d.realm.sessions.get(employee.id), 2, 'signed in still');
  t.deepEqual(
    (await audit(d)).entries.map((entry) => `${entry.action} ${entry.outcome}`),
    ['ERASE REFUSED_VOUCHER', 'ERASE REFUSED_EMPLOYEE'],
  );
});

test('an erasure a service stops is 502 with the account kept disabled (its writes committed), and the same request finishes it', async (t) => {
  const d = memoryDriver();
  const platform = fakePlatform(d);
  const { id } = person(d);
  platform.held.set(id, { sessions: [`sess-${randomUUID()}`], entitlements: 1, acceptances: 0 });
  platform.down.add('entitlement');
  const reply = await handleAdminRequest(
    memoryHost(d.realm, {
      method: 'POST',
      path: `/api/persons/${id}/erase`,
      headers: { ...json, Authorization: `Bearer ${d.tokens.operator}` },
      body: JSON.stringify({ confirm: true, reason: REASON }),
    }),
  );
  t.is(reply.status, 502);
  t.is(JSON.parse(reply.body).code, 'UPSTREAM_UNAVAILABLE');
  t.not(reply.rollback, true, 'the disabled account is committed, not rolled back');
  t.false(d.realm.users.get(id)?.enabled, 'held: disabled');
  t.is(d.realm.sessions.get(id), 0, 'signed out of Keycloak');
  platform.down.clear();
  d.realm.clockMs += 1000;
  t.like(await erase(d, id), { status: 200 });
  t.false(d.realm.users.has(id));
  t.deepEqual(
    (await audit(d)).entries.map((entry) => `${entry.action} ${entry.outcome}`),
    ['ERASE ERASED', 'ERASE INCOMPLETE'],
  );
});

test('the audit keeps entries for its retention window (SVC_ADMIN_AUDIT_RETENTION_DAYS), newest first, by person on request', async (t) => {
  const d = memoryDriver();
  const platform = fakePlatform(d);
  d.realm.auditRetentionDays = '30';
  const first = person(d);
  const second = person(d);
  platform.held.set(first.id, { sessions: [], entitlements: 0, acceptances: 0 });
  t.is((await readPerson(d, first.id)).status, 200);
  d.realm.clockMs += 29 * 86_400_000;
  t.is((await readPerson(d, second.id)).status, 200);
  const both = await audit(d);
  t.is(both.retentionDays, 30);
  t.is(both.entries.length, 2, 'the first is 29 days old: kept');
  const [newest] = both.entries;
  t.is((await audit(d, { person: newest?.person ?? '' })).entries.length, 1);
  t.is((await audit(d, { limit: '1' })).entries.length, 1);
  t.like(await d.send({ method: 'GET', path: '/api/audit', token: d.tokens.operator, query: { limit: '0' } }), { status: 400 });
  d.realm.clockMs += 2 * 86_400_000;
  t.is((await audit(d)).entries.length, 1, 'the first is 31 days old: purged');
  t.is([...d.realm.store.keys()].filter((key) => key.startsWith('audit.')).length, 1, 'removed from the store, not only hidden');
  t.like(await d.send({ method: 'GET', path: '/api/audit', token: d.tokens.customer }), { status: 403 });
});

test("the audit's reasons hold no email address or long number an operator typed", async (t) => {
  const d = memoryDriver();
  fakePlatform(d);
  const { id } = person(d);
  t.is((await readPerson(d, id, 'asked by someone@example.com, call +84 912 345 678')).status, 200);
  t.is((await audit(d)).entries[0]?.reason, 'asked by [redacted] call [redacted]');
});

test("the portal's purge job records the accounts it erases as the retention job, with the rule's reason; its role opens that route only", async (t) => {
  const d = memoryDriver();
  const gone = person(d);
  const record = (token: string, body: unknown) => d.send({ method: 'POST', path: '/api/audit/retention', token, headers: json, body: JSON.stringify(body) });

  t.like(await record(d.tokens.portal, { subjectId: gone.id, reason: 'inactive', outcome: 'erased' }), { status: 200, body: { recorded: true } });
  t.like(await record(d.tokens.portal, { subjectId: gone.id, reason: 'voucher-expired', outcome: 'incomplete' }), { status: 200 });
  t.like(await record(d.tokens.portal, { subjectId: gone.id, reason: 'because', outcome: 'erased' }), { status: 400, body: { code: 'INVALID_REQUEST' } });
  t.like(
    await record(d.tokens.operator, { subjectId: gone.id, reason: 'inactive', outcome: 'erased' }),
    { status: 403 },
    'an operator cannot write in the job’s name',
  );
  t.like(await d.send({ method: 'GET', path: '/api/audit', token: d.tokens.portal }), { status: 403 }, 'the job reads nothing');

  const { entries } = await audit(d);
  t.deepEqual(
    entries.map(({ operator, action, reason, outcome }) => ({ operator, action, reason, outcome })).sort((a, b) => a.outcome.localeCompare(b.outcome)),
    [
      { operator: 'retention-job', action: 'ERASE', reason: 'no sign-in within RETENTION_INACTIVE_ACCOUNTS_DAYS', outcome: 'ERASED' },
      { operator: 'retention-job', action: 'ERASE', reason: 'voucher expired more than RETENTION_VOUCHER_ACCOUNTS_DAYS ago', outcome: 'INCOMPLETE' },
    ],
  );
  t.true(
    entries.every((entry) => entry.person?.startsWith('p-') === true && !JSON.stringify(entry).includes(gone.id)),
    'the person by a keyed reference only',
  );
});
