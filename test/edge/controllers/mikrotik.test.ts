import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import test from 'ava';
import { refusesNaming } from './refusals.js';
import { CONTROLLER_PROFILES, profileOfArrival, type ArrivalState } from '../../../edge/controllers/index.js';
import { octalEscapesToHex } from '../../../edge/controllers/mikrotik.js';
import { chapAnswerFor } from '../../../edge/index.js';

// MikroTik Hotspot's external-page redirect (captures/mikrotik.json names the manual its values
// come from: the servlet variables' own examples).
interface Capture {
  state: ArrivalState;
  what: string;
  url: string;
}
interface Values {
  mac: string;
  ip: string;
  loginUrl: string;
  returnUrl: string;
  chapIdHex: string;
  challengeHex: string;
  error: string;
}
const CAPTURES = JSON.parse(readFileSync(new URL('./captures/mikrotik.json', import.meta.url), 'utf8')) as { values: Values; captures: Capture[] };
const VALUES = CAPTURES.values;
const profile = CONTROLLER_PROFILES.mikrotik;
const queryOf = (url: string) => Object.fromEntries(new URL(url).searchParams);

for (const capture of CAPTURES.captures) {
  test(`MikroTik ${capture.what}: recognised, read as ${capture.state}, octal CHAP values as hex`, (t) => {
    const query = queryOf(capture.url);
    t.is(profileOfArrival(query), 'mikrotik');
    const read = profile.arrival.read(query);
    if (!read.ok) return t.fail(read.problems.join(', '));
    t.like(read.arrival, {
      state: capture.state,
      nasId: null,
      mac: VALUES.mac,
      loginUrl: VALUES.loginUrl,
      chapId: VALUES.chapIdHex,
      challenge: VALUES.challengeHex,
      returnUrl: VALUES.returnUrl,
    });
    t.is(read.arrival.reason, capture.state === 'failed' ? VALUES.error : null);
  });
}

test('octal escapes: every octet, printable characters as themselves, anything else refused', (t) => {
  t.is(octalEscapesToHex('\\000\\377\\101'), '00ff41');
  t.is(octalEscapesToHex('A\\101'), '4141');
  t.is(octalEscapesToHex('\\400'), undefined, 'over one octet');
  t.is(octalEscapesToHex('\\12'), undefined, 'two digits');
  t.is(octalEscapesToHex('\u0001'), undefined);
});

refusesNaming('MikroTik', profile, queryOf(CAPTURES.captures[0]!.url), [
  ['a chap-challenge of 15 octets', { 'chap-challenge': '\\001'.repeat(15) }, 'chap-challenge'],
  ['a chap-id of two octets', { 'chap-id': '\\001\\002' }, 'chap-id'],
  ['no MAC', { mac: undefined }, 'mac'],
  ['a login address that is not http(s)', { 'link-login-only': 'javascript:alert(1)' }, 'link-login-only'],
  ['a return address that is not http(s)', { 'link-orig': 'data:text/html,x' }, 'link-orig'],
]);

test('the MikroTik login is a POST to /login of username and MD5(chap-id + password + chap-challenge), never the password', (t) => {
  const answer = chapAnswerFor('mikrotik', 'pw', { challenge: VALUES.challengeHex, chapId: VALUES.chapIdHex, uamSecret: undefined });
  const expected = createHash('md5').update(Buffer.from(VALUES.chapIdHex, 'hex')).update('pw').update(Buffer.from(VALUES.challengeHex, 'hex')).digest('hex');
  t.is(answer, expected);
  t.is(chapAnswerFor('mikrotik', 'pw', { challenge: VALUES.challengeHex, chapId: null, uamSecret: undefined }), undefined, 'no chap-id, no answer');
  t.is(profile.login.method, 'POST');
  t.deepEqual(profile.login.fields({ username: 'u', password: 'pw', chapResponse: expected }, 'http://example.com/', 'http://10.5.50.1/login'), {
    username: 'u',
    password: expected,
    dst: 'http://example.com/',
    popup: 'false',
  });
  t.throws(() => profile.login.fields({ username: 'u', password: 'pw' }, null, 'http://10.5.50.1/login'), { message: /chapResponse/ });
});

test('MikroTik limits go out as Mikrotik-Rate-Limit, upload first; its Disconnect names User-Name and Framed-IP-Address', (t) => {
  t.deepEqual(profile.replyAttributes({ sessionSeconds: 100, idleSeconds: 600, interimSeconds: 300, upBitsPerSecond: 1000, downBitsPerSecond: 2000 }), {
    'Session-Timeout': 100,
    'Acct-Interim-Interval': 300,
    'Idle-Timeout': 600,
    'Mikrotik-Rate-Limit': '1000/2000',
  });
  t.true(profile.disconnect.includes('User-Name') && profile.disconnect.includes('Framed-IP-Address'));
});
