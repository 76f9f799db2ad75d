import test from 'ava';
import type { AuthOutcome, HttpReply } from '../../../kc-extension/host/auth-host.js';
import { authenticatePhone, newCode } from '../../../kc-extension/phone-auth/authenticate.js';
import { fakeHost, type FakeHost } from '../fake-host.js';

const CONFIG = { codeHashKey: 'test-code-hash-key', smsUrl: 'http://sms.test/api/v1/sms' };
const TYPED = '0912 345 678';
const PHONE = '+84912345678';
const ok: HttpReply = { kind: 'response', status: 202, body: '{}' };

/** One host shared by the steps of a test (the store and the clock persist); each call sets the form. */
function world(
  options: {
    replies?: HttpReply[];
    config?: Record<string, string>;
    users?: Parameters<typeof fakeHost>[0] extends infer O ? (O extends { users?: infer U } ? U : never) : never;
  } = {},
) {
  const form: Record<string, string> = {};
  let uuid = 0;
  const host: FakeHost = fakeHost({ replies: options.replies ?? [ok], config: options.config ?? CONFIG, users: options.users ?? [] });
  host.request.formParam = (name) => form[name];
  // Every UUID differs, so every code differs.
  host.newUuid = () => `00000000-0000-4000-8000-${(0x123456789 + 7919 * ++uuid).toString(16).padStart(12, '0')}`;
  const run = (fields: Record<string, string>, address?: string): AuthOutcome => {
    for (const name of Object.keys(form)) delete form[name];
    Object.assign(form, fields);
    if (address !== undefined) host.request.clientAddress = () => address;
    return authenticatePhone(host);
  };
  /** The code of the last text message sent, read from its text as a person would. */
  const lastCode = () => {
    const body = host.httpCalls.at(-1)?.body as { text?: string } | undefined;
    return /\b(\d{6})\b/.exec(body?.text ?? '')?.[1] ?? '';
  };
  return { host, run, lastCode };
}

const errorOf = (outcome: AuthOutcome) => (outcome.type === 'failure' ? outcome.body : undefined);

test('a number alone sends a six-digit code by SMS to its E.164 form and answers code_sent with the lifetime and the resend gap', (t) => {
  const { host, run, lastCode } = world();
  const outcome = run({ phone: TYPED });
  t.like(outcome, { type: 'failure', status: 401, body: { error: 'code_sent', expires_in: 300, resend_after: 60 } });
  t.is(host.httpCalls.length, 1);
  const call = host.httpCalls[0];
  t.is(call?.url, CONFIG.smsUrl);
  const body = (call?.body ?? {}) as { to?: string; text?: string };
  t.deepEqual(Object.keys(body), ['to', 'text']);
  t.is(body.to, PHONE);
  t.regex(lastCode(), /^\d{6}$/);
  t.regex(String(body.text), /Ma Wi-Fi: \d{6} \(5 phut\)\. Your Wi-Fi code: \d{6} \(5 min\)\./);
});

test('the right code signs in: the first creates a CUSTOMER account with the verified number, a later one signs into it', (t) => {
  const { host, run, lastCode } = world();
  run({ phone: TYPED });
  const first = run({ phone: PHONE, code: lastCode() });
  t.like(first, { type: 'success' });
  const [user] = [...host.users.all.values()];
  t.regex(String(user?.username), /^phone-[0-9a-f-]{36}$/, 'the number is not the username');
  t.deepEqual(user?.attributes, { user_type: 'CUSTOMER', phone_number: PHONE, phone_number_verified: 'true' });
  host.advance(61_000);
  run({ phone: '+84 912 345 678' });
  const again = run({ phone: '0912345678', code: lastCode() });
  t.deepEqual(again, first, 'the same account');
  t.is(host.users.all.size, 1);
});

test('wrong, used, expired and exhausted codes and an unknown or malformed number all get one identical refusal', (t) => {
  const refusals: unknown[] = [];
  {
    const { run, lastCode } = world();
    run({ phone: TYPED });
    const code = lastCode();
    const wrong = code === '000000' ? '000001' : '000000';
    refusals.push(errorOf(run({ phone: TYPED, code: wrong })));
    t.like(run({ phone: TYPED, code }), { type: 'success' }, 'a wrong try leaves the right code usable');
    refusals.push(errorOf(run({ phone: TYPED, code })), 'replayed');
  }
  {
    const { host, run, lastCode } = world();
    run({ phone: TYPED });
    host.advance(300_001);
    refusals.push(errorOf(run({ phone: TYPED, code: lastCode() })));
  }
  {
    const { run, lastCode } = world();
    run({ phone: TYPED });
    const code = lastCode();
    for (let n = 0; n < 5; n++) refusals.push(errorOf(run({ phone: TYPED, code: String((Number(code) + 1 + n) % 1_000_000).padStart(6, '0') })));
    refusals.push(errorOf(run({ phone: TYPED, code })), 'the right code after five wrong ones: spent');
  }
  {
    const { run } = world();
    refusals.push(errorOf(run({ phone: '+84387654321', code: '123456' })), 'no code was ever sent');
    refusals.push(errorOf(run({ phone: '12', code: '123456' })));
    refusals.push(errorOf(run({ phone: TYPED, code: '12 456' })));
    refusals.push(errorOf(run({ phone: TYPED, code: 'abcdef' })));
    refusals.push(errorOf(run({ code: '123456' })));
  }
  const bodies = refusals.filter((value) => typeof value !== 'string');
  t.true(bodies.length >= 12);
  for (const body of bodies) t.deepEqual(body, { error: 'invalid_grant', error_description: 'Invalid phone number or code' });
});

test('two sign-ins with one code: only the one that takes it goes on', (t) => {
  const { host, run, lastCode } = world();
  run({ phone: TYPED });
  const code = lastCode();
  // The second sign-in read the code before the first took it: its take finds nothing.
  const take = host.values.take;
  let raced = false;
  host.values.take = (key) => {
    if (!raced) {
      raced = true;
      take(key);
    }
    return take(key);
  };
  t.like(run({ phone: TYPED, code }), { type: 'failure', status: 401 });
  t.is(host.users.all.size, 0);
});

test('known and unknown numbers get the same answer to a code request', (t) => {
  const { run, lastCode } = world();
  run({ phone: TYPED });
  run({ phone: TYPED, code: lastCode() });
  const known = world({ users: [{ username: 'phone-x', attributes: { phone_number: PHONE, phone_number_verified: 'true', user_type: 'CUSTOMER' } }] });
  const unknown = world();
  t.deepEqual(known.run({ phone: TYPED }), unknown.run({ phone: TYPED }));
});

test('a malformed number asking for a code is 400 before any message', (t) => {
  const { host, run } = world();
  for (const phone of ['', '12345', '0212345678', '09l2345678']) t.like(run({ phone }), { status: 400, body: { error: 'invalid_request' } });
  t.like(run({}), { status: 400 });
  t.is(host.httpCalls.length, 0);
});

test('code requests are limited per number (resend gap, then a count) and per client address: 429', (t) => {
  const { host, run } = world();
  t.like(run({ phone: TYPED }), { body: { error: 'code_sent' } });
  t.like(run({ phone: '+84912345678' }), { status: 429, body: { error: 'rate_limited' } }, 'inside the resend gap, in any spelling');
  for (let n = 0; n < 4; n++) {
    host.advance(60_001);
    t.like(run({ phone: TYPED }), { body: { error: 'code_sent' } });
  }
  host.advance(60_001);
  t.like(run({ phone: TYPED }), { status: 429 }, 'the sixth code within the hour');
  t.is(host.httpCalls.length, 5);

  const many = world();
  for (let n = 0; n < 10; n++) t.like(many.run({ phone: `+8491234${String(n).padStart(4, '0')}` }, '198.51.100.9'), { body: { error: 'code_sent' } });
  t.like(many.run({ phone: '+84387654321' }, '198.51.100.9'), { status: 429 }, 'the eleventh from one address');
  t.like(many.run({ phone: '+84387654321' }, '198.51.100.10'), { body: { error: 'code_sent' } }, 'another address is not held back');
});

test('code submissions are limited per client address', (t) => {
  const { run } = world();
  for (let n = 0; n < 30; n++) t.like(run({ phone: `+8491234${String(n).padStart(4, '0')}`, code: '123456' }), { status: 401 });
  t.like(run({ phone: TYPED, code: '123456' }), { status: 429, body: { error: 'rate_limited' } });
});

test('a failed send is 503 and leaves nothing: no code, and the person may ask again at once', (t) => {
  const { host, run, lastCode } = world({ replies: [{ kind: 'timeout' }, { kind: 'timeout' }, ok] });
  t.like(run({ phone: TYPED }), { status: 503, body: { error: 'sms_unavailable' } });
  t.is(host.valueEntries.size, 0, 'no code stored');
  t.like(run({ phone: TYPED }), { body: { error: 'code_sent' } }, 'no resend gap was taken');
  t.like(run({ phone: TYPED, code: lastCode() }), { type: 'success' });
});

test('a disabled account is refused after the code; more than one carrier of the number is a conflict', (t) => {
  const disabled = world({ users: [{ username: 'phone-a', enabled: false, attributes: { phone_number: PHONE, phone_number_verified: 'true' } }] });
  disabled.run({ phone: TYPED });
  t.like(disabled.run({ phone: TYPED, code: disabled.lastCode() }), { status: 403, body: { error: 'account_disabled' } });
  const carrier = { attributes: { phone_number: PHONE, phone_number_verified: 'true' } };
  const two = world({
    users: [
      { username: 'phone-a', ...carrier },
      { username: 'phone-b', ...carrier },
    ],
  });
  two.run({ phone: TYPED });
  t.like(two.run({ phone: TYPED, code: two.lastCode() }), { status: 403, body: { error: 'identity_link_conflict' } });
});

test('unusable settings refuse with 503 naming the setting in the log, never sending', (t) => {
  const { host, run } = world({ config: { smsUrl: 'not a url' } });
  t.like(run({ phone: TYPED }), { status: 503, body: { error: 'authenticator_misconfigured' } });
  t.is(host.httpCalls.length, 0);
  t.true(host.logs.some((line) => line.includes('codeHashKey') && line.includes('smsUrl')));
  t.like(world({ config: { ...CONFIG, smsText: 'no code here' } }).run({ phone: TYPED }), { status: 503 });
  // A form carries flat text fields only: a template with a number in it is named, nothing sent.
  const form = world({ config: { ...CONFIG, smsBodyForm: 'true', smsBodyTemplate: '{"To":"{{to}}","Body":"{{text}}","n":1}' } });
  t.like(form.run({ phone: TYPED }), { status: 503 });
  t.is(form.host.httpCalls.length, 0);
  t.true(form.host.logs.some((line) => line.includes('smsBodyTemplate')));
});

test('the number and the code reach the SMS only: not logs, events, store keys or values, accounts’ names', (t) => {
  const { host, run, lastCode } = world({ replies: [{ kind: 'response', status: 500, body: PHONE }, ok] });
  run({ phone: TYPED });
  const code = lastCode();
  run({ phone: TYPED, code: '000000' });
  run({ phone: TYPED, code });
  const seen = [
    ...host.logs,
    ...Object.values(host.events),
    ...host.counterEntries.keys(),
    ...host.valueEntries.keys(),
    ...[...host.valueEntries.values()].map((entry) => entry.value),
    ...[...host.users.all.values()].map((user) => user.username),
  ].join('\n');
  t.true(host.logs.length > 0);
  for (const secret of [PHONE, '84912345678', '0912345678', '912345678', code]) t.false(seen.includes(secret), secret);
});

test('codes are six digits from the random part of a UUID', (t) => {
  t.is(newCode('00000000-0000-4000-8000-000000000001'), '000001');
  t.is(newCode('00000000-0000-4000-8000-ffffffffffff'), String(0xffffffffffff % 1_000_000).padStart(6, '0'));
});
