import test from 'ava';
import { formEncode, type HttpReply } from '../../../kc-extension/host/auth-host.js';
import { base64, createHttpSmsSender, type HttpSmsSettings } from '../../../kc-extension/phone-auth/http-sms-sender.js';
import { fakeHost } from '../fake-host.js';

const PHONE = '+84912345678';
const CODE_TEXT = 'Your Wi-Fi code is 482913. It is valid for 5 minutes.';
const CORR = 'corr-00000000-0000-4000-8000-000000000001';

const SETTINGS: HttpSmsSettings = {
  smsUrl: 'http://sms.test/api/send',
  smsUser: 'venue-key',
  smsPassword: 'venue-secret',
  smsBasicAuth: false,
  smsBodyForm: false,
  smsBodyTemplate: JSON.stringify({
    ApiKey: '{{user}}',
    SecretKey: '{{password}}',
    Phone: '{{toNational}}',
    Content: '{{text}}',
    Brandname: 'WIFI',
    SmsType: 2,
    meta: ['{{toDigits}}', '{{to}}', '{{unknown}}'],
  }),
  smsSentMarker: '',
  smsTimeoutMs: 2000,
  smsAttempts: 2,
  smsBreakerFailures: 3,
  smsBreakerWindowSeconds: 60,
  smsBreakerOpenSeconds: 30,
};

const status = (code: number, body = '{}'): HttpReply => ({ kind: 'response', status: code, body });

function sender(replies: HttpReply[], settings: Partial<HttpSmsSettings> = {}) {
  const host = fakeHost({ replies });
  return { host, sms: createHttpSmsSender(host.http, host.counters, host.log, { ...SETTINGS, ...settings }) };
}

test('the body follows the template with the number, the text and the credentials filled in', (t) => {
  const { host, sms } = sender([status(200)]);
  t.deepEqual(sms.send({ to: PHONE, text: CODE_TEXT }, CORR), { kind: 'sent' });
  t.is(host.httpCalls.length, 1);
  const [call] = host.httpCalls;
  t.is(call?.url, SETTINGS.smsUrl);
  t.is(call?.timeoutMs, 2000);
  t.deepEqual(call?.body, {
    ApiKey: 'venue-key',
    SecretKey: 'venue-secret',
    Phone: '0912345678',
    Content: CODE_TEXT,
    Brandname: 'WIFI',
    SmsType: 2,
    meta: ['84912345678', PHONE, '{{unknown}}'],
  });
  t.deepEqual(call?.headers, { 'X-Correlation-ID': CORR }, 'no Authorization without Basic');
});

// Twilio's Messages API: POST form fields To, From, Body with the account's SID and token as HTTP Basic.
const TWILIO_TEMPLATE = JSON.stringify({ To: '{{to}}', From: '+15005550006', Body: '{{text}}' });

test('a form gateway gets the filled template as form fields, with Basic credentials', (t) => {
  const { host, sms } = sender([status(201)], { smsBodyForm: true, smsBodyTemplate: TWILIO_TEMPLATE, smsBasicAuth: true, smsUser: 'AC1', smsPassword: 'tok' });
  t.deepEqual(sms.send({ to: PHONE, text: CODE_TEXT }, CORR), { kind: 'sent' });
  const [call] = host.httpCalls;
  t.true(call?.form, 'sent as a form, not JSON');
  t.deepEqual(call?.body, { To: PHONE, From: '+15005550006', Body: CODE_TEXT });
  t.is(call?.headers['Authorization'], `Basic ${Buffer.from('AC1:tok').toString('base64')}`);
});

test('a form needs flat text fields: a template with a number, a list or an object sends nothing', (t) => {
  for (const smsBodyTemplate of [SETTINGS.smsBodyTemplate, JSON.stringify({ To: '{{to}}', n: { a: 'b' } })]) {
    const { host, sms } = sender([status(200)], { smsBodyForm: true, smsBodyTemplate });
    t.deepEqual(sms.send({ to: PHONE, text: 'x' }, CORR), { kind: 'failed', reason: 'refused' });
    t.is(host.httpCalls.length, 0);
  }
});

test('form encoding is the WHATWG one: UTF-8, space as +, reserved signs escaped', (t) => {
  const fields = { To: '+84912345678', Body: "Mã Wi-Fi: 482913 & more=yes (5 phút)!*'~", 'a b': 'c+d' };
  t.is(formEncode(fields), new URLSearchParams(fields).toString());
  t.is(formEncode({}), '');
});

test('a text that looks like JSON or a placeholder cannot change the body', (t) => {
  const { host, sms } = sender([status(200)]);
  const text = '", "Phone": "0999999999", "x": "{{password}}';
  sms.send({ to: PHONE, text }, CORR);
  const body = host.httpCalls[0]?.body as Record<string, unknown>;
  t.is(body['Phone'], '0912345678');
  t.is(body['Content'], text, 'substituted once, into the value only');
});

test('Basic credentials are sent as an Authorization header (UTF-8, RFC 4648)', (t) => {
  const { host, sms } = sender([status(201)], { smsBasicAuth: true, smsUser: 'AC123', smsPassword: 'tõken' });
  t.deepEqual(sms.send({ to: PHONE, text: 'x' }, CORR), { kind: 'sent' });
  t.is(host.httpCalls[0]?.headers['Authorization'], `Basic ${Buffer.from('AC123:tõken', 'utf8').toString('base64')}`);
  for (const text of ['', 'a', 'ab', 'abc', 'abcd', 'Việt Nam ✓']) t.is(base64(text), Buffer.from(text, 'utf8').toString('base64'), text);
});

test('a timeout, an unreachable gateway and a 5xx are tried again up to the attempts; the second answer counts', (t) => {
  for (const first of [{ kind: 'timeout' } as const, { kind: 'unreachable' } as const, status(502)]) {
    const { host, sms } = sender([first, status(200)]);
    t.deepEqual(sms.send({ to: PHONE, text: 'x' }, CORR), { kind: 'sent' }, first.kind);
    t.is(host.httpCalls.length, 2);
  }
  const { host, sms } = sender([{ kind: 'timeout' }]);
  t.deepEqual(sms.send({ to: PHONE, text: 'x' }, CORR), { kind: 'failed', reason: 'timeout' });
  t.is(host.httpCalls.length, 2, 'no more than smsAttempts');
});

test('a 4xx is refused at once and logged as a setting to check; a 429 is not tried again', (t) => {
  const refused = sender([status(401), status(200)]);
  t.deepEqual(refused.sms.send({ to: PHONE, text: 'x' }, CORR), { kind: 'failed', reason: 'refused' });
  t.is(refused.host.httpCalls.length, 1);
  t.true(refused.host.logs.some((line) => line.startsWith('error SMS gateway refused the request with HTTP 401')));
  const busy = sender([status(429), status(200)]);
  t.deepEqual(busy.sms.send({ to: PHONE, text: 'x' }, CORR), { kind: 'failed', reason: 'unavailable' });
  t.is(busy.host.httpCalls.length, 1);
});

test('with a sent marker, a 200 whose body lacks it is a failure (gateways that answer errors with 200)', (t) => {
  const settings = { smsSentMarker: '"CodeResult":"100"' };
  t.deepEqual(sender([status(200, '{"CodeResult":"100","SMSID":"1"}')], settings).sms.send({ to: PHONE, text: 'x' }, CORR), { kind: 'sent' });
  t.deepEqual(sender([status(200, '{"CodeResult":"99","ErrorMessage":"Phone 0912345678 invalid"}')], settings).sms.send({ to: PHONE, text: 'x' }, CORR), {
    kind: 'failed',
    reason: 'unavailable',
  });
});

test('the breaker opens after repeated failed sends, refuses at once while open, and a success after it closes it', (t) => {
  const host = fakeHost({ replies: [status(503), status(503), status(503), status(503), status(503), status(503), status(503), status(503), status(200)] });
  const sms = createHttpSmsSender(host.http, host.counters, host.log, SETTINGS);
  for (let n = 0; n < 3; n++) t.deepEqual(sms.send({ to: PHONE, text: 'x' }, CORR), { kind: 'failed', reason: 'unavailable' });
  t.is(host.httpCalls.length, 6, 'the third failed send opened it');
  const calls = host.httpCalls.length;
  t.deepEqual(sms.send({ to: PHONE, text: 'x' }, CORR), { kind: 'failed', reason: 'breaker-open' });
  t.is(host.httpCalls.length, calls, 'an open breaker calls nobody');
  t.true(host.logs.some((line) => line.includes('SMS breaker opened for 30 s')));
  host.advance(30_001);
  t.deepEqual(sms.send({ to: PHONE, text: 'x' }, CORR), { kind: 'failed', reason: 'unavailable' }, 'the probe after the open time goes out');
  t.is(host.httpCalls.length, calls + 2);
  t.deepEqual(sms.send({ to: PHONE, text: 'x' }, CORR), { kind: 'failed', reason: 'breaker-open' }, 'a failed probe opens it again at once');
  host.advance(30_001);
  t.deepEqual(sms.send({ to: PHONE, text: 'x' }, CORR), { kind: 'sent' });
  t.false(
    [...host.counterEntries.keys()].some((key) => key.startsWith('wifi-sms-breaker-failures')),
    'a success clears the failures',
  );
});

test('unusable settings send nothing and say so', (t) => {
  for (const smsBodyTemplate of ['not json', '[1]', 'null', '"text"']) {
    const { host, sms } = sender([status(200)], { smsBodyTemplate });
    t.deepEqual(sms.send({ to: PHONE, text: 'x' }, CORR), { kind: 'failed', reason: 'refused' });
    t.is(host.httpCalls.length, 0);
  }
});

test('the number and the text never reach a log line, whatever happens', (t) => {
  const replies: HttpReply[] = [{ kind: 'timeout' }, status(500, `{"error":"cannot send to ${PHONE}: ${CODE_TEXT}"}`), status(400, PHONE), status(200, PHONE)];
  const { host, sms } = sender(replies, { smsAttempts: 2, smsSentMarker: 'OK' });
  for (let n = 0; n < 6; n++) sms.send({ to: PHONE, text: CODE_TEXT }, CORR);
  const log = host.logs.join('\n');
  t.true(host.logs.length > 0);
  for (const secret of [PHONE, '84912345678', '0912345678', '482913', 'venue-secret']) t.false(log.includes(secret), secret);
});
