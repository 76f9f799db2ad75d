import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { MIGRATIONS } from '../../../services/portal/app.js';
import { createTermsAcceptances, type CurrentTerms } from '../../../services/portal/terms.js';
import { openTestDatabase, type Backend } from '../../helpers/databases.js';
import { assertError } from '../../helpers/error-shape.js';
import { startPostgres } from '../../helpers/postgres-server.js';
import { answer, bootPortal, cookieOf, defaultFakes, SUBJECT, type Fakes } from './portal-fakes.js';

// Serial: the portal's fakes share one database per file; each test publishes a version of its own.
const BOB = { username: 'bob@example.com', password: 'correct horse battery staple' };
const published = (version: string): CurrentTerms => ({
  kind: 'published',
  terms: { version, textVi: `Điều khoản ${version}`, textEn: `Terms ${version}`, publishedAt: '2026-11-01T00:00:00.000Z' },
});
const newVersion = () => `v-${randomUUID().slice(0, 8)}`;

function fakesWith(terms: CurrentTerms): Fakes {
  const fakes = defaultFakes();
  fakes.terms = terms;
  return fakes;
}

test.serial('no version published: a sign-in without acceptance is answered as before, and nothing is recorded', async (t) => {
  const portal = await bootPortal(t, fakesWith({ kind: 'none' }));
  t.like(await portal.get('/api/v1/terms'), { status: 200, body: { current: null } });
  const reply = await portal.post('/api/v1/auth/login', BOB);
  t.is(reply.status, 200, reply.text);
  const mine = await portal.get('/api/v1/me/terms', { cookie: cookieOf(reply) });
  t.is(mine.status, 200, mine.text);
  t.true((mine.body['acceptances'] as unknown[]).every((row) => typeof row === 'object'));
});

test.serial('a version in force and no acceptance: 400 naming the version, nothing granted, the Keycloak session ended, nothing recorded', async (t) => {
  const version = newVersion();
  const portal = await bootPortal(t, fakesWith(published(version)));
  t.like(await portal.get('/api/v1/terms'), { status: 200, body: { current: { version, textVi: `Điều khoản ${version}`, textEn: `Terms ${version}` } } });
  for (const body of [BOB, { ...BOB, acceptedTerms: 'an-older-version' }]) {
    const reply = await portal.post('/api/v1/auth/login', body);
    assertError(t, reply, 400, 'INVALID_REQUEST');
    t.true(String(reply.body['message']).includes(version), 'the answer names the version');
    t.false(
      reply.headers.getSetCookie().some((cookie) => cookie.startsWith('sid=')),
      'no portal session',
    );
  }
  t.deepEqual(portal.fakes.calls, ['idp.password bob@example.com', 'idp.logout', 'idp.password bob@example.com', 'idp.logout']);
  t.false(await createTermsAcceptances(portal.db, () => new Date()).accepted(SUBJECT, version));
});

test.serial('every way of signing in requires the acceptance and records it with its channel; once accepted, later sign-ins need nothing', async (t) => {
  for (const [channel, path, body] of [
    ['password', '/api/v1/auth/login', BOB],
    ['register', '/api/v1/auth/register', { email: 'new@example.com', password: 'long enough password' }],
    ['employee', '/api/v1/auth/employee', { employeeId: 'E-1', citizenId: '001099000001' }],
    ['phone', '/api/v1/auth/phone', { phone: '0912345678', code: '482913' }],
  ] as const) {
    const version = newVersion();
    const portal = await bootPortal(t, fakesWith(published(version)));
    assertError(t, await portal.post(path, body), 400, 'INVALID_REQUEST');
    t.false(portal.fakes.calls.includes('entitlement.evaluate'), `${channel}: nothing granted`);
    t.true(portal.fakes.calls.includes('idp.logout'), `${channel}: the Keycloak session ended`);
    const accepted = await portal.post(path, { ...body, acceptedTerms: version });
    t.is(accepted.status, 200, `${channel}: ${accepted.text}`);
    const mine = await portal.get('/api/v1/me/terms', { cookie: cookieOf(accepted) });
    t.like((mine.body['acceptances'] as unknown[])[0], { version, channel }, channel);
    const copy = await portal.get('/api/v1/me/data', { cookie: cookieOf(accepted) });
    t.like((copy.body['termsAcceptances'] as unknown[])[0], { version, channel }, `${channel}: in the copy of their data`);
    // Accepted once: the next sign-in of the same person needs no tick.
    t.is(
      (await portal.post(path === '/api/v1/auth/register' ? '/api/v1/auth/login' : path, path === '/api/v1/auth/register' ? BOB : body)).status,
      200,
      channel,
    );
  }
});

test.serial('a new version in force asks again; the earlier acceptance stays on record', async (t) => {
  const first = newVersion();
  const fakes = fakesWith(published(first));
  const portal = await bootPortal(t, fakes);
  t.is((await portal.post('/api/v1/auth/login', { ...BOB, acceptedTerms: first })).status, 200);
  const second = newVersion();
  fakes.terms = published(second);
  const refused = await portal.post('/api/v1/auth/login', BOB);
  assertError(t, refused, 400, 'INVALID_REQUEST');
  t.true(String(refused.body['message']).includes(second));
  const signedIn = await portal.post('/api/v1/auth/login', { ...BOB, acceptedTerms: second });
  const rows = (await portal.get('/api/v1/me/terms', { cookie: cookieOf(signedIn) })).body['acceptances'] as Array<{ version: string }>;
  t.deepEqual(
    rows.filter(({ version }) => version === first || version === second).map(({ version }) => version),
    [second, first],
  );
});

test.serial('a sign-in refused after the terms step (entitlement denied, session service down) records no acceptance', async (t) => {
  const version = newVersion();
  const fakes = fakesWith(published(version));
  fakes.evaluate = answer(403, { code: 'ENTITLEMENT_DENIED', reason: 'UNKNOWN_USER_TYPE' });
  const portal = await bootPortal(t, fakes);
  t.is((await portal.post('/api/v1/auth/login', { ...BOB, acceptedTerms: version })).status, 403);
  fakes.evaluate = defaultFakes().evaluate;
  fakes.grantSession = { kind: 'unreachable', failure: 'timeout' };
  t.is((await portal.post('/api/v1/auth/login', { ...BOB, acceptedTerms: version })).status, 502);
  t.false(await createTermsAcceptances(portal.db, () => new Date()).accepted(SUBJECT, version));
});

test.serial('terms that cannot be read fail closed: 502, nothing granted, the Keycloak session ended', async (t) => {
  const portal = await bootPortal(t, fakesWith({ kind: 'unreachable' }));
  assertError(t, await portal.post('/api/v1/auth/login', BOB), 502, 'UPSTREAM_UNAVAILABLE');
  t.deepEqual(portal.fakes.calls, ['idp.password bob@example.com', 'idp.logout']);
  assertError(t, await portal.get('/api/v1/terms'), 502, 'UPSTREAM_UNAVAILABLE');
});

test.serial('the acceptances are read only by the person signed in, and a malformed acceptedTerms is 400 before any call', async (t) => {
  const portal = await bootPortal(t, fakesWith({ kind: 'none' }));
  assertError(t, await portal.get('/api/v1/me/terms'), 401, 'UNAUTHORIZED');
  for (const acceptedTerms of ['', 'x'.repeat(33), 7]) {
    assertError(t, await portal.post('/api/v1/auth/login', { ...BOB, acceptedTerms }), 400, 'INVALID_REQUEST');
  }
  t.deepEqual(portal.fakes.calls, []);
  t.is((await portal.post('/api/v1/auth/phone/code', { phone: '0912345678' })).status, 202, 'the code request takes no acceptance');
});

async function storeSurvives(t: import('ava').ExecutionContext, backend: Backend, reopen: () => Promise<Awaited<ReturnType<typeof openTestDatabase>>>) {
  const db = await reopen();
  const at = new Date('2026-11-27T09:00:00.000Z');
  const store = createTermsAcceptances(db, () => at);
  await store.record('subject-a', 'v1', 'voucher');
  await store.record('subject-a', 'v1', 'password');
  await db.close();
  const again = await reopen();
  t.teardown(() => again.close());
  const kept = createTermsAcceptances(again, () => new Date());
  t.true(await kept.accepted('subject-a', 'v1'), backend);
  t.false(await kept.accepted('subject-b', 'v1'), backend);
  t.deepEqual(await kept.list('subject-a'), [{ version: 'v1', acceptedAt: at.toISOString(), channel: 'voucher' }], `${backend}: the first acceptance is kept`);
}

test.serial('PGlite: acceptances survive a restart, the first of a version kept', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'wifi-terms-'));
  await storeSurvives(t, 'pglite', () => openTestDatabase('pglite', { service: 'portal', migrations: MIGRATIONS, dir }));
});

test.serial('PostgreSQL: acceptances survive a reconnect, the first of a version kept', async (t) => {
  const server = await startPostgres();
  t.teardown(() => server.stop());
  const postgresUrl = await server.createDatabase();
  await storeSurvives(t, 'postgres', () => openTestDatabase('postgres', { service: 'portal', migrations: MIGRATIONS, postgresUrl }));
});
