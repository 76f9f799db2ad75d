import { readFileSync } from 'node:fs';
import test from 'ava';
import { refusesNaming } from './refusals.js';
import { CONTROLLER_PROFILES, profileOfArrival, type ArrivalState } from '../../../edge/controllers/index.js';

// Cisco WLC external web authentication (captures/cisco-wlc.json names Cisco's documents its
// parameters and states follow), read by its profile into one ArrivalContext.
interface Capture {
  state: ArrivalState;
  what: string;
  url: string;
}
interface Values {
  loginUrl: string;
  apMac: string;
  clientMac: string;
  wlan: string;
  returnUrl: string;
}
const CAPTURES = JSON.parse(readFileSync(new URL('./captures/cisco-wlc.json', import.meta.url), 'utf8')) as { values: Values; captures: Capture[] };
const VALUES = CAPTURES.values;
const profile = CONTROLLER_PROFILES['cisco-wlc'];
const queryOf = (url: string) => Object.fromEntries(new URL(url).searchParams);
const REASONS: Partial<Record<string, string>> = { '5': 'wrong-user-name-or-password', '1': 'already-logged-in' };

for (const capture of CAPTURES.captures) {
  test(`Cisco WLC ${capture.what}: recognised, read as ${capture.state}`, (t) => {
    const query = queryOf(capture.url);
    t.is(profileOfArrival(query), 'cisco-wlc');
    const read = profile.arrival.read(query);
    if (!read.ok) return t.fail(read.problems.join(', '));
    const statusCode = query['statusCode'];
    t.like(read.arrival, { state: capture.state, nasId: null, loginUrl: VALUES.loginUrl, challenge: null, chapId: null });
    if (statusCode === undefined) t.like(read.arrival, { mac: VALUES.clientMac, returnUrl: VALUES.returnUrl, reason: null });
    else t.like(read.arrival, { mac: null, returnUrl: null, reason: REASONS[statusCode] });
  });
}

test("Cisco WLC as it writes the redirect: values unescaped, the SSID's space as %20, redirect without a scheme read as http", (t) => {
  const [first] = CAPTURES.captures;
  if (first === undefined) return t.fail();
  t.true(first.url.includes(`switch_url=${VALUES.loginUrl}&`), 'switch_url as it is');
  t.deepEqual(Object.keys(queryOf(first.url)), ['switch_url', 'ap_mac', 'client_mac', 'wlan', 'redirect']);
  t.is(queryOf(first.url)['wlan'], VALUES.wlan);
  t.is(queryOf(first.url)['redirect'], VALUES.returnUrl.replace(/^http:\/\//, ''));
});

refusesNaming('Cisco WLC', profile, queryOf(CAPTURES.captures[0]!.url), [
  ['a login URL that is not http(s)', { switch_url: 'file:///etc/passwd' }, 'switch_url'],
  ['a first redirect without the client MAC', { client_mac: undefined }, 'client_mac'],
  ['a WLAN with control characters', { wlan: 'Guest\u0007' }, 'wlan'],
  ['a statusCode Cisco does not send', { statusCode: '9' }, 'statusCode'],
]);

test('the Cisco login is a POST to switch_url of buttonClicked=4, err_flag=0, username, password and redirect_url (no CHAP form exists)', (t) => {
  t.is(profile.login.method, 'POST');
  t.is(profile.login.chap, 'none');
  t.deepEqual(profile.login.fields({ username: 'u', password: 'p' }, VALUES.returnUrl, VALUES.loginUrl), {
    buttonClicked: '4',
    err_flag: '0',
    username: 'u',
    password: 'p',
    redirect_url: VALUES.returnUrl,
  });
  t.deepEqual(profile.login.fields({ username: 'u', password: 'p' }, null, VALUES.loginUrl), {
    buttonClicked: '4',
    err_flag: '0',
    username: 'u',
    password: 'p',
  });
  t.true(profile.disconnect.includes('Calling-Station-Id'), 'AireOS finds the session by Calling-Station-Id');
});
