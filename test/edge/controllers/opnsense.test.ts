import { readFileSync } from 'node:fs';
import test from 'ava';
import { refusesNaming } from './refusals.js';
import { CONTROLLER_PROFILES, profileOfArrival, type ArrivalState } from '../../../edge/controllers/index.js';
import { normalizeMac } from '../../../contract/mac.js';
import { handsOverPassword } from '../../../edge/registry.js';

// OPNsense's captive portal forwarding to this portal from a zone template
// (captures/opnsense.json names the opnsense/core files it follows).
interface Capture {
  state: ArrivalState;
  what: string;
  url: string;
}
const CAPTURES = JSON.parse(readFileSync(new URL('./captures/opnsense.json', import.meta.url), 'utf8')) as {
  captures: Capture[];
  logon: { url: string; fields: string[] };
};
const profile = CONTROLLER_PROFILES.opnsense;
const queryOf = (url: string) => Object.fromEntries(new URL(url).searchParams);
const LIMITS = { sessionSeconds: 1800, idleSeconds: 600, interimSeconds: 300, upBitsPerSecond: 20_000_000, downBitsPerSecond: 100_000_000 };

for (const capture of CAPTURES.captures) {
  test(`OPNsense ${capture.what}: recognised, read as ${capture.state}`, (t) => {
    const query = queryOf(capture.url);
    t.is(profileOfArrival(query), 'opnsense');
    const read = profile.arrival.read(query);
    if (!read.ok) return t.fail(read.problems.join(', '));
    // The login URL is the zone's logon API under the zone's origin (only ever compared with the registry's).
    t.like(read.arrival, {
      state: capture.state,
      nasId: null,
      loginUrl: CAPTURES.logon.url,
      challenge: null,
      chapId: null,
      returnUrl: 'http://example.com/news',
      reason: null,
    });
    t.is(normalizeMac(read.arrival.mac ?? ''), 'aabbcc001122');
  });
}

test('OPNsense: a redirurl with a scheme is kept as it is; an empty one is no return address', (t) => {
  const query = queryOf(CAPTURES.captures[0]!.url);
  t.like(profile.arrival.read({ ...query, redirurl: 'https://example.com/a?b=c' }), { ok: true, arrival: { returnUrl: 'https://example.com/a?b=c' } });
  t.like(profile.arrival.read({ ...query, redirurl: '' }), { ok: true, arrival: { returnUrl: null } });
});

test("OPNsense arrivals are not mistaken for pfSense's, nor pfSense's for OPNsense's", (t) => {
  t.is(
    profileOfArrival({
      zone: 'guest',
      portal_action: 'https://fw.example.net:8003/index.php?zone=guest',
      redirurl: 'http://example.com/',
      mac: 'aabbcc-001122',
    }),
    'pfsense',
  );
  t.is(profileOfArrival({ redirurl: 'example.com/news' }), undefined);
});

refusesNaming('OPNsense', profile, queryOf(CAPTURES.captures[0]!.url), [
  ["a zone URL with a path (not the zone's origin)", { zone_url: 'https://cp.example.net:8000/index.html' }, 'zone_url'],
  ['a zone URL that is not http(s)', { zone_url: 'javascript:alert(1)' }, 'zone_url'],
  ['a client state OPNsense never answers', { clientState: 'UNKNOWN' }, 'clientState'],
  ["a first visit without the MAC (the zone's extended pre-auth data is off)", { macAddress: undefined }, 'macAddress'],
  ['a MAC that is none', { macAddress: 'aa:bb:cc:00:11' }, 'macAddress'],
  ['a return address that is not http(s)', { redirurl: 'javascript:alert(1)' }, 'redirurl'],
]);

test("the OPNsense login posts user and password (its logon API's form fields), only ever over https; nothing else", (t) => {
  t.is(profile.login.method, 'POST');
  t.is(profile.login.chap, 'none');
  t.true(handsOverPassword(profile), 'the registry holds its login URL only as https');
  const fields = profile.login.fields({ username: 'u', password: 'p' }, 'http://example.com/', CAPTURES.logon.url);
  t.deepEqual(fields, { user: 'u', password: 'p' });
  t.deepEqual(Object.keys(fields), CAPTURES.logon.fields);
});

test('OPNsense reads Session-Timeout and Acct-Interim-Interval (60 s or more) of an Accept, no WISPr; it has no Disconnect listener and does not re-authenticate', (t) => {
  t.deepEqual(profile.replyAttributes(LIMITS), { 'Session-Timeout': 1800, 'Acct-Interim-Interval': 300 });
  t.deepEqual(
    profile.replyAttributes({ ...LIMITS, interimSeconds: 30 }),
    { 'Session-Timeout': 1800, 'Acct-Interim-Interval': 60 },
    'OPNsense ignores an interval under 60 s',
  );
  t.deepEqual(profile.disconnect, []);
  t.is(profile.disconnectListener, false);
  t.not(profile.reauthenticates, true);
});
