import { readFileSync } from 'node:fs';
import test from 'ava';
import { refusesNaming } from './refusals.js';
import { CONTROLLER_PROFILES, profileOfArrival, type ArrivalState } from '../../../edge/controllers/index.js';
import { arrivalIntegrityHolds, chapAnswerFor } from '../../../edge/index.js';
import { createHash } from 'node:crypto';

// CoovaChilli's redirects as the real chilli 1.8 and 1.9 sent them in test/e2e/coova/ (the
// capture file says how they were recorded), read by its profile into one ArrivalContext.
interface Capture {
  release: '1.8' | '1.9';
  state: ArrivalState;
  what: string;
  url: string;
}
const CAPTURES = JSON.parse(readFileSync(new URL('./captures/coovachilli.json', import.meta.url), 'utf8')) as {
  uamSecret: string;
  clientMacs: Record<Capture['release'], string>;
  captures: Capture[];
};
const profile = CONTROLLER_PROFILES.coovachilli;
const queryOf = (url: string) => Object.fromEntries(new URL(url).searchParams);
/** The recording's chilli: 10.71.18.1 (1.8) and 10.71.19.1 (1.9). */
const SUBNET = { '1.8': 18, '1.9': 19 } as const;

for (const capture of CAPTURES.captures) {
  test(`CoovaChilli ${capture.release} ${capture.what}: recognised, read as ${capture.state}, its checksum holds`, (t) => {
    const query = queryOf(capture.url);
    t.is(profileOfArrival(query), 'coovachilli');
    const read = profile.arrival.read(query);
    if (!read.ok) return t.fail(read.problems.join(', '));
    t.is(read.arrival.state, capture.state);
    t.is(read.arrival.loginUrl, `http://10.71.${SUBNET[capture.release]}.1:3990/logon`);
    t.is(read.arrival.mac, CAPTURES.clientMacs[capture.release]);
    t.true(arrivalIntegrityHolds(profile.arrival.integrity, capture.url, CAPTURES.uamSecret));
  });
}

const first = CAPTURES.captures[0]!;

test("CoovaChilli as recorded: 1.9 sends userurl empty on a new device's first redirect; read as no return address", (t) => {
  const empty = CAPTURES.captures.filter((c) => c.state === 'login' && /[?&]userurl=(&|$)/.test(c.url));
  t.deepEqual(
    empty.map((c) => `${c.release} ${c.what}`),
    ["1.9 res=notyet: a new device's first page"],
  );
  for (const capture of empty) t.like(profile.arrival.read(queryOf(capture.url)), { ok: true, arrival: { returnUrl: null } });
});

test('CoovaChilli failed as recorded (1.8; 1.9 answers a rejected /logon with nothing): reason=reject and a new challenge to try again', (t) => {
  const failed = CAPTURES.captures.filter((c) => c.state === 'failed');
  t.deepEqual(
    failed.map((c) => c.release),
    ['1.8'],
  );
  t.like(profile.arrival.read(queryOf(failed[0]!.url)), { ok: true, arrival: { state: 'failed', reason: null } });
  t.regex(failed[0]!.url, /challenge=[0-9a-f]{32}/);
});

test('CoovaChilli success as recorded: no challenge, the time left', (t) => {
  const success = CAPTURES.captures.filter((c) => c.state === 'success');
  t.true(success.length > 0);
  for (const capture of success) {
    const read = profile.arrival.read(queryOf(capture.url));
    t.like(read, { ok: true, arrival: { state: 'success', challenge: null } });
    if (read.ok) t.true((read.arrival.timeLeft ?? 0) > 0);
  }
});

test('a CoovaChilli arrival whose URL was changed, or signed with another secret, fails its checksum', (t) => {
  const signed = first.url;
  const secret = CAPTURES.uamSecret;
  t.false(arrivalIntegrityHolds('coova-md', signed.replace('uamport=3990', 'uamport=3991'), secret));
  t.false(arrivalIntegrityHolds('coova-md', signed, 'another-secret'));
  t.false(arrivalIntegrityHolds('coova-md', signed.slice(0, signed.indexOf('&md=')), secret), 'no md at all while the gateway has a secret');
});

refusesNaming('CoovaChilli', profile, queryOf(first.url), [
  ['notyet without a challenge', { challenge: undefined }, 'challenge'],
  ['a challenge that is not 32 hex digits', { challenge: 'abc' }, 'challenge'],
  ['a port out of range', { uamport: '70000' }, 'uamport'],
  ['a UAM address that is not IPv4', { uamip: 'evil.example' }, 'uamip'],
  ['a return URL that is not http(s)', { userurl: 'javascript:alert(1)' }, 'userurl'],
  ['an unknown res', { res: 'pwned' }, 'res'],
  ['a MAC that is not one', { mac: 'AA-BB-CC' }, 'mac'],
]);

test('the CoovaChilli login is a GET of username and the CHAP response (never the password), keyed by the UAM secret or the raw challenge', (t) => {
  const challenge = first.url.match(/challenge=([0-9a-f]{32})/)![1]!;
  const md5 = (...parts: (Buffer | string)[]) => parts.reduce((h, p) => h.update(p), createHash('md5')).digest();
  const withSecret = chapAnswerFor('coova-uam', 'pw', { challenge, uamSecret: 's3cret' });
  t.is(withSecret, md5(Buffer.from([0]), 'pw', md5(Buffer.from(challenge, 'hex'), 's3cret')).toString('hex'));
  t.is(chapAnswerFor('coova-uam', 'pw', { challenge, uamSecret: undefined }), md5(Buffer.from([0]), 'pw', Buffer.from(challenge, 'hex')).toString('hex'));
  t.is(profile.login.method, 'GET');
  t.deepEqual(profile.login.fields({ username: 'u', password: 'pw', chapResponse: withSecret! }, 'http://example.com/', 'http://10.1.0.1:3990/logon'), {
    username: 'u',
    response: withSecret,
    userurl: 'http://example.com/',
  });
  t.throws(() => profile.login.fields({ username: 'u', password: 'pw' }, null, 'http://10.1.0.1:3990/logon'), { message: /chapResponse/ });
});

test('CoovaChilli limits go out as WISPr attributes; its Disconnect names the session by User-Name', (t) => {
  t.deepEqual(profile.replyAttributes({ sessionSeconds: 100, idleSeconds: 0, interimSeconds: 300, upBitsPerSecond: 1, downBitsPerSecond: 2 }), {
    'Session-Timeout': 100,
    'Acct-Interim-Interval': 300,
    'WISPr-Bandwidth-Max-Up': 1,
    'WISPr-Bandwidth-Max-Down': 2,
  });
  t.true(profile.disconnect.includes('User-Name'));
});

test('what a real chilli sends besides: an empty parameter is absent, unnamed ones are ignored, a named one twice is refused', (t) => {
  const query = queryOf(first.url);
  t.like(profile.arrival.read({ ...query, userurl: '', nasid: '', ssid: '', vlan: '' }), {
    ok: true,
    arrival: { state: 'login', returnUrl: null, nasId: null },
  });
  t.like(profile.arrival.read({ ...query, lang: 'en', loginurl: 'http://203.0.113.66/logon', zz: ['1', '2'] }), {
    ok: true,
    arrival: { loginUrl: `http://10.71.${SUBNET[first.release]}.1:3990/logon` },
  });
  t.deepEqual(profile.arrival.read({ ...query, uamip: ['10.1.0.1', '10.6.6.6'] }), { ok: false, problems: ['uamip'] });
});
