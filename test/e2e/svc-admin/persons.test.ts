import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { waitFor } from '../../helpers/wait-for.js';
import { adminApi, adminToken, lastSmsCode, randomPhone } from '../keycloak/kc-client.js';
import { filesContaining, KC_LOG } from '../keycloak/kc-files.js';
import { URLS } from '../platform-urls.js';
import { freshEmail, networkSession, PortalBrowser } from '../portal/portal-client.js';
import { MODULE_URL, operatorToken } from './kc-driver.js';

// An operator finds, reads and erases a person in svc-admin against the running platform (real
// Keycloak reaching the session, gateway, entitlement and portal services through its Java host
// with its own keys). Afterwards no service holds a row naming them, no log line holds their email
// or number, and the durable audit has an entry for every access naming them by a keyed reference.
const REASON = 'privacy request at the front desk';
const PORTAL_SESSION_KEY = { 'X-API-Key': process.env['PORTAL_SESSION_KEY'] ?? 'dev-session-portal-key' };

let token: string | undefined;
const operator = async (): Promise<string> => (token ??= await operatorToken());

async function svcAdmin(method: string, path: string, query: Record<string, string> = {}, body?: unknown) {
  const url = new URL(`${MODULE_URL}${path}`);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  const reply = await fetch(url, {
    method,
    headers: { Authorization: `Bearer ${await operator()}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: reply.status, body: (await reply.json()) as Record<string, unknown> };
}

interface AuditEntry {
  action: string;
  person: string | null;
  reason: string;
  outcome: string;
}

const auditOf = async (person: string): Promise<AuditEntry[]> => ((await svcAdmin('GET', '/api/audit', { person })).body['entries'] ?? []) as AuditEntry[];

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

async function platformLogs(): Promise<string[]> {
  const services = (await readdir('.run/logs')).filter((name) => !/catcher/.test(name)).map((name) => join('.run/logs', name));
  return [KC_LOG, ...services];
}

async function findReadErase(t: import('ava').ExecutionContext, browser: PortalBrowser, query: Record<string, string>, canary: string): Promise<void> {
  const { subjectId, sessionId } = await subjectOf(browser);
  const found = await svcAdmin('GET', '/api/persons', { ...query, reason: REASON });
  t.is(found.status, 200, JSON.stringify(found.body));
  t.deepEqual(
    (found.body['persons'] as { id: string }[]).map((person) => person.id),
    [subjectId],
  );

  const read = await svcAdmin('GET', `/api/persons/${subjectId}`, { reason: REASON });
  t.is(read.status, 200, JSON.stringify(read.body));
  t.like(read.body, { subjectId, account: { id: subjectId } });
  t.true(
    (read.body['sessions'] as { sessionId: string }[]).some((session) => session.sessionId === sessionId),
    'the network session, from the session service',
  );
  t.true((read.body['entitlements'] as unknown[]).length > 0, 'the entitlement, from the entitlement service');
  t.true(Array.isArray(read.body['termsAcceptances']), 'the acceptances, from the portal');

  const erased = await svcAdmin('POST', `/api/persons/${subjectId}/erase`, {}, { confirm: true, reason: REASON });
  t.is(erased.status, 200, JSON.stringify(erased.body));
  t.like(await networkSession(sessionId), { state: 'REVOKED', subjectId: 'erased', deviceRef: null });
  const after = await fetch(`${URLS.session}/api/v1/subjects/${subjectId}/sessions`, { headers: PORTAL_SESSION_KEY });
  t.deepEqual(((await after.json()) as { sessions: unknown[] }).sessions, []);
  t.true(await userGone(subjectId), 'the Keycloak user is removed');
  const reread = await svcAdmin('GET', `/api/persons/${subjectId}`, { reason: REASON });
  t.like(reread.body, { account: null, sessions: [], entitlements: [] }, 'nothing left at any service');

  const person = (await svcAdmin('GET', '/api/audit', { limit: '500' })).body['entries'] as AuditEntry[];
  const mine = person.filter((entry) => entry.reason === REASON && entry.action === 'ERASE');
  t.true(mine.length > 0);
  const entries = await auditOf(mine[0]?.person ?? '');
  t.deepEqual(
    entries.map((entry) => `${entry.action} ${entry.outcome}`),
    ['READ NO_ACCOUNT', 'ERASE ERASED', 'READ READ', 'FIND FOUND'],
    'every access, newest first',
  );
  t.false(JSON.stringify(entries).includes(subjectId), 'the audit names the person by a keyed reference, never their account id');
  t.deepEqual(await filesContaining(await platformLogs(), canary), [], 'no log line names the person');
}

test.after.always(async () => {
  token = undefined;
});

test.serial('an operator finds a customer by email, reads their records and erases them: gone everywhere, audited, no log line holds the email', async (t) => {
  const email = freshEmail('op-erase-canary');
  const browser = new PortalBrowser();
  t.is((await browser.register(email, 'op-erase-canary-pass', 'Operator Canary')).status, 200);
  await findReadErase(t, browser, { email }, email);
});

test.serial('an operator finds a phone customer by their number in national form and erases them; no log line or account holds the number', async (t) => {
  const phone = randomPhone();
  const browser = new PortalBrowser();
  t.is((await browser.call('POST', '/api/v1/auth/phone/code', { phone })).status, 202);
  const code = await waitFor(
    () => lastSmsCode(phone),
    (found) => found !== undefined,
    { timeoutMs: 5000 },
  );
  t.is((await browser.call('POST', '/api/v1/auth/phone', { phone, code })).status, 200);
  await findReadErase(t, browser, { phone: `0${phone.slice(3)}` }, phone);
  t.deepEqual(await adminApi(await adminToken(), 'GET', `/users?q=phone_number:${encodeURIComponent(phone)}`), []);
});

test.serial("an operator's erasure of an imported employee is refused and the account stays whole", async (t) => {
  const browser = new PortalBrowser();
  t.is((await browser.employee('A-1001', '079201001234')).status, 200);
  const { subjectId } = await subjectOf(browser);
  const read = await svcAdmin('GET', `/api/persons/${subjectId}`, { reason: REASON });
  const employeeRef = (read.body['account'] as { employeeRef: string }).employeeRef;
  const found = await svcAdmin('GET', '/api/persons', { employeeRef, reason: REASON });
  t.true((found.body['persons'] as { id: string }[]).some((person) => person.id === subjectId));
  const refused = await svcAdmin('POST', `/api/persons/${subjectId}/erase`, {}, { confirm: true, reason: REASON });
  t.is(refused.status, 403);
  t.is(refused.body['code'], 'ACCOUNT_MANAGED_BY_EMPLOYER');
  t.false(await userGone(subjectId));
  t.true((await browser.session()).body['authenticated']);
  await browser.logout();
});
