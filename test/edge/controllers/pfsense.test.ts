import { readFileSync } from 'node:fs';
import test from 'ava';
import { refusesNaming } from './refusals.js';
import { CONTROLLER_PROFILES, profileOfArrival, type ArrivalState } from '../../../edge/controllers/index.js';
import { normalizeMac } from '../../../contract/mac.js';

// pfSense's captive portal forwarding to this portal from a custom portal page (captures/pfsense.json
// names the pfSense source files its values follow).
interface Capture {
  state: ArrivalState;
  what: string;
  url: string;
}
interface Values {
  loginUrl: string;
  returnUrl: string;
  mac: string;
  ip: string;
  message: string;
}
const CAPTURES = JSON.parse(readFileSync(new URL('./captures/pfsense.json', import.meta.url), 'utf8')) as { values: Values; captures: Capture[] };
const VALUES = CAPTURES.values;
const profile = CONTROLLER_PROFILES.pfsense;
const queryOf = (url: string) => Object.fromEntries(new URL(url).searchParams);

for (const capture of CAPTURES.captures) {
  test(`pfSense ${capture.what}: recognised, read as ${capture.state}`, (t) => {
    const query = queryOf(capture.url);
    t.is(profileOfArrival(query), 'pfsense');
    const read = profile.arrival.read(query);
    if (!read.ok) return t.fail(read.problems.join(', '));
    t.like(read.arrival, {
      state: capture.state,
      nasId: null,
      loginUrl: VALUES.loginUrl,
      challenge: null,
      reason: capture.state === 'failed' ? VALUES.message : null,
    });
    t.is(read.arrival.returnUrl, query['redirurl'] === '' ? null : VALUES.returnUrl, 'pfSense empties $PORTAL_REDIRURL$ when it is no URL: no return address');
    t.is(normalizeMac(read.arrival.mac ?? ''), normalizeMac(VALUES.mac), 'the error page has $CLIENT_MAC$ too');
  });
}

test('pfSense as its source writes it: $CLIENT_MAC$ lower case with colons (ether_ntoa_r); the single-dash spelling (its RADIUS MAC format option) is one MAC too', (t) => {
  t.regex(VALUES.mac, /^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/);
  t.is(normalizeMac('aabbcc-001122'), 'aabbcc001122');
  t.is(normalizeMac('AABBCC-001122'), 'aabbcc001122');
  t.is(normalizeMac('aabbcc-00112'), undefined);
});

refusesNaming('pfSense', profile, queryOf(CAPTURES.captures[0]!.url), [
  ['a zone that is no pfSense zone name', { zone: '../etc' }, 'zone'],
  ['a portal URL that is not http(s)', { portal_action: 'javascript:alert(1)' }, 'portal_action'],
  ['a first visit without a MAC', { mac: undefined }, 'mac'],
]);

test('the pfSense login posts auth_user, auth_pass, the registered zone, redirurl and accept; it re-authenticates', (t) => {
  t.is(profile.login.method, 'POST');
  t.deepEqual(profile.login.fields({ username: 'u', password: 'p' }, 'http://example.com/', 'https://fw.example.net:8003/index.php?zone=guest'), {
    auth_user: 'u',
    auth_pass: 'p',
    zone: 'guest',
    redirurl: 'http://example.com/',
    accept: 'Login',
  });
  t.true(profile.reauthenticates);
  t.true(profile.disconnect.includes('Calling-Station-Id'));
});
