import { readFileSync } from 'node:fs';
import test from 'ava';
import { refusesNaming } from './refusals.js';
import { CONTROLLER_PROFILES, profileOfArrival, type ArrivalState } from '../../../contract/controllers/index.js';
import { arrivalIntegrityHolds, chapAnswerFor } from '../../../services/kit/index.js';
import { createHash } from 'node:crypto';

// Issue 27: CoovaChilli's redirect in each state it documents, as its redir.c builds it
// (captures/coovachilli.json names the source), read by its profile into one ArrivalContext.
interface Capture { state: ArrivalState; what: string; url: string; unsigned?: boolean }
const CAPTURES = JSON.parse(readFileSync(new URL('./captures/coovachilli.json', import.meta.url), 'utf8')) as { uamSecret: string; captures: Capture[] };
const profile = CONTROLLER_PROFILES.coovachilli;
const queryOf = (url: string) => Object.fromEntries(new URL(url).searchParams);

for (const capture of CAPTURES.captures) {
  test(`CoovaChilli ${capture.what}: recognised, read as ${capture.state}, its checksum holds`, (t) => {
    const query = queryOf(capture.url);
    t.is(profileOfArrival(query), 'coovachilli');
    const read = profile.arrival.read(query);
    if (!read.ok) return t.fail(read.problems.join(', '));
    t.is(read.arrival.state, capture.state);
    t.is(read.arrival.loginUrl, 'http://10.1.0.1:3990/logon');
    t.is(read.arrival.mac, 'AA-BB-CC-00-11-22');
    t.is(arrivalIntegrityHolds(profile.arrival.integrity, capture.url, capture.unsigned ? undefined : CAPTURES.uamSecret), true);
  });
}

test('CoovaChilli failed: the Reply-Message is the reason, with a new challenge to try again', (t) => {
  const read = profile.arrival.read(queryOf(CAPTURES.captures.find((c) => c.state === 'failed')!.url));
  t.like(read, { ok: true, arrival: { state: 'failed', reason: 'The sign-in code is not valid; sign in again at the portal.', challenge: '0f1e2d3c4b5a69788796a5b4c3d2e1f0', nasId: 'demo-nas' } });
});

test('CoovaChilli success: no challenge, the time left and the return address', (t) => {
  const read = profile.arrival.read(queryOf(CAPTURES.captures.find((c) => c.state === 'success')!.url));
  t.like(read, { ok: true, arrival: { state: 'success', challenge: null, timeLeft: 3540, returnUrl: 'http://example.com/news' } });
});

test('a CoovaChilli arrival whose URL was changed, or signed with another secret, fails its checksum', (t) => {
  const signed = CAPTURES.captures[0]!.url;
  t.false(arrivalIntegrityHolds('coova-md', signed.replace('uamip=10.1.0.1', 'uamip=10.6.6.6'), CAPTURES.uamSecret));
  t.false(arrivalIntegrityHolds('coova-md', signed, 'another-secret'));
  t.false(arrivalIntegrityHolds('coova-md', signed.slice(0, signed.indexOf('&md=')), CAPTURES.uamSecret), 'no md at all while the gateway has a secret');
});

refusesNaming('CoovaChilli', profile, queryOf(CAPTURES.captures[0]!.url), [
  ['notyet without a challenge', { challenge: undefined }, 'challenge'],
  ['a challenge that is not 32 hex digits', { challenge: 'abc' }, 'challenge'],
  ['a port out of range', { uamport: '70000' }, 'uamport'],
  ['a UAM address that is not IPv4', { uamip: 'evil.example' }, 'uamip'],
  ['a return URL that is not http(s)', { userurl: 'javascript:alert(1)' }, 'userurl'],
  ['an unknown res', { res: 'pwned' }, 'res'],
  ['a MAC that is not one', { mac: 'AA-BB-CC' }, 'mac'],
]);

test('the CoovaChilli login is a GET of username and the CHAP response (never the password), keyed by the UAM secret or the raw challenge', (t) => {
  const challenge = CAPTURES.captures[0]!.url.match(/challenge=([0-9a-f]{32})/)![1]!;
  const md5 = (...parts: (Buffer | string)[]) => parts.reduce((h, p) => h.update(p), createHash('md5')).digest();
  const withSecret = chapAnswerFor('coova-uam', 'pw', { challenge, uamSecret: 's3cret' });
  t.is(withSecret, md5(Buffer.from([0]), 'pw', md5(Buffer.from(challenge, 'hex'), 's3cret')).toString('hex'));
  t.is(chapAnswerFor('coova-uam', 'pw', { challenge, uamSecret: undefined }), md5(Buffer.from([0]), 'pw', Buffer.from(challenge, 'hex')).toString('hex'));
  t.is(profile.login.method, 'GET');
  t.deepEqual(profile.login.fields({ username: 'u', password: 'pw', chapResponse: withSecret! }, 'http://example.com/', 'http://10.1.0.1:3990/logon'), { username: 'u', response: withSecret, userurl: 'http://example.com/' });
  t.throws(() => profile.login.fields({ username: 'u', password: 'pw' }, null, 'http://10.1.0.1:3990/logon'), { message: /chapResponse/ });
});

test('CoovaChilli limits go out as WISPr attributes; its Disconnect names the session by User-Name', (t) => {
  t.deepEqual(profile.replyAttributes({ sessionSeconds: 100, idleSeconds: 0, interimSeconds: 300, upBitsPerSecond: 1, downBitsPerSecond: 2 }), {
    'Session-Timeout': 100, 'Acct-Interim-Interval': 300, 'WISPr-Bandwidth-Max-Up': 1, 'WISPr-Bandwidth-Max-Down': 2,
  });
  t.true(profile.disconnect.includes('User-Name'));
});

test('what a real chilli sends besides: an empty parameter is absent, unnamed ones are ignored, a named one twice is refused', (t) => {
  const query = queryOf(CAPTURES.captures[0]!.url);
  t.like(profile.arrival.read({ ...query, userurl: '', nasid: '', ssid: '', vlan: '' }), { ok: true, arrival: { state: 'login', returnUrl: null, nasId: null } });
  t.like(profile.arrival.read({ ...query, lang: 'en', loginurl: 'http://203.0.113.66/logon', zz: ['1', '2'] }), { ok: true, arrival: { loginUrl: 'http://10.1.0.1:3990/logon' } });
  t.deepEqual(profile.arrival.read({ ...query, uamip: ['10.1.0.1', '10.6.6.6'] }), { ok: false, problems: ['uamip'] });
});
