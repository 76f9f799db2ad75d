import test from 'ava';
import { scrub } from '../../../services/kit/index.js';
import { capturingLogger } from '../../helpers/service.js';

const CITIZEN = '079201001234';

test('secrets are redacted at any depth and citizen-number-shaped runs inside any string', (t) => {
  const { logger, lines } = capturingLogger();
  logger.info({ citizenId: CITIZEN, password: 'pw-1', nested: { deeper: { citizenId: CITIZEN, list: [{ password: 'pw-2' }] } } }, 'object fields');
  logger.info({ req: { headers: { authorization: 'Bearer tok', cookie: 'sid=abc', 'x-api-key': 'key-1' } } }, 'headers');
  logger.info({ access_token: 'at', refresh_token: 'rt', client_secret: 'cs' }, 'tokens');
  logger.info(`message mentions ${CITIZEN} in text`);
  logger.warn({ err: new Error(`lookup failed for ${CITIZEN}`) }, 'error object');
  logger.info({ url: `/x?citizenId=${CITIZEN}` }, 'a url');
  const all = lines.join('\n');
  for (const secret of [CITIZEN, 'pw-1', 'pw-2', 'Bearer tok', 'sid=abc', 'key-1', '"at"', '"rt"', '"cs"']) {
    t.false(all.includes(secret), `${secret} must not be logged`);
  }
  t.is(lines.length, 6);
  t.true(all.includes('[REDACTED]'));
});

test('phone numbers and one-time codes are redacted: under their keys in any spelling, and a number in E.164 or national form in any string', (t) => {
  const { logger, lines } = capturingLogger();
  logger.info(
    { phone: '0912 345 678', otp: '482913', nested: { phoneNumber: '+84 912 345 678', phone_number: '+84912345678', oneTimeCode: '551203' } },
    'keys',
  );
  logger.info(`code sent to +84912345678 and 0387654321`);
  logger.warn({ err: new Error('gateway refused 84912345678') }, 'error object');
  const all = lines.join('\n');
  for (const secret of ['0912 345 678', '482913', '+84 912 345 678', '84912345678', '551203', '0387654321'])
    t.false(all.includes(secret), `${secret} must not be logged`);
  t.is(lines.length, 3);
});

test('numbers that are not citizen-number-shaped are kept', (t) => {
  t.deepEqual(scrub({ ms: 12.5, port: 3001, epoch: '1732269999000', short: '12345678' }), {
    ms: 12.5,
    port: 3001,
    epoch: '1732269999000',
    short: '12345678',
  });
});

test('digit runs inside a UUID are kept (ids stay searchable); a citizen number next to one, or as its last group, is not', (t) => {
  const id = 'sess-b85fe56b-bdcf-4d9d-b832-2b1234567890';
  t.is(scrub(`session ${id} ended`), `session ${id} ended`);
  t.deepEqual(scrub({ sessionId: id, correlationId: 'corr-12345678-1234-4234-9234-1234567890ab' }), {
    sessionId: id,
    correlationId: 'corr-12345678-1234-4234-9234-1234567890ab',
  });
  t.is(scrub(`${id} for ${CITIZEN}`), `${id} for [REDACTED]`);
  t.is(scrub(`${CITIZEN}-1234-4234-9234-1234567890ab`), '[REDACTED]-1234-4234-9234-[REDACTED]ab', 'a citizen number in front makes it no UUID');
  t.is(scrub(`abcdef12-1234-4234-9234-${CITIZEN}`), '[REDACTED]', 'a UUID whose last group is twelve digits');
  t.is(scrub(`abcdef12-1234-4234-9234-2b1234567890ff`), 'abcdef12-1234-4234-9234-2b[REDACTED]ff', 'not a UUID: too long a last group');
});

// A canary nested as deep as the scrubber still reads (depth 8), under both a secret key and a
// plain one: only redaction can remove it there, and the plain sibling proves the depth limit did not.
function nest(leaf: Record<string, unknown>, levels: number): Record<string, unknown> {
  let value = leaf;
  for (let i = 0; i < levels; i += 1) value = { next: value };
  return value;
}

test('a canary at the deepest level still read is removed by redaction, not by the depth limit', (t) => {
  const { logger, lines } = capturingLogger();
  logger.info(nest({ citizenId: CITIZEN, password: 'pw-deep', note: `for ${CITIZEN} today`, keep: 'sibling-kept' }, 7), 'deep');
  const line = lines.join('\n');
  t.true(line.includes('sibling-kept'), 'the leaf level was logged, not cut by the depth limit');
  t.false(line.includes('[DEPTH]'));
  t.false(line.includes(CITIZEN));
  t.false(line.includes('pw-deep'));
  t.true(line.includes('"password":"[REDACTED]"'));
  t.true(line.includes('"note":"for [REDACTED] today"'));
});

test('beyond the depth limit a subtree is replaced whole, and scrubbing never throws', (t) => {
  const deep = nest({ keep: 'sibling-kept', citizenId: CITIZEN }, 20);
  t.notThrows(() => JSON.stringify(scrub(deep)));
  const out = JSON.stringify(scrub(deep));
  t.true(out.includes('[DEPTH]'));
  t.false(out.includes('sibling-kept'));
});

test('a voucher code is redacted in its printed form (dashes in any case, spaces in upper case) and as an upper-case run; UUIDs and words stay', (t) => {
  for (const code of ['ABCD-2345-EFGH', 'abcd-2345-efgh', 'ABCD 2345 EFGH', 'ABCD2345EFGH']) {
    t.is(scrub(`voucher ${code} tried`), 'voucher [REDACTED] tried', code);
  }
  t.deepEqual(scrub({ voucherCode: 'abcd2345efgh', code: 'INVALID_CREDENTIALS' }), { voucherCode: '[REDACTED]', code: 'INVALID_CREDENTIALS' });
  for (const kept of ['3b8f6c1e-9d24-4a7b-b5e8-6f4c2d8a9e43', 'signed in successfully', 'that have been', 'RATE_LIMITED', 'UNAUTHORIZED'])
    t.is(scrub(kept), kept);
});

test("a RADIUS request body as FreeRADIUS's rest module posts it loses its User-Password (an 802.1X device password)", (t) => {
  const body = { 'User-Name': { type: 'string', value: ['someone@wifi.example.net'] }, 'User-Password': { type: 'string', value: ['device-password-canary'] } };
  const scrubbed = JSON.stringify(scrub(body));
  t.false(scrubbed.includes('device-password-canary'));
  t.true(scrubbed.includes('User-Name'));
});
