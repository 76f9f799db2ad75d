import { createHmac } from 'node:crypto';
import test from 'ava';
import { formatVoucherCode, normalizeVoucherCode, VOUCHER_ALPHABET, voucherCodeFromHex } from '../../../contract/voucher.js';
import type { AuthOutcome } from '../../../kc-extension/host/auth-host.js';
import { authenticateVoucher } from '../../../kc-extension/voucher-auth/authenticate.js';
import { fakeHost, VOUCHER_HASH_KEY, type FakeHost } from '../fake-host.js';

const CODE = 'ABCD2345EFGH';
const HOUR = 3_600_000;
const username = (code: string) => `voucher-${createHmac('sha256', VOUCHER_HASH_KEY).update(`voucher:${code}`, 'utf8').digest('hex')}`;

/** A voucher valid around the fake clock (1,000,000 ms): an hour before to a day after. */
function voucherAttributes(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    user_type: 'VOUCHER',
    voucher_batch: 'vb-1',
    voucher_valid_from: new Date(1_000_000 - HOUR).toISOString(),
    voucher_valid_until: new Date(1_000_000 + 24 * HOUR).toISOString(),
    voucher_duration_seconds: '7200',
    voucher_device_slots: '2',
    voucher_shared: 'false',
    voucher_revoked: 'false',
    ...overrides,
  };
}

function world(attributes = voucherAttributes(), options: { enabled?: boolean; config?: Record<string, string> } = {}) {
  const form: Record<string, string> = {};
  const host: FakeHost = fakeHost({ config: options.config ?? {}, users: [{ username: username(CODE), enabled: options.enabled ?? true, attributes }] });
  host.request.formParam = (name) => form[name];
  const run = (code: string | undefined, address?: string): AuthOutcome => {
    for (const name of Object.keys(form)) delete form[name];
    if (code !== undefined) form['code'] = code;
    if (address !== undefined) host.request.clientAddress = () => address;
    return authenticateVoucher(host);
  };
  const voucher = () => [...host.users.all.values()][0]!;
  return { host, run, voucher };
}

const INVALID = { error: 'invalid_grant', error_description: 'Invalid voucher code' };
const bodyOf = (outcome: AuthOutcome) => (outcome.type === 'failure' ? { status: outcome.status, ...outcome.body } : outcome);

test('the right code signs in as the voucher, starts its duration and takes a slot', (t) => {
  const { run, voucher } = world();
  t.deepEqual(run(CODE), { type: 'success', userId: voucher().id });
  t.is(voucher().attributes['voucher_uses'], '1');
  t.is(voucher().attributes['voucher_first_use'], new Date(1_000_000).toISOString());
});

test('a code typed in lower case, with spaces or dashes, is the same code', (t) => {
  for (const typed of ['abcd2345efgh', 'ABCD 2345 EFGH', 'abcd-2345-efgh', ' AbCd-2345 eFgH ']) {
    const { run } = world();
    t.is(run(typed).type, 'success', typed);
  }
});

test('wrong, malformed, missing, not yet valid, expired, revoked, used-up and disabled are one identical 401', (t) => {
  const cases: [string, ReturnType<typeof world>, string | undefined][] = [
    ['a wrong code', world(), 'ABCD2345EFGJ'],
    ['an ambiguous sign', world(), 'ABCD2345EFG0'],
    ['too short', world(), 'ABCD2345'],
    ['no code', world(), undefined],
    ['not yet valid', world(voucherAttributes({ voucher_valid_from: new Date(1_000_000 + HOUR).toISOString() })), CODE],
    ['past valid-until', world(voucherAttributes({ voucher_valid_until: new Date(1_000_000).toISOString() })), CODE],
    ['revoked', world(voucherAttributes({ voucher_revoked: 'true' })), CODE],
    ['single use, used once', world(voucherAttributes({ voucher_uses: '1', voucher_first_use: new Date(1_000_000).toISOString() })), CODE],
    [
      'duration over since the first use',
      world(voucherAttributes({ voucher_shared: 'true', voucher_uses: '1', voucher_first_use: new Date(1_000_000 - 7200_000).toISOString() })),
      CODE,
    ],
    ['a user that is no voucher', world({ ...voucherAttributes(), user_type: 'CUSTOMER' }), CODE],
    ['unreadable attributes', world(voucherAttributes({ voucher_valid_until: 'soon' })), CODE],
    ['a disabled voucher user', world(voucherAttributes(), { enabled: false }), CODE],
  ];
  for (const [what, w, code] of cases) {
    t.deepEqual(bodyOf(w.run(code)), { status: 401, ...INVALID }, what);
    t.is(w.voucher().attributes['voucher_uses'], what.startsWith('single use') ? '1' : what.startsWith('duration') ? '1' : undefined, `${what}: no slot taken`);
  }
});

test('a shared voucher signs in once per device slot, then is used up; the duration runs from the first sign-in', (t) => {
  const { host, run, voucher } = world(voucherAttributes({ voucher_shared: 'true', voucher_device_slots: '2' }));
  t.is(run(CODE).type, 'success');
  host.advance(60_000);
  t.is(run(CODE).type, 'success');
  t.is(voucher().attributes['voucher_uses'], '2');
  t.is(voucher().attributes['voucher_first_use'], new Date(1_000_000).toISOString(), 'the first use stays');
  t.deepEqual(bodyOf(run(CODE)), { status: 401, ...INVALID });
});

test('of two sign-ins racing for the last slot only the one that claims it goes on', (t) => {
  const { host, run } = world();
  // The other sign-in claimed slot 1 and has not written its use yet.
  host.counters.claim(`wifi-voucher-use:${[...host.users.all.values()][0]!.id}:1`, 300);
  t.deepEqual(bodyOf(run(CODE)), { status: 401, ...INVALID });
});

test('tries are limited per client address: 429 rate_limited, another address goes on', (t) => {
  const { run } = world(voucherAttributes(), { config: { attemptLimit: '3', attemptWindowSeconds: '60' } });
  for (let attempt = 0; attempt < 3; attempt++) t.like(bodyOf(run('ZZZZ2345EFGH', '203.0.113.9')), { status: 401 });
  t.deepEqual(bodyOf(run(CODE, '203.0.113.9')), { status: 429, error: 'rate_limited', error_description: 'RATE_LIMITED' });
  t.is(run(CODE, '203.0.113.10').type, 'success');
});

test('unusable settings fail closed, naming the setting and never a code', (t) => {
  const { host, run } = world(voucherAttributes(), { config: { attemptLimit: 'many' } });
  t.like(bodyOf(run(CODE)), { status: 503, error: 'authenticator_misconfigured' });
  t.true(host.logs.some((line) => line.includes('attemptLimit')));
});

test('no log line, event or attribute write holds the code, and the username is its keyed hash', (t) => {
  const { host, run, voucher } = world();
  run(CODE);
  run('abcd-2345-efgj');
  const written = JSON.stringify([host.logs, host.events, host.attributeWrites, voucher()]);
  for (const code of [CODE, 'ABCD2345EFGJ', 'abcd-2345-efgj', formatVoucherCode(CODE)]) t.false(written.includes(code), code);
  t.regex(voucher().username, /^voucher-[0-9a-f]{64}$/);
});

test('codes: 12 signs of a 32-sign alphabet without 0/O and 1/I, 60 bits, read back through normalisation', (t) => {
  t.is(VOUCHER_ALPHABET.length, 32);
  for (const ambiguous of ['0', 'O', '1', 'I']) t.false(VOUCHER_ALPHABET.includes(ambiguous), ambiguous);
  const seen = new Set<string>();
  for (let n = 0; n < 200; n++) {
    const code = voucherCodeFromHex(createHmac('sha256', 'k').update(String(n)).digest('hex').slice(0, 16));
    t.is(normalizeVoucherCode(formatVoucherCode(code).toLowerCase()), code);
    seen.add(code);
  }
  t.is(seen.size, 200);
  t.is(voucherCodeFromHex('0000000000000000'), 'AAAAAAAAAAAA');
  t.is(voucherCodeFromHex('0fffffffffffffff'), '999999999999', 'every 5 bits reach the last sign');
  // The lowest 5 bits make the first sign, the next 5 the second: 0x...ef is 0b01111 (15) first, R.
  t.is(voucherCodeFromHex('0123456789abcdef'), 'RRVZ4E8NF4JC');
  t.is(normalizeVoucherCode('ABCD2345EFGO'), undefined);
  t.is(normalizeVoucherCode(`${CODE}A`), undefined);
});
