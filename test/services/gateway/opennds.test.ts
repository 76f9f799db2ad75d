import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { parseDeauthNotice } from '../../../edge/controllers/opennds-authmon.js';
import { createSealer } from '../../../services/kit/index.js';
import { rhidOf } from '../../../edge/opennds-crypto.js';
import { GatewayConfig } from '../../../services/gateway/config.js';
import type { Answer } from '../../helpers/service.js';
import { waitFor } from '../../helpers/wait-for.js';
import { authmonSignature, type SigningOptions } from '../../opennds/authmon-signing.js';
import { bootGateway, deviceRef, grantedSession, openGatewayDb, PORTAL_KEY, sessionWorld, tempDir, type World } from './platform.js';

// The gateway service's openNDS side, as the portal relays the router's
// authmon, BinAuth and revocation-poll.sh requests to it: a signed-in client is queued with the
// session's limits (the QoS table the RADIUS side reads), authmon's acknowledgement opens its
// connection, every end of the session lists it for revocation-poll, the gateway's own ends
// reach the connection view, and nothing counts from another address or with a forged token.

const NDS = 'nds-venue-1';
const FASKEY = 'test-faskey-0123456789abcdef';
const ROUTER = '203.0.113.1';
const GATEWAYHASH = createHash('sha256').update(NDS).digest('hex');
const MAC = '02:6e:64:73:00:11';
const SEAL_KEY = GatewayConfig.parse({}).GATEWAY_SEAL_KEY;

function registry(t: ExecutionContext): string {
  const file = join(tempDir(t, 'wifi-nds-'), 'gateways.json');
  const faskey = createSealer(SEAL_KEY).seal(FASKEY);
  writeFileSync(file, JSON.stringify({ gateways: [{ nasId: NDS, profile: 'opennds', address: ROUTER, faskey, loginUrls: ['http://192.168.77.1:2050/'] }] }));
  return file;
}

/** A gateway service with the test registry; its gateway has polled once (authmon's `clear`) unless `polled` is false. */
async function setup(t: ExecutionContext, env: Record<string, string> = {}, options: { now?: () => Date; polled?: boolean } = {}) {
  const world = await sessionWorld(t);
  const db = await openGatewayDb('memory');
  t.teardown(() => db.close());
  const gateway = await bootGateway(t, db, { SESSION_URL: world.session.url, GATEWAYS_FILE: registry(t), ...env }, options.now);
  /** A request as the router's signing post-request.php sends it; `signing` null sends it unsigned (as openNDS's own does). */
  const authmon = async (auth_get: string, payload: string, from = ROUTER, gatewayhash = GATEWAYHASH, signing: SigningOptions | null = {}) => {
    const request = { auth_get, gatewayhash, payload: Buffer.from(payload).toString('base64') };
    const signature = signing === null ? {} : authmonSignature(FASKEY, request, { at: options.now?.(), ...signing });
    const answer = await gateway.request('POST', `/api/v1/opennds/authmon/${NDS}`, {
      json: { ...request, ...signature, callerAddress: from },
      headers: PORTAL_KEY,
    });
    return { status: answer.status, text: String(answer.body['text'] ?? answer.body['code']) };
  };
  const authorise = (sessionId: string, hid: string, device = deviceRef(MAC, NDS)) =>
    gateway.request('POST', '/api/v1/opennds/authorisations', { json: { sessionId, deviceRef: device, nasId: NDS, hid }, headers: PORTAL_KEY });
  if (options.polled !== false && (await authmon('clear', '')).status !== 200) throw new Error('authmon clear refused');
  return { world, gateway, authmon, authorise };
}

/** A client as openNDS knows it: its token, and the hid the FAS saw (sha256 of the token). */
function client() {
  const token = randomBytes(4).toString('hex');
  const hid = createHash('sha256').update(token).digest('hex');
  return { token, hid, rhid: rhidOf(hid, FASKEY) };
}

type Authorise = (sessionId: string, hid: string, device?: string) => Promise<Answer>;

/** BinAuth's deauthentication notice (binauth_log.sh's log line) for a client's token. */
const deauthNotice = (method: string, token: string) =>
  `method=${method}, clientmac=${MAC}, bytes_incoming=4096, bytes_outgoing=1024, session_start=1700000000, session_end=1700000600, token=${token}, custom=x`;

const entries = (list: string) =>
  list
    .split(' ')
    .slice(1)
    .map((item) => decodeURIComponent(item).split(' '));

async function signedIn(world: World, authorise: Authorise, seconds = 1800, extra: Record<string, unknown> = {}) {
  const c = client();
  const sessionId = await grantedSession(world, deviceRef(MAC, NDS), seconds, extra);
  const queued = await authorise(sessionId, c.hid);
  if (queued.status !== 201) throw new Error(queued.text);
  return { ...c, sessionId };
}

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

const KIB = 1024;
/** A session with a data allowance of 10 MiB a day, signed in through openNDS and acknowledged by authmon. */
async function onlineWithAllowance(world: World, authmon: (auth_get: string, payload: string) => Promise<{ text: string }>, authorise: Authorise) {
  const c = await signedIn(world, authorise, 1800, { allowance: { dataBytes: 10 * KIB * KIB, timeSeconds: null, period: 'DAY' } });
  await authmon('view', `* ${c.rhid}`);
  return c;
}

test.serial(
  'the revocation poll asks for the running counters once every OPENNDS_USAGE_SECONDS per gateway (the first ask that long after its first poll), never with 0',
  async (t) => {
    let clock = Date.parse('2026-01-01T10:00:00Z');
    const { authmon } = await setup(t, { OPENNDS_USAGE_SECONDS: '30' }, { now: () => new Date(clock) });
    t.is((await authmon('custom', 'revocations')).text, '*', 'the first poll starts the clock');
    clock += 29_000;
    t.is((await authmon('custom', 'revocations')).text, '*');
    clock += 1_000;
    t.is((await authmon('custom', 'revocations')).text, '* usage', 'asked once the interval passed');
    t.is((await authmon('custom', 'revocations')).text, '*', 'and not at the next poll');
    clock += 30_000;
    t.is((await authmon('custom', 'revocations')).text, '* usage');
    const never = await setup(t, { OPENNDS_USAGE_SECONDS: '0' }, { now: () => new Date(clock) });
    clock += 3_600_000;
    t.is((await never.authmon('custom', 'revocations')).text, '*');
    clock += 3_600_000;
    t.is((await never.authmon('custom', 'revocations')).text, '*', '0: never asked');
  },
);

test.serial(
  "openNDS's running counters write the client's connection like an Interim-Update (KiB as bytes, greatest totals) and move the person's counter while the client runs; a replayed or backwards report and BinAuth's end notice count nothing twice",
  async (t) => {
    const { world, gateway, authmon, authorise } = await setup(t, { USAGE_PUSH_MS: '50' });
    const c = await onlineWithAllowance(world, authmon, authorise);
    const left = async () => ((await world.session.read(c.sessionId)).body['remaining'] as { bytesRemaining: number }).bytesRemaining;
    const countedAt = (bytes: number) =>
      waitFor(left, (value) => value === 10 * KIB * KIB - bytes, { timeoutMs: 10_000 }).then(
        () => true,
        () => false,
      );
    t.is((await authmon('custom', `usage ${c.token} 100 20`)).text, 'ack');
    t.like((await gateway.connection(c.sessionId)).body, { state: 'CONNECTED', inputOctets: 100 * KIB, outputOctets: 20 * KIB });
    t.true(await countedAt(120 * KIB), "the person's counter moved while the client runs");
    t.is((await authmon('custom', `usage ${c.token} 100 20`)).text, 'ack', 'a replayed report');
    t.is((await authmon('custom', `usage ${c.token} 50 30`)).text, 'ack', 'download going backwards, upload forwards');
    t.like((await gateway.connection(c.sessionId)).body, { inputOctets: 100 * KIB, outputOctets: 30 * KIB }, 'the greatest of each');
    t.true(await countedAt(130 * KIB), 'counted once: only the 10 KiB more upload added');
    // BinAuth's end notice carries exact bytes (4096 in, 1024 out): fewer than the running totals.
    t.is((await authmon('deauthed', deauthNotice('idle_deauth', c.token))).text, 'ack');
    t.like((await gateway.connection(c.sessionId)).body, { state: 'DISCONNECTED', inputOctets: 100 * KIB, outputOctets: 30 * KIB });
    t.is((await authmon('custom', `usage ${c.token} 900 900`)).text, 'ack', 'a report read before the end, arriving after it');
    t.like((await gateway.connection(c.sessionId)).body, { inputOctets: 100 * KIB, outputOctets: 30 * KIB }, 'an ended client takes no running counters');
    t.true(await countedAt(130 * KIB));
  },
);

test.serial("a person's allowance used up by an openNDS client's own running counters ends it through revocation-poll.sh while it runs", async (t) => {
  const { world, authmon, authorise } = await setup(t, { USAGE_PUSH_MS: '50' });
  const c = await onlineWithAllowance(world, authmon, authorise);
  t.is((await authmon('custom', 'revocations')).text, '*');
  t.is((await authmon('custom', `usage ${c.token} ${10 * KIB} 1`)).text, 'ack');
  const listed = await waitFor(
    async () => (await authmon('custom', 'revocations')).text,
    (list) => list.includes(c.rhid),
    { timeoutMs: 10_000 },
  ).catch(() => '');
  t.is(listed, `* ${c.rhid}`, 'listed for revocation-poll.sh');
});

test.serial(
  'a bad usage report changes nothing: non-numeric, negative or absurd counters, a malformed or repeated token, too many clients (400), an unknown client (ignored), unsigned, signed with another key or from another address (403)',
  async (t) => {
    const { world, gateway, authmon, authorise } = await setup(t, { USAGE_PUSH_MS: '50' });
    const c = await onlineWithAllowance(world, authmon, authorise);
    t.is((await authmon('custom', `usage ${c.token} 10 10`)).text, 'ack');
    const before = { inputOctets: 10 * KIB, outputOctets: 10 * KIB };
    const many = Array.from({ length: 501 }, (_, i) => `${i.toString(16).padStart(8, '0')} 1 1`).join(' ');
    for (const payload of [
      `usage ${c.token} ten 20`,
      `usage ${c.token} -5 20`,
      `usage ${c.token} 20 1.5`,
      `usage ${c.token} ${2 ** 30 + 1} 20`,
      `usage ${c.token} 99999999999 20`,
      `usage ${c.token.toUpperCase()} 20 20`,
      `usage ${c.token} 20`,
      `usage ${c.token} 20 20 ${c.token} 30 30`,
      'usage',
      `usage ${many}`,
    ]) {
      const answer = await authmon('custom', payload);
      t.is(answer.status, 400, payload.slice(0, 60));
    }
    t.like((await gateway.connection(c.sessionId)).body, before, 'nothing written by a refused report');
    t.is((await authmon('custom', `usage ${client().token} 5000 5000`)).text, 'ack', 'an unknown client: answered, so the router does not retry');
    t.like((await gateway.connection(c.sessionId)).body, before);
    for (const signing of [null, { key: 'a-guess-at-the-faskey' }]) {
      t.is((await authmon('custom', `usage ${c.token} 5000 5000`, ROUTER, GATEWAYHASH, signing)).status, 403);
    }
    t.is((await authmon('custom', `usage ${c.token} 5000 5000`, '198.51.100.9')).status, 403);
    t.like((await gateway.connection(c.sessionId)).body, before, 'nothing written by a forged report');
    t.is(((await world.session.read(c.sessionId)).body['remaining'] as { bytesRemaining: number }).bytesRemaining >= 10 * KIB * KIB - 20 * KIB, true);
  },
);
