import test from 'ava';
import { DEFAULT_SMS_BODY_TEMPLATE, parseBodyTemplate, renderBody, type HttpSmsSettings } from '../../../kc-extension/phone-auth/http-sms-sender.js';
import { formEncode } from '../../../kc-extension/host/auth-host.js';
import { smsCatcherService } from './catcher-service.js';

const PHONE = '+84912345678';
const CODE = '482913';
const TEXT = `Your Wi-Fi code is ${CODE}. It is valid for 5 minutes.`;

// What the SMS sender posts with its shipped template: the catcher must take exactly that.
function defaultBody(to: string, text: string): unknown {
  const template = parseBodyTemplate(DEFAULT_SMS_BODY_TEMPLATE);
  if (template === undefined) throw new Error('the default template is not a JSON object');
  return renderBody(template, { to, text }, { smsUser: '', smsPassword: '' } as HttpSmsSettings);
}

test("the sender's default body is caught and read back by number, newest first", async (t) => {
  const { service } = await smsCatcherService(t);
  t.is((await service.request('POST', '/api/v1/sms', { json: defaultBody('+84387654321', 'other') })).status, 202);
  const sent = await service.request('POST', '/api/v1/sms', { json: defaultBody(PHONE, TEXT), headers: { authorization: 'Basic dXNlcjpwYXNz' } });
  t.is(sent.status, 202, 'any credentials are accepted');
  t.regex(String(sent.body['id']), /^sms-/);
  await service.request('POST', '/api/v1/sms', { json: defaultBody(PHONE, 'second') });
  const all = (await service.request('GET', '/api/v1/messages')).body['messages'] as Array<Record<string, unknown>>;
  t.deepEqual(
    all.map((sms) => sms['text']),
    ['second', TEXT, 'other'],
  );
  // Tests may ask with the number as a person typed it.
  const mine = (await service.request('GET', `/api/v1/messages?to=${encodeURIComponent('0912 345 678')}`)).body['messages'] as Array<Record<string, unknown>>;
  t.deepEqual(
    mine.map((sms) => sms['text']),
    ['second', TEXT],
  );
  const one = await service.request('GET', `/api/v1/messages/${String(sent.body['id'])}`);
  t.like(one.body, { to: PHONE, text: TEXT });
  t.is((await service.request('GET', '/api/v1/messages?to=not-a-number')).status, 400);
  t.is((await service.request('GET', '/api/v1/messages/sms-00000000-0000-0000-0000-000000000000')).status, 404);
});

test('a form-encoded message (the shape Twilio-style gateways take) is caught as a JSON one is', async (t) => {
  const { service } = await smsCatcherService(t);
  const text = 'Mã Wi-Fi: 482913 (5 phút) & more';
  const sent = await service.request('POST', '/api/v1/sms', {
    raw: formEncode({ to: PHONE, text }),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  t.is(sent.status, 202, JSON.stringify(sent.body));
  t.like((await service.request('GET', `/api/v1/messages/${String(sent.body['id'])}`)).body, { to: PHONE, text });
  const bad = await service.request('POST', '/api/v1/sms', {
    raw: formEncode({ to: 'nope', text }),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  t.is(bad.status, 400);
  t.is(bad.body['code'], 'INVALID_REQUEST');
  const openapi = (await service.request('GET', '/openapi.json')).body as {
    paths: Record<string, { post?: { requestBody?: { content: Record<string, unknown> } } }>;
  };
  t.deepEqual(Object.keys(openapi.paths['/api/v1/sms']?.post?.requestBody?.content ?? {}).sort(), ['application/json', 'application/x-www-form-urlencoded']);
});

test('a message that is not a text to an E.164 number is refused with the error object', async (t) => {
  const { service } = await smsCatcherService(t);
  for (const json of [{ to: '0912345678', text: 'x' }, { to: PHONE, text: '' }, { to: PHONE }, { to: PHONE, text: 'x'.repeat(1601) }]) {
    const answer = await service.request('POST', '/api/v1/sms', { json });
    t.is(answer.status, 400, JSON.stringify(json).slice(0, 60));
    t.is(answer.body['code'], 'INVALID_REQUEST');
  }
  t.deepEqual((await service.request('GET', '/api/v1/messages')).body['messages'], []);
});

test('a fault makes it fail like a gateway that is down or hangs, keeping nothing, until it is cleared', async (t) => {
  const { service } = await smsCatcherService(t);
  t.is((await service.request('POST', '/admin/fault', { json: { mode: 'unavailable' } })).status, 200);
  const down = await service.request('POST', '/api/v1/sms', { json: defaultBody(PHONE, TEXT) });
  t.is(down.status, 503);
  t.is(down.body['code'], 'SERVICE_UNAVAILABLE');
  await service.request('POST', '/admin/fault', { json: { mode: 'timeout', delayMs: 300 } });
  const started = Date.now();
  t.is((await service.request('POST', '/api/v1/sms', { json: defaultBody(PHONE, TEXT) })).status, 503);
  t.true(Date.now() - started >= 290, 'held for its delay first');
  t.deepEqual((await service.request('GET', '/api/v1/messages')).body['messages'], [], 'nothing kept while failing');
  await service.request('POST', '/admin/fault', { json: { mode: 'none' } });
  t.is((await service.request('POST', '/api/v1/sms', { json: defaultBody(PHONE, TEXT) })).status, 202);
});

test('the inbox pages list the texts and show one, escaped', async (t) => {
  const { service } = await smsCatcherService(t);
  await service.request('POST', '/api/v1/sms', { json: defaultBody(PHONE, `${TEXT} <script>alert(1)</script>`) });
  const list = await fetch(`${service.url}/`);
  t.is(list.status, 200);
  t.regex(String(list.headers.get('content-type')), /^text\/html/);
  t.regex(String(list.headers.get('content-security-policy')), /default-src 'none'/);
  const html = await list.text();
  t.true(html.includes(CODE), 'a person reads the code in the list');
  t.false(html.includes('<script>'));
  const id = /href="\/messages\/(sms-[0-9a-f-]+)"/.exec(html)?.[1];
  t.truthy(id);
  const page = await (await fetch(`${service.url}/messages/${String(id)}`)).text();
  t.true(page.includes(PHONE) && page.includes(CODE));
  t.false(page.includes('<script>'));
  t.is((await fetch(`${service.url}/messages/sms-00000000-0000-0000-0000-000000000000`)).status, 404);
});

test('only the newest SMS_KEEP messages are kept', async (t) => {
  const { service } = await smsCatcherService(t, { SMS_KEEP: '2' });
  for (const n of [1, 2, 3]) await service.request('POST', '/api/v1/sms', { json: defaultBody(PHONE, `n${n}`) });
  const messages = (await service.request('GET', '/api/v1/messages')).body['messages'] as Array<Record<string, unknown>>;
  t.deepEqual(
    messages.map((sms) => sms['text']),
    ['n3', 'n2'],
  );
});

test('the catcher never logs a phone number or a code', async (t) => {
  const { service, lines } = await smsCatcherService(t);
  await service.request('POST', '/api/v1/sms', { json: defaultBody(PHONE, TEXT) });
  await service.request('POST', '/api/v1/sms', { json: { to: PHONE, text: '' } });
  await service.request('GET', `/api/v1/messages?to=${encodeURIComponent(PHONE)}`);
  const log = lines.join('\n');
  t.true(log.includes('text message caught'), 'the catch itself is logged');
  for (const secret of [PHONE, '84912345678', CODE, 'valid for 5 minutes']) t.false(log.includes(secret), `the log holds ${secret}`);
});
