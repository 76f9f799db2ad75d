import { randomUUID } from 'node:crypto';
import type { TestFn } from 'ava';
import { z } from 'zod';
import { IMPORT_ACTIONS, ImportOutcome } from '../../../../kc-extension/svc-admin/import-schemas.js';
import { putCompany, uniqueCode } from './companies-contract.js';
import type { Driver, DriverReply } from './driver.js';
import { ErrorBody } from './response-schemas.js';
import { waitFor } from '../../../helpers/wait-for.js';

export const ImportReply = z
  .object({
    mode: z.enum(['PREVIEW', 'COMMIT']),
    company: z.string(),
    total: z.number().int(),
    counts: z.record(z.enum(IMPORT_ACTIONS), z.number().int()),
    outcomes: z.array(ImportOutcome),
  })
  .strict();

export const CANARY = '987650001234';
const uniqueNumber = (): string => String(Math.floor(1e11 + Math.random() * 8e11));
const uniqueId = (): string => `T-${randomUUID().slice(0, 8)}`;

export async function importCompany(d: Driver): Promise<string> {
  const code = uniqueCode('IM');
  await putCompany(d, code, { name: 'Import company' });
  return code;
}

export const postImport = (d: Driver, mode: string | undefined, body: unknown): Promise<DriverReply> =>
  d.send({
    method: 'POST',
    path: '/api/import',
    token: d.tokens.operator,
    ...(mode === undefined ? {} : { query: { mode } }),
    headers: { 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const actions = (reply: DriverReply): string[] => ImportReply.parse(reply.body).outcomes.map((o) => o.action);

export function importContract(test: TestFn, driver: () => Promise<Driver>): void {
  test('preview is the default, writes nothing, and judges rows against the realm as it is', async (t) => {
    const d = await driver();
    const company = await importCompany(d);
    const number = uniqueNumber();
    const employeeId = uniqueId();
    const rows = [
      { employeeId, citizenId: number },
      { employeeId, citizenId: number },
    ];
    const preview = await postImport(d, undefined, { company, rows });
    t.is(preview.status, 200);
    t.like(ImportReply.parse(preview.body), { mode: 'PREVIEW', total: 2, counts: { CREATE: 2 } });
    t.deepEqual(actions(await postImport(d, 'preview', { company, rows })), ['CREATE', 'CREATE']);
    const commit = await postImport(d, 'commit', { company, rows });
    t.like(ImportReply.parse(commit.body), { mode: 'COMMIT', total: 2 });
    t.is(actions(commit)[0], 'CREATE');
    t.regex(actions(commit)[1]!, /^LINK_BY_(CCCD|EMPLOYEE_REF)$/);
    t.is(ImportReply.parse(commit.body).outcomes[0]!.username, `emp-${employeeId.toLowerCase()}`);
  });

  test('after a commit the same citizen number links by CCCD; a different reference on it is CONFLICT naming the existing one', async (t) => {
    const d = await driver();
    const company = await importCompany(d);
    const number = uniqueNumber();
    const first = uniqueId();
    await postImport(d, 'commit', { company, rows: [{ employeeId: first, citizenId: number }] });
    t.deepEqual(actions(await postImport(d, 'preview', { company, rows: [{ employeeId: first, citizenId: number }] })), ['LINK_BY_CCCD']);
    const clash = await postImport(d, 'commit', { company, rows: [{ employeeId: uniqueId(), citizenId: number }] });
    const outcome = ImportReply.parse(clash.body).outcomes[0]!;
    t.is(outcome.action, 'CONFLICT');
    t.true(outcome.note?.includes(first));
  });

  test('a known employee_ref links by reference; an email-only match to a verified account without a password is LINK_BY_EMAIL flagged for review', async (t) => {
    const d = await driver();
    const company = await importCompany(d);
    const ref = uniqueId();
    await d.createEmployee(ref, company);
    t.deepEqual(actions(await postImport(d, 'preview', { company, rows: [{ employeeId: ref }] })), ['LINK_BY_EMPLOYEE_REF']);
    const email = `imp-${randomUUID().slice(0, 8)}@example.com`;
    const id = await d.createAccount(email, { emailVerified: true, password: false });
    const employeeId = uniqueId();
    const byEmail = ImportReply.parse((await postImport(d, 'commit', { company, rows: [{ employeeId, email }] })).body).outcomes[0]!;
    t.like(byEmail, { action: 'LINK_BY_EMAIL', matchedUserId: id });
    t.regex(byEmail.note ?? '', /review/);
    t.like(await d.employee(id), { attributes: { employee_ref: employeeId, company } });
  });

  test('pre-hijack: an email match to an account with a password of its own, or with the address unverified, is REVIEW_EMAIL_MATCH and a commit writes nothing', async (t) => {
    const d = await driver();
    const company = await importCompany(d);
    const registered = `imp-${randomUUID().slice(0, 8)}@example.com`;
    const unverified = `imp-${randomUUID().slice(0, 8)}@example.com`;
    const ids = [
      await d.createAccount(registered, { emailVerified: true, password: true }),
      await d.createAccount(unverified, { emailVerified: false, password: false }),
    ];
    const rows = [
      { employeeId: uniqueId(), email: registered, citizenId: uniqueNumber() },
      { employeeId: uniqueId(), email: unverified },
    ];
    t.deepEqual(actions(await postImport(d, 'preview', { company, rows })), ['REVIEW_EMAIL_MATCH', 'REVIEW_EMAIL_MATCH']);
    const commit = ImportReply.parse((await postImport(d, 'commit', { company, rows })).body);
    t.like(commit, { counts: { REVIEW_EMAIL_MATCH: 2, LINK_BY_EMAIL: 0, CREATE: 0 } });
    t.like(commit.outcomes[0], { matchedUserId: ids[0] });
    t.regex(commit.outcomes[0]!.note ?? '', /password of its own: nothing written/);
    t.regex(commit.outcomes[1]!.note ?? '', /not verified the address: nothing written/);
    for (const id of ids) {
      const { attributes } = await d.employee(id);
      t.deepEqual(
        [attributes['user_type'], attributes['employee_ref'], attributes['company'], attributes['cccd_link']],
        [undefined, undefined, undefined, undefined],
      );
    }
    // The next file still cannot link them, and no account was made for the rows instead.
    t.deepEqual(actions(await postImport(d, 'preview', { company, rows })), ['REVIEW_EMAIL_MATCH', 'REVIEW_EMAIL_MATCH']);
    t.deepEqual(actions(await postImport(d, 'preview', { company, rows: rows.map((row) => ({ employeeId: row.employeeId })) })), ['CREATE', 'CREATE']);
  });

  test('a citizen number failing the pattern is not hashed: the row creates, and a later import does not link by it', async (t) => {
    const d = await driver();
    const company = await importCompany(d);
    await postImport(d, 'commit', { company, rows: [{ employeeId: uniqueId(), citizenId: '12345' }] });
    t.deepEqual(actions(await postImport(d, 'preview', { company, rows: [{ employeeId: uniqueId(), citizenId: '12345' }] })), ['CREATE']);
  });

  test('rows of one commit see what earlier rows wrote: a repeated email with another reference and a repeated username are CONFLICT', async (t) => {
    const d = await driver();
    const company = await importCompany(d);
    const first = uniqueId();
    const email = `imp-${randomUUID().slice(0, 8)}@example.com`;
    const rows = [{ employeeId: first, email }, { employeeId: uniqueId(), email }, { employeeId: first.toLowerCase() }];
    t.deepEqual(actions(await postImport(d, 'preview', { company, rows })), ['CREATE', 'CREATE', 'CREATE']);
    const commit = ImportReply.parse((await postImport(d, 'commit', { company, rows })).body);
    t.deepEqual(
      commit.outcomes.map((o) => o.action),
      ['CREATE', 'CONFLICT', 'CONFLICT'],
    );
    t.true(commit.outcomes[1]!.note?.includes(first));
    t.regex(commit.outcomes[2]!.note ?? '', new RegExp(`username emp-${first.toLowerCase()} is held`));
    t.is(commit.outcomes[1]!.username, `emp-${first.toLowerCase()}`);
    t.is(commit.outcomes[2]!.matchedUserId, commit.outcomes[1]!.matchedUserId);
  });

  test('a row whose citizen number and employee_ref match two different accounts is CONFLICT, nothing written', async (t) => {
    const d = await driver();
    const company = await importCompany(d);
    const number = uniqueNumber();
    const email = `imp-${randomUUID().slice(0, 8)}@example.com`;
    // Checked, so that a run where this first commit did not link the number says so (one full
    // run saw LINK_BY_EMPLOYEE_REF below; the file alone passes).
    const first = ImportReply.parse((await postImport(d, 'commit', { company, rows: [{ email, citizenId: number }] })).body);
    t.like(first.outcomes[0], { action: 'CREATE', username: email });
    // The second import must see the link the first wrote. Against Keycloak, two full runs saw it
    // missing (LINK_BY_EMPLOYEE_REF below) while the file alone passes: wait until a preview of the
    // same row finds the account by its citizen number, so this test judges the CONFLICT only.
    const previewAction = async () =>
      ImportReply.parse((await postImport(d, 'preview', { company, rows: [{ email, citizenId: number }] })).body).outcomes[0]?.action;
    await waitFor(previewAction, (action) => action === 'LINK_BY_CCCD', { timeoutMs: 15_000, intervalMs: 100 });
    const ref = uniqueId();
    const holder = await d.createEmployee(ref, 'OTHER');
    const commit = ImportReply.parse((await postImport(d, 'commit', { company, rows: [{ employeeId: ref, citizenId: number }] })).body);
    t.like(commit.outcomes[0], { action: 'CONFLICT', username: email });
    t.regex(commit.outcomes[0]!.note ?? '', /different accounts/);
    t.like(await d.employee(holder), { attributes: { company: 'OTHER', cccd_link: undefined } });
  });

  test('an employee_ref carried by two accounts is CONFLICT instead of a guess', async (t) => {
    const d = await driver();
    const company = await importCompany(d);
    const ref = uniqueId();
    await d.createEmployee(ref, company);
    await d.createEmployee(ref, company);
    const outcome = ImportReply.parse((await postImport(d, 'commit', { company, rows: [{ employeeId: ref }] })).body).outcomes[0]!;
    t.is(outcome.action, 'CONFLICT');
    t.regex(outcome.note ?? '', /carried by 2 accounts/);
  });

  test('5000 rows: preview creates all, commit writes all, a second preview links all by CCCD', async (t) => {
    const d = await driver();
    const company = await importCompany(d);
    const tag = randomUUID().slice(0, 8);
    const rows = Array.from({ length: 5000 }, (_, i) => ({
      employeeId: `K${tag}-${i}`,
      citizenId: String(100_000_000_000 + i * 7919 + Math.floor(Math.random() * 7000)),
      email: `k-${tag}-${i}@example.com`,
    }));
    const counts = async (mode: string) => {
      const reply = await postImport(d, mode, { company, rows });
      t.is(reply.status, 200);
      return ImportReply.parse(reply.body).counts;
    };
    t.like(await counts('preview'), { CREATE: 5000, CONFLICT: 0 });
    t.like(await counts('commit'), { CREATE: 5000, CONFLICT: 0 });
    t.like(await counts('preview'), { LINK_BY_CCCD: 5000, CREATE: 0, CONFLICT: 0 });
  });

  const bad: [string, string | undefined, (company: string) => unknown, RegExp][] = [
    ['a body that is not JSON', 'preview', () => 'rows,are,csv', /JSON/],
    ['0 rows', 'preview', (company) => ({ company, rows: [] }), /rows/],
    ['5001 rows', 'commit', (company) => ({ company, rows: Array.from({ length: 5001 }, () => ({ employeeId: 'ABC-1' })) }), /rows/],
    ['an unknown company', 'commit', () => ({ company: 'NO-SUCH-CO', rows: [{ employeeId: 'ABC-1' }] }), /company/],
    ['a row with neither key on line 2', 'commit', (company) => ({ company, rows: [{ employeeId: 'ABC-1' }, { fullName: 'x' }] }), /line 2/],
    ['an unknown mode', 'apply', (company) => ({ company, rows: [{ employeeId: 'ABC-1' }] }), /mode/],
  ];
  for (const [what, mode, body, message] of bad) {
    test(`import with ${what} is 400 naming the problem, and nothing is written`, async (t) => {
      const d = await driver();
      const company = await importCompany(d);
      const reply = await postImport(d, mode, body(company));
      t.like(reply, { status: 400, body: { code: 'INVALID_REQUEST' } });
      t.true(ErrorBody.safeParse(reply.body).success);
      t.regex(String((reply.body as { message: string }).message), message);
      t.deepEqual(actions(await postImport(d, 'preview', { company, rows: [{ employeeId: 'ABC-1' }] })), ['CREATE']);
    });
  }

  test('the citizen number never appears in a response or the event log', async (t) => {
    const d = await driver();
    const company = await importCompany(d);
    const preview = await postImport(d, 'preview', { company, rows: [{ employeeId: uniqueId(), citizenId: CANARY }] });
    t.false(JSON.stringify(preview.body).includes(CANARY));
    const events = await d.send({ method: 'GET', path: '/api/events', token: d.tokens.operator, query: { limit: '200' } });
    t.false(JSON.stringify(events.body).includes(CANARY));
  });
}
