import type { TestFn } from 'ava';
import { randomUUID } from 'node:crypto';
import type { Driver, DriverReply } from './driver.js';
import { BatchDetail, BatchList, CreatedBatch, ErrorBody, VouchersRevoked } from './response-schemas.js';

const DAY_MS = 86_400_000;
const json = { 'Content-Type': 'application/json' };

export const createBatch = (d: Driver, body: unknown, format?: string): Promise<DriverReply> =>
  d.send({
    method: 'POST',
    path: '/api/vouchers/batches',
    token: d.tokens.operator,
    body: JSON.stringify(body),
    headers: json,
    ...(format === undefined ? {} : { query: { format } }),
  });

export const batchBody = (d: Driver, overrides: Record<string, unknown> = {}) => ({
  count: 3,
  validUntil: new Date(d.nowMs() + 7 * DAY_MS).toISOString(),
  durationMinutes: 120,
  note: 'Lobby café',
  ...overrides,
});

/** A header of a reply by its name in any case (fetch answers them lower-cased, the in-memory host as set). */
const header = (reply: DriverReply, name: string): string => Object.entries(reply.headers).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1] ?? '';

const get = (d: Driver, path: string) => d.send({ method: 'GET', path, token: d.tokens.operator });
const post = (d: Driver, path: string, body: unknown = {}) =>
  d.send({ method: 'POST', path, token: d.tokens.operator, body: JSON.stringify(body), headers: json });

export function vouchersContract(test: TestFn, driver: () => Promise<Driver>): void {
  test('a batch is created with its codes answered once; the list and the batch show states, never a code', async (t) => {
    const d = await driver();
    const created = await createBatch(d, batchBody(d));
    t.is(created.status, 201, JSON.stringify(created.body));
    const { batch, codes } = CreatedBatch.parse(created.body);
    t.is(codes.length, 3);
    t.is(new Set(codes).size, 3);
    t.like(batch, { count: 3, durationMinutes: 120, deviceSlots: 1, shared: false, note: 'Lobby café' });
    // The signed-in operator: the demo operator in memory, an operator of the suite's own against Keycloak.
    t.regex(batch.createdBy, /^svc-op/);
    const list = await get(d, '/api/vouchers/batches');
    t.is(list.status, 200);
    const listed = BatchList.parse(list.body).batches.find((b) => b.id === batch.id);
    t.deepEqual(listed?.states, { UNUSED: 3 });
    const detail = await get(d, `/api/vouchers/batches/${batch.id}`);
    const { vouchers } = BatchDetail.parse(detail.body);
    t.deepEqual(
      vouchers.map((v) => v.state),
      ['UNUSED', 'UNUSED', 'UNUSED'],
    );
    for (const reply of [list, detail]) {
      const text = JSON.stringify(reply.body);
      for (const code of codes) {
        t.false(text.includes(code), 'no code in a later answer');
        t.false(text.includes(code.replace(/-/g, '')), 'no code in a later answer');
      }
    }
  });

  test('a shared batch keeps its device slots; a single-use batch has one', async (t) => {
    const d = await driver();
    const shared = CreatedBatch.parse((await createBatch(d, batchBody(d, { count: 1, shared: true, deviceSlots: 4 }))).body);
    t.like(shared.batch, { shared: true, deviceSlots: 4 });
    const single = CreatedBatch.parse((await createBatch(d, batchBody(d, { count: 1, deviceSlots: 4 }))).body);
    t.like(single.batch, { shared: false, deviceSlots: 1 });
    const detail = BatchDetail.parse((await get(d, `/api/vouchers/batches/${shared.batch.id}`)).body);
    t.is(detail.vouchers[0]?.signInsAllowed, 4);
  });

  test('the codes download as CSV and as a printable sheet in both languages, each card one voucher', async (t) => {
    const d = await driver();
    const csv = await createBatch(d, batchBody(d, { count: 2, note: '=HYPERLINK("x")' }), 'csv');
    t.is(csv.status, 201);
    t.regex(header(csv, 'Content-Type'), /^text\/csv/);
    t.regex(header(csv, 'Content-Disposition'), /^attachment; filename="vb-[0-9a-f-]+\.csv"$/);
    const lines = String(csv.body).trim().split('\r\n');
    t.is(lines.length, 3);
    t.regex(lines[1] ?? '', /^"[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}","vb-/);
    t.true((lines[1] ?? '').includes(`"'=HYPERLINK(""x"")"`), 'a formula-looking note is defused');
    const sheet = await createBatch(d, batchBody(d, { count: 2, note: '<script>alert(1)</script>' }), 'html');
    t.is(sheet.status, 201);
    const html = String(sheet.body);
    t.is(html.match(/<article class="card">/g)?.length, 2);
    t.true(html.includes('Mã Wi-Fi') && html.includes('Wi-Fi voucher'), 'both languages');
    t.true(html.includes('@media print'));
    t.false(html.includes('<script>'), 'the note is escaped');
    t.regex(header(sheet, 'Content-Security-Policy'), /default-src 'none'/);
  });

  // Each case carries a note of its own: other suites create batches at the same time, so "makes
  // nothing" is that no batch with this note exists, not that the count stayed.
  const invalid: [string, (d: Driver, note: string) => unknown][] = [
    ['a count of 0', (d, note) => batchBody(d, { note, count: 0 })],
    ['a count over 500', (d, note) => batchBody(d, { note, count: 501 })],
    ['no validUntil', (d, note) => ({ ...batchBody(d, { note }), validUntil: undefined })],
    [
      'validUntil before validFrom',
      (d, note) => batchBody(d, { note, validFrom: new Date(d.nowMs() + DAY_MS).toISOString(), validUntil: new Date(d.nowMs()).toISOString() }),
    ],
    ['a date that is no date', (d, note) => batchBody(d, { note, validUntil: 'next week' })],
    ['durationMinutes 0', (d, note) => batchBody(d, { note, durationMinutes: 0 })],
    ['17 device slots', (d, note) => batchBody(d, { note, deviceSlots: 17, shared: true })],
    ['a note with a control character', (d, note) => batchBody(d, { note: `${note}\u0007` })],
    ['an unknown field', (d, note) => batchBody(d, { note, price: 5 })],
  ];
  for (const [what, body] of invalid) {
    test(`a batch with ${what} is 400 INVALID_REQUEST and makes nothing`, async (t) => {
      const d = await driver();
      const note = `invalid ${randomUUID()}`;
      const reply = await createBatch(d, body(d, note));
      t.like(reply, { status: 400, body: { code: 'INVALID_REQUEST' } });
      t.true(ErrorBody.safeParse(reply.body).success);
      const made = BatchList.parse((await get(d, '/api/vouchers/batches')).body).batches.filter((batch) => (batch.note ?? '').startsWith(note));
      t.deepEqual(made, []);
    });
  }

  test('an unknown format is 400; an unknown batch is 404; a revoke by an unknown or malformed code is 404 / 400', async (t) => {
    const d = await driver();
    t.like(await createBatch(d, batchBody(d), 'pdf'), { status: 400, body: { code: 'INVALID_REQUEST' } });
    t.like(await get(d, '/api/vouchers/batches/vb-00000000-0000-4000-8000-000000000000'), { status: 404, body: { code: 'NOT_FOUND' } });
    t.like(await get(d, '/api/vouchers/batches/nonsense'), { status: 404, body: { code: 'NOT_FOUND' } });
    t.like(await post(d, '/api/vouchers/revoke', { code: 'AAAA-BBBB-CCCC' }), { status: 404, body: { code: 'NOT_FOUND' } });
    t.like(await post(d, '/api/vouchers/revoke', { code: 'not a code' }), { status: 400, body: { code: 'INVALID_REQUEST' } });
  });

  test('a voucher, a lost card (by its code, any case) and a whole batch are revoked; the states show it', async (t) => {
    const d = await driver();
    const { batch, codes } = CreatedBatch.parse((await createBatch(d, batchBody(d, { count: 3 }))).body);
    const { vouchers } = BatchDetail.parse((await get(d, `/api/vouchers/batches/${batch.id}`)).body);
    const one = await post(d, `/api/vouchers/batches/${batch.id}/vouchers/${vouchers[0]!.id}/revoke`);
    t.deepEqual(VouchersRevoked.parse(one.body), { revoked: 1, voucherIds: [vouchers[0]!.id] });
    const byCode = await post(d, '/api/vouchers/revoke', { code: codes[1]!.toLowerCase().replace(/-/g, ' ') });
    t.is(byCode.status, 200);
    t.is(VouchersRevoked.parse(byCode.body).revoked, 1);
    const states = () => get(d, `/api/vouchers/batches/${batch.id}`).then((r) => BatchDetail.parse(r.body));
    t.deepEqual((await states()).batch.states, { REVOKED: 2, UNUSED: 1 });
    const all = await post(d, `/api/vouchers/batches/${batch.id}/revoke`);
    t.is(VouchersRevoked.parse(all.body).revoked, 3);
    const after = await states();
    t.deepEqual(after.batch.states, { REVOKED: 3 });
    t.truthy(after.batch.revokedAt);
    t.like(await post(d, `/api/vouchers/batches/${batch.id}/vouchers/not-a-voucher/revoke`), { status: 404, body: { code: 'NOT_FOUND' } });
  });
}
