import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import test from 'ava';
import { profileOfArrival } from '../../../edge/controllers/index.js';
import { parseLevel1Fas, type OpenndsFasQuery } from '../../../edge/controllers/opennds.js';
import { ackedRhids, parseDeauthNotice, REVOCATIONS_REQUEST, revokedRhids } from '../../../edge/controllers/opennds-authmon.js';
import { AuthmonBody } from '../../../services/gateway/opennds-routes.js';
import { authmonSignature } from '../../../services/gateway/authmon-signature.js';
import { decryptFasQuery, hidOfToken, rhidOf } from '../../../edge/opennds-crypto.js';
import type { Gateway } from '../../../edge/registry.js';
import { readOpenndsArrival } from '../../../services/portal/opennds-arrival.js';

// What the real openNDS (Debian's 9.10) sent a FAS in scripts/opennds/record-captures.ts (the
// capture file names the release and how): its redirects at FAS levels 1-3 and, at level 3, the
// POSTs of authmon, BinAuth and router/revocation-poll.sh, read by the profile, the portal and the
// gateway service as they read a live router's.
interface Arrival {
  level: 1 | 2 | 3;
  what: string;
  status: number;
  location: string;
  fasRequest: string;
}
interface Post {
  what: string;
  method: string;
  path: string;
  contentType: string;
  body: string;
}
const CAPTURES = JSON.parse(readFileSync(new URL('./captures/opennds.json', import.meta.url), 'utf8')) as {
  faskey: string;
  gatewayName: string;
  gatewayAddress: string;
  client: { ip: string; mac: string };
  originUrl: string;
  faspath: string;
  arrivals: Arrival[];
  authmon: Post[];
};
const queryOf = (url: string) => Object.fromEntries(new URL(url, 'https://fas.invalid').searchParams);
const fieldsOf = (arrival: Arrival): OpenndsFasQuery | undefined => {
  const query = queryOf(arrival.location);
  return arrival.level === 1 ? parseLevel1Fas(query['fas'] ?? '') : decryptFasQuery(query['fas'] ?? '', query['iv'] ?? '', CAPTURES.faskey);
};
const level = (n: Arrival['level']) => CAPTURES.arrivals.find((arrival) => arrival.level === n)!;
const level3Hid = () => fieldsOf(level(3))!.hid;

test('the captures hold an arrival at each FAS level the portal reads (1, 2, 3) and every authmon action the platform answers', (t) => {
  t.deepEqual(
    CAPTURES.arrivals.map((arrival) => arrival.level),
    [1, 2, 3],
  );
  t.deepEqual([...new Set(CAPTURES.authmon.map((post) => new URLSearchParams(post.body).get('auth_get')))], ['clear', 'view', 'custom', 'deauthed']);
});

for (const arrival of CAPTURES.arrivals) {
  test(`openNDS ${arrival.what}: a 307 to the faspath (https at level 3), recognised, its query read into the client, the gateway and the page`, (t) => {
    t.is(arrival.status, 307);
    const location = new URL(arrival.location);
    t.is(location.protocol, arrival.level === 3 ? 'https:' : 'http:');
    t.is(location.pathname, CAPTURES.faspath);
    t.is(`${location.pathname}${location.search}`, arrival.fasRequest, 'the FAS receives the query as openNDS wrote it');
    t.deepEqual(Object.keys(queryOf(arrival.location)), arrival.level === 1 ? ['fas'] : ['fas', 'iv']);
    t.is(profileOfArrival(queryOf(arrival.location)), 'opennds');
    const fields = fieldsOf(arrival);
    if (fields === undefined) return t.fail('the query did not read');
    t.like(fields, {
      clientip: CAPTURES.client.ip,
      clientmac: CAPTURES.client.mac,
      gatewayname: CAPTURES.gatewayName,
      gatewayaddress: CAPTURES.gatewayAddress,
      originurl: CAPTURES.originUrl,
      clientif: 'br-lan',
      themespec: undefined,
    });
    t.is(fields.authdir, arrival.level === 1 ? undefined : 'opennds_auth', 'levels 2/3 name the authdir, level 1 does not');
    t.regex(fields.version ?? '', /^9\.10\./);
    t.deepEqual(fields.custom, {}, 'openNDS\'s trailing "(null)(null)..." of unset custom lists is no parameter');
  });
}

test('openNDS as recorded: the original URL with its query string arrives URL-encoded inside the query and reads back whole', (t) => {
  const text = Buffer.from(queryOf(level(1).location)['fas'] ?? '', 'base64').toString('latin1');
  t.true(text.includes(`originurl=${encodeURIComponent(CAPTURES.originUrl).toLowerCase()}`), 'lower-case percent escapes, = and & inside escaped');
  t.is(fieldsOf(level(3))?.originurl, CAPTURES.originUrl);
});

function portalDeps(polling: boolean) {
  const gateway: Gateway = {
    nasId: CAPTURES.gatewayName,
    profile: 'opennds',
    address: '203.0.113.1',
    outsideAddresses: ['203.0.113.1'],
    secret: undefined,
    coaPort: 3799,
    uamSecret: undefined,
    faskey: CAPTURES.faskey,
    venue: CAPTURES.gatewayName,
    macAuthentication: false,
    loginUrls: [`http://${CAPTURES.gatewayAddress}/`],
  };
  return {
    registry: new Map([[gateway.nasId, gateway]]),
    deviceRefKey: 'capture-device-ref-key',
    holdHid: async () => 'context-id',
    polling: async () => polling,
  };
}

test('the portal reads the recorded level 3 arrival into a gateway context (its return address the page opened); level 1 and a level 2 gateway without authmon are refused', async (t) => {
  const read = await readOpenndsArrival(portalDeps(true), CAPTURES.gatewayName, queryOf(level(3).location), '203.0.113.1');
  if (read.kind !== 'context') return t.fail(read.why);
  t.like(read.context, {
    profile: 'opennds',
    nasId: CAPTURES.gatewayName,
    loginUrl: `http://${CAPTURES.gatewayAddress}/`,
    returnUrl: CAPTURES.originUrl,
    hid: level3Hid(),
  });
  t.false(JSON.stringify(read.context).includes(CAPTURES.client.mac), 'the MAC leaves only as the deviceRef');
  t.like(await readOpenndsArrival(portalDeps(true), CAPTURES.gatewayName, queryOf(level(1).location), '203.0.113.1'), {
    kind: 'refused',
    why: 'insecure-level',
  });
  t.like(await readOpenndsArrival(portalDeps(false), CAPTURES.gatewayName, queryOf(level(2).location), '203.0.113.1'), { kind: 'refused', why: 'not-polling' });
});

for (const post of CAPTURES.authmon) {
  test(`openNDS ${post.what}: a signed form POST to the faspath the gateway service takes`, (t) => {
    t.is(post.method, 'POST');
    t.is(post.path, CAPTURES.faspath);
    t.is(post.contentType, 'application/x-www-form-urlencoded');
    const form = new URLSearchParams(post.body);
    t.deepEqual([...form.keys()], ['auth_get', 'gatewayhash', 'payload', 'ts', 'nonce', 'sig']);
    const fields = Object.fromEntries(form);
    t.is(fields['gatewayhash'], createHash('sha256').update(CAPTURES.gatewayName).digest('hex'), 'gatewayhash = sha256(gatewayname)');
    const parsed = AuthmonBody.safeParse({ ...fields, callerAddress: '203.0.113.1' });
    if (!parsed.success) return t.fail(parsed.error.message);
    t.is(authmonSignature(parsed.data, CAPTURES.faskey, new Date(Number(fields['ts']) * 1000), 30), 'signed');
  });
}

test('openNDS\'s authmon payloads as recorded read as the platform expects: "none" polls, the ack of the granted rhid, the revocation channel, the deauthed notice naming the session', (t) => {
  const payloads = CAPTURES.authmon.map((post) => {
    const form = new URLSearchParams(post.body);
    return { action: form.get('auth_get'), payload: Buffer.from(form.get('payload') ?? '', 'base64').toString('utf8') };
  });
  const rhid = rhidOf(level3Hid(), CAPTURES.faskey);
  t.deepEqual(payloads.slice(0, 2), [
    { action: 'clear', payload: 'none' },
    { action: 'view', payload: 'none' },
  ]);
  t.deepEqual(ackedRhids(payloads[2]!.payload), [rhid]);
  t.is(payloads[3]!.payload, REVOCATIONS_REQUEST);
  t.deepEqual(revokedRhids(payloads[4]!.payload), [rhid]);
  const notice = parseDeauthNotice(payloads[5]!.payload);
  t.like(notice, { method: 'ndsctl_deauth' });
  t.is(hidOfToken(notice?.token ?? ''), level3Hid(), 'sha256(token) is the hid the FAS saw on arrival');
  t.false(JSON.stringify(notice).includes(CAPTURES.client.mac), 'the parsed notice holds no MAC');
});
