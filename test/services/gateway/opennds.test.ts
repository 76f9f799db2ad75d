import { createHash, randomBytes } from 'node:crypto';
import test from 'ava';
import { parseDeauthNotice } from '../../../edge/controllers/opennds-authmon.js';
import { waitFor } from '../../helpers/wait-for.js';
import { client, deauthNotice, entries, GATEWAYHASH, MAC, NDS, ROUTER, setup, signedIn } from './opennds-world.js';
import { deviceRef, grantedSession, PORTAL_KEY } from './platform.js';

// The gateway service's openNDS side, as the portal relays the router's
// authmon, BinAuth and revocation-poll.sh requests to it: a signed-in client is queued with the
// session's limits (the QoS table the RADIUS side reads), authmon's acknowledgement opens its
// connection, every end of the session lists it for revocation-poll, the gateway's own ends
// reach the connection view, and nothing counts from another address or with a forged token.

test.serial("a signed-in client is listed for authmon with its rhid and the session's limits from the QoS table, until authmon acknowledges it", async (t) => {
  const qos = JSON.stringify({ HIGH: { up: 10_000_000, down: 50_000_000, downQuotaKB: 500_000 }, '*': { up: 1_000_000, down: 5_000_000 } });
  const { world, authmon, authorise } = await setup(t, { QOS_TABLE: qos });
  const c = await signedIn(world, authorise, 1800, { tier: 'BOOST', qosClass: 'HIGH' });
  const list = await authmon('view', 'none');
  t.is(list.status, 200);
  t.true(list.text.startsWith('*'));
  const [entry] = entries(list.text);
  t.deepEqual(
    entry?.slice(0, 6),
    [c.rhid, '29', '10000', '50000', '0', '500000'],
    'rhid, minutes (floor of 1800 s less the time taken), kbit/s up and down, quotas in kB',
  );
  const custom = entry?.[6] ?? '';
  t.regex(custom, /^[A-Za-z0-9+/]{16}$/, 'custom (handed to BinAuth) is an opaque value');
  t.false(Buffer.from(custom, 'base64').toString('latin1').includes(c.sessionId) || custom.includes(c.sessionId), 'custom does not name the session');
  t.is((await authmon('view', `* ${c.rhid}`)).text, 'ack');
  t.is((await authmon('view', 'none')).text, '*', 'an acknowledged client is not listed again');
});

test.serial(
  'a gateway counts as polling only while its authmon reached the platform within OPENNDS_POLL_FRESH_SECONDS (the portal takes arrivals only then); a refused request does not count',
  async (t) => {
    let clock = Date.parse('2026-01-01T10:00:00Z');
    const { world, gateway, authmon, authorise } = await setup(t, { OPENNDS_POLL_FRESH_SECONDS: '30' }, { now: () => new Date(clock), polled: false });
    const status = async () => (await gateway.request('GET', `/api/v1/opennds/gateways/${NDS}`, { headers: PORTAL_KEY })).body;
    t.like(await status(), { nasId: NDS, polling: false, polledAt: null }, 'never polled: a level 2 router, or authmon not running');
    t.is((await authmon('view', 'none', '198.51.100.9')).status, 403);
    t.like(await status(), { polling: false }, 'a request from another address is not a poll');
    t.is((await authmon('view', 'none')).status, 200);
    t.like(await status(), { polling: true, polledAt: new Date(clock).toISOString() });
    clock += 30_000;
    t.like(await status(), { polling: true });
    clock += 1_000;
    t.like(await status(), { polling: false }, 'silent for longer than OPENNDS_POLL_FRESH_SECONDS');
    // A sign-in after the gateway went silent is not queued (nothing would fetch it): the portal rolls the sign-in back.
    const c = client();
    const sessionId = await grantedSession(world, deviceRef(MAC, NDS), 1800);
    const refused = await authorise(sessionId, c.hid);
    t.is(refused.status, 502, refused.text);
    t.is(refused.body['code'], 'UPSTREAM_UNAVAILABLE');
    await authmon('view', 'none');
    t.is((await authorise(sessionId, c.hid)).status, 201, 'queued once the gateway polls again');
    t.is((await gateway.request('GET', '/api/v1/opennds/gateways/nds-unknown', { headers: PORTAL_KEY })).status, 404);
    t.is((await gateway.request('GET', `/api/v1/opennds/gateways/${NDS}`)).status, 401, "the portal's key is needed");
  },
);

test.serial(
  "authmon's acknowledgement opens the connection the portal reads; a revoke lists the client for revocation-poll within the feed poll, and its report closes the connection",
  async (t) => {
    const { world, gateway, authmon, authorise } = await setup(t);
    const c = await signedIn(world, authorise);
    t.is((await gateway.connection(c.sessionId)).body['state'], 'NONE', 'queued is not connected yet');
    await authmon('view', `* ${c.rhid}`);
    t.is((await gateway.connection(c.sessionId)).body['state'], 'CONNECTED');
    t.is((await authmon('custom', 'revocations')).text, '*', 'nothing to revoke yet');
    await world.session.revoke(c.sessionId);
    const started = Date.now();
    let listed = '';
    while (Date.now() - started < 15_000 && !listed.includes(c.rhid)) listed = (await authmon('custom', 'revocations')).text;
    t.is(listed, `* ${c.rhid}`, 'listed for revocation within 15 s of the revoke');
    t.is((await gateway.connection(c.sessionId)).body['connected'], true, 'still connected until the router reports it deauthenticated');
    t.is((await authmon('custom', `revoked ${c.rhid}`)).text, 'ack');
    const after = (await gateway.connection(c.sessionId)).body;
    t.is(after['state'], 'DISCONNECTED');
    t.is(after['disconnect'], 'ACKED');
    t.is((await authmon('custom', 'revocations')).text, '*');
  },
);

test.serial(
  "BinAuth's notice of revocation-poll's own deauth, arriving before the script's report, is the revocation's acknowledgement: DISCONNECTED, disconnect ACKED, no longer listed",
  async (t) => {
    const { world, gateway, authmon, authorise } = await setup(t);
    const c = await signedIn(world, authorise);
    await authmon('view', `* ${c.rhid}`);
    await world.session.revoke(c.sessionId);
    const started = Date.now();
    let listed = '';
    while (Date.now() - started < 15_000 && !listed.includes(c.rhid)) listed = (await authmon('custom', 'revocations')).text;
    t.is(listed, `* ${c.rhid}`);
    t.is((await authmon('deauthed', deauthNotice('ndsctl_deauth', c.token))).text, 'ack');
    t.like((await gateway.connection(c.sessionId)).body, { state: 'DISCONNECTED', disconnect: 'ACKED', inputOctets: 4096 });
    t.is((await authmon('custom', 'revocations')).text, '*', 'not listed again');
    t.is((await authmon('custom', `revoked ${c.rhid}`)).text, 'ack', "the script's late report changes nothing");
    t.like((await gateway.connection(c.sessionId)).body, { state: 'DISCONNECTED', disconnect: 'ACKED' });
  },
);

test.serial(
  "BinAuth's notice of a revoked client arriving after the script's report still brings the client's usage, once; the end stays the revocation's",
  async (t) => {
    const { world, gateway, authmon, authorise } = await setup(t);
    const c = await signedIn(world, authorise);
    await authmon('view', `* ${c.rhid}`);
    await world.session.revoke(c.sessionId);
    await waitFor(
      async () => (await authmon('custom', 'revocations')).text,
      (listed) => listed.includes(c.rhid),
      { timeoutMs: 15_000 },
    );
    t.is((await authmon('custom', `revoked ${c.rhid}`)).text, 'ack');
    t.like((await gateway.connection(c.sessionId)).body, { state: 'DISCONNECTED', disconnect: 'ACKED', inputOctets: 0 });
    t.is((await authmon('deauthed', deauthNotice('ndsctl_deauth', c.token))).text, 'ack');
    const counted = { state: 'DISCONNECTED', disconnect: 'ACKED', inputOctets: 4096, outputOctets: 1024 };
    t.like((await gateway.connection(c.sessionId)).body, counted, 'the usage only BinAuth tells');
    t.is((await authmon('deauthed', deauthNotice('ndsctl_deauth', c.token))).text, 'ack');
    t.like((await gateway.connection(c.sessionId)).body, counted, 'a second notice adds nothing');
  },
);

test.serial(
  "a session ended between openNDS's authorisation and authmon's acknowledgement still opens its connection, which the revocation's report closes",
  async (t) => {
    const { world, gateway, authmon, authorise } = await setup(t);
    const c = await signedIn(world, authorise);
    t.is(entries((await authmon('view', 'none')).text)[0]?.[0], c.rhid, 'handed to authmon, which authorises it at the gateway');
    await world.session.revoke(c.sessionId);
    const started = Date.now();
    let listed = '';
    while (Date.now() - started < 15_000 && !listed.includes(c.rhid)) listed = (await authmon('custom', 'revocations')).text;
    t.is(listed, `* ${c.rhid}`);
    t.is((await authmon('view', `* ${c.rhid}`)).text, 'ack', "authmon's late acknowledgement");
    t.is((await gateway.connection(c.sessionId)).body['state'], 'CONNECTED', 'online at the gateway until it is deauthenticated');
    t.is((await authmon('custom', 'revocations')).text, `* ${c.rhid}`, 'still listed for revocation');
    t.is((await authmon('view', 'none')).text, '*', 'not listed for authorisation again');
    t.is((await authmon('custom', `revoked ${c.rhid}`)).text, 'ack');
    t.like((await gateway.connection(c.sessionId)).body, { state: 'DISCONNECTED', disconnect: 'ACKED' });
  },
);

test.serial(
  'a client revoked before authmon fetched it is never listed for authorisation, and is listed for revocation (it may have been authorised meanwhile)',
  async (t) => {
    const { world, authmon, authorise } = await setup(t);
    const c = await signedIn(world, authorise);
    await world.session.revoke(c.sessionId);
    const started = Date.now();
    let listed = '';
    while (Date.now() - started < 15_000 && !listed.includes(c.rhid)) listed = (await authmon('custom', 'revocations')).text;
    t.is(listed, `* ${c.rhid}`);
    t.is((await authmon('view', 'none')).text, '*');
  },
);

test.serial(
  "the gateway's own end (BinAuth idle timeout) closes the connection with its cause and byte counts and keeps the session; a logout at the gateway revokes it",
  async (t) => {
    const { world, gateway, authmon, authorise } = await setup(t);
    const idle = await signedIn(world, authorise);
    await authmon('view', `* ${idle.rhid}`);
    const notice = deauthNotice;
    t.truthy(parseDeauthNotice(notice('idle_deauth', idle.token)));
    t.is((await authmon('deauthed', notice('idle_deauth', idle.token))).text, 'ack');
    const view = (await gateway.connection(idle.sessionId)).body;
    t.is(view['state'], 'DISCONNECTED');
    t.is(view['inputOctets'], 4096);
    t.is(view['sessionTime'], 600);
    t.is((await world.session.read(idle.sessionId)).body['state'], 'GRANTED', 'an idle end keeps the entitlement');

    const out = await signedIn(world, authorise);
    await authmon('view', `* ${out.rhid}`);
    await authmon('deauthed', notice('client_deauth', out.token));
    t.is((await world.session.read(out.sessionId)).body['state'], 'REVOKED', 'logging out at the gateway ends the network session');
    t.false(
      gateway.lines.some((line) => line.includes(MAC)),
      'the MAC in the notice is never logged',
    );
  },
);

test.serial(
  'bad input grants and ends nothing: another address, another gatewayhash, a forged BinAuth token, a replayed hid, an unknown session or another device',
  async (t) => {
    const { world, gateway, authmon, authorise } = await setup(t);
    const c = await signedIn(world, authorise);
    t.is((await authmon('view', 'none', '198.51.100.9')).status, 403, 'not from the registered address');
    t.is((await authmon('view', 'none', ROUTER, createHash('sha256').update('other').digest('hex'))).status, 403, "another gateway's hash");
    t.is((await authmon('view', `* ${c.rhid}`, '198.51.100.9')).status, 403);
    t.is((await authmon('view', 'none')).text.split(' ').length, 2, 'still queued after the refused acknowledgement');
    await authmon('view', `* ${c.rhid}`);
    const forged = `method=client_deauth, clientmac=${MAC}, bytes_incoming=1, bytes_outgoing=1, session_start=1, session_end=2, token=${randomBytes(4).toString('hex')}, custom=x`;
    t.is((await authmon('deauthed', forged)).text, 'ack', 'answered, so the router does not retry');
    t.is((await gateway.connection(c.sessionId)).body['state'], 'CONNECTED', 'a token that names no authorised client ends nothing');
    t.is((await world.session.read(c.sessionId)).body['state'], 'GRANTED');
    const replay = await authorise(c.sessionId, c.hid);
    t.is(replay.status, 403, 'the same hid twice is a replay');
    t.is((await authorise('sess-00000000-0000-4000-8000-000000000000', client().hid)).status, 404);
    t.is((await authorise(c.sessionId, client().hid, 'dev-another-device')).status, 403);
    t.is((await authmon('view', 'garbage')).status, 400);
    t.is((await authmon('nonsense', 'none')).status, 400);
    t.is(
      (
        await gateway.request('POST', '/api/v1/opennds/authmon/unknown-gw', {
          json: { auth_get: 'view', gatewayhash: GATEWAYHASH, payload: '', callerAddress: ROUTER },
          headers: PORTAL_KEY,
        })
      ).status,
      404,
    );
  },
);

test.serial(
  'a guest behind the router (its address, the gatewayhash anyone computes, no faskey) can neither read the pending list, acknowledge a grant nor report a revocation; a replayed or stale signed request is refused too',
  async (t) => {
    const now = Date.now();
    const { world, gateway, authmon, authorise } = await setup(t);
    const c = await signedIn(world, authorise);
    const guestKey = { key: 'a-guess-at-the-faskey' };
    const unsigned = null;
    for (const signing of [unsigned, guestKey]) {
      const read = await authmon('view', 'none', ROUTER, GATEWAYHASH, signing);
      t.is(read.status, 403, 'the pending list is not read');
      t.false(read.text.includes(c.rhid));
      t.is((await authmon('view', `* ${c.rhid}`, ROUTER, GATEWAYHASH, signing)).status, 403, 'a grant is not acknowledged');
    }
    t.is((await gateway.connection(c.sessionId)).body['state'], 'NONE', 'the refused acknowledgements opened nothing');
    t.is(entries((await authmon('view', 'none')).text)[0]?.[0], c.rhid, "still listed for the router's authmon");
    await authmon('view', `* ${c.rhid}`);
    await world.session.revoke(c.sessionId);
    await waitFor(
      async () => (await authmon('custom', 'revocations')).text,
      (list) => list.includes(c.rhid),
      { timeoutMs: 15_000 },
    );
    for (const signing of [unsigned, guestKey]) {
      t.is((await authmon('custom', 'revocations', ROUTER, GATEWAYHASH, signing)).status, 403, 'the revocation list is not read');
      t.is((await authmon('custom', `revoked ${c.rhid}`, ROUTER, GATEWAYHASH, signing)).status, 403, 'a revocation is not reported');
    }
    const replayed = { nonce: randomBytes(16).toString('hex') };
    t.is((await authmon('custom', 'revocations', ROUTER, GATEWAYHASH, replayed)).status, 200);
    t.is((await authmon('custom', `revoked ${c.rhid}`, ROUTER, GATEWAYHASH, replayed)).status, 403, 'a nonce is taken once');
    t.is(
      (await authmon('custom', `revoked ${c.rhid}`, ROUTER, GATEWAYHASH, { at: new Date(now - 10 * 60_000) })).status,
      403,
      'a request signed ten minutes ago is stale',
    );
    t.is((await authmon('custom', 'revocations')).text, `* ${c.rhid}`, "still listed: only the router's signed report ends the row");
    t.is((await gateway.connection(c.sessionId)).body['connected'], true);
    t.is((await authmon('custom', `revoked ${c.rhid}`)).text, 'ack');
    t.is((await gateway.connection(c.sessionId)).body['state'], 'DISCONNECTED');
    t.true(
      gateway.lines.some((line) => line.includes('authmon request refused') && line.includes('"signature":"unsigned"')),
      'the refusal says why',
    );
  },
);
