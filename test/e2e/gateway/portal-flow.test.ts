import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { coovaArrival, demoNas } from './coova-arrival.js';
import { waitFor } from '../../helpers/wait-for.js';
import { scrubString } from '../../../services/kit/index.js';
import { disconnectsReceived, startNas } from '../../services/gateway/platform.js';
import { hexText, radclient, type RadiusAnswer } from '../../services/gateway/radclient.js';
import { KC_LOG } from '../keycloak/kc-files.js';
import { networkSession, PortalBrowser, type PortalReply } from '../portal/portal-client.js';
import { URLS } from '../platform-urls.js';

// End to end on the started platform: a captive device arrives at the portal
// from the demo NAS, signs in, and is logged in at the gateway with the one-time credential the
// portal hands its page, through the platform's FreeRADIUS; ending the sign-in reaches the NAS
// as an RFC 5176 Disconnect-Request, received by a second FreeRADIUS with a `coa` listener on the
// demo NAS's address and CoA port. The tests share bob (one device slot): they run one by one.
const NAS = 'demo-nas';
const NAS_SECRET = 'demo-nas-secret';
const AUTH_PORT = Number(process.env['RADIUS_AUTH_PORT'] ?? 1812);
const ACCT_PORT = Number(process.env['RADIUS_ACCT_PORT'] ?? 1813);
const BOB = { username: 'bob@example.com', password: 'bob-demo-pass' };
const SESSION_KEY = { 'X-API-Key': process.env['SESSION_TOOLS_KEY'] ?? 'dev-session-tools-key' };
const { coaPort: COA_PORT, uamSecret: UAM_SECRET } = demoNas();

// Locally administered MACs, new every run, one per device of this file.
const RUN = randomBytes(2).toString('hex').toUpperCase();
const macs: string[] = [];
const newMac = () => {
  macs.push(`02-E2-${RUN.slice(0, 2)}-${RUN.slice(2)}-00-${macs.length.toString(16).padStart(2, '0').toUpperCase()}`);
  return macs.at(-1)!;
};
/** Every answer a client of this file saw (portal, session service, FreeRADIUS), for the privacy check. */
const answers: string[] = [];

interface Change {
  sessionId: string;
  state: string;
  reason: string | null;
  cursor: string;
}
interface Login {
  sessionId: string;
  validUntil: string;
  challenge: string;
  fields: Record<string, string>;
  reply: PortalReply;
}

/** A captive device behind the demo NAS: its MAC, and the browser the gateway sent to the portal. */
class CaptiveDevice extends PortalBrowser {
  constructor(readonly mac: string) {
    super();
  }

  override async call(...args: Parameters<PortalBrowser['call']>): Promise<PortalReply> {
    const reply = await super.call(...args);
    answers.push(reply.text, [...reply.headers].join('\n'));
    return reply;
  }

  /** Arrives with CoovaChilli's UAM parameters (a fresh challenge), then signs in as bob. */
  async signIn(t: ExecutionContext): Promise<Login> {
    const challenge = randomBytes(16).toString('hex');
    const query = new URLSearchParams({
      res: 'notyet',
      uamip: '10.1.0.1',
      uamport: '3990',
      challenge,
      called: '02-E2-00-00-00-FF',
      mac: this.mac,
      ip: '10.1.0.7',
      nasid: NAS,
      userurl: 'http://example.com/',
    });
    const arrival = await this.call('GET', coovaArrival(Object.fromEntries(query), UAM_SECRET));
    t.is(arrival.status, 303);
    t.regex(this.cookie ?? '', /(^|; )gw=/, 'the gateway context is kept behind cookie gw');
    const reply = await this.login(BOB.username, BOB.password);
    t.is(reply.status, 200, reply.text);
    const body = reply.body as { session: { sessionId: string }; entitlement: { validUntil: string }; gateway: { fields: Record<string, string> } };
    return { sessionId: body.session.sessionId, validUntil: body.entitlement.validUntil, challenge, fields: body.gateway.fields, reply };
  }

  /** What the gateway sends FreeRADIUS once the page submitted the fields: UAM CHAP as CoovaChilli does, or PAP. */
  async accessRequest(login: Login): Promise<RadiusAnswer> {
    const { username, response, password } = login.fields;
    // CoovaChilli: CHAP-Challenge = MD5(challenge + UAM secret), CHAP ident 0, the page's response as the digest.
    const proof =
      response === undefined
        ? [`User-Password = "${password}"`]
        : [
            `CHAP-Challenge = 0x${createHash('md5').update(Buffer.from(login.challenge, 'hex')).update(UAM_SECRET).digest('hex')}`,
            `CHAP-Password = 0x00${response}`,
          ];
    return kept(
      await radclient(AUTH_PORT, 'auth', NAS_SECRET, [
        `User-Name = "${username}"`,
        ...proof,
        `Calling-Station-Id = "${this.mac}"`,
        `NAS-Identifier = "${NAS}"`,
      ]),
    );
  }

  /** Logged in at the gateway: Access-Accept, then accounting Start under `acctSessionId`. */
  async connect(t: ExecutionContext, login: Login, acctSessionId: string): Promise<RadiusAnswer> {
    const accept = await this.accessRequest(login);
    t.is(accept.code, 'Access-Accept', JSON.stringify(accept));
    const start = await radclient(ACCT_PORT, 'acct', NAS_SECRET, [
      `User-Name = "${login.fields['username']}"`,
      'Acct-Status-Type = Start',
      `Acct-Session-Id = "${acctSessionId}"`,
      `Class = ${accept.attributes['Class']}`,
      `Calling-Station-Id = "${this.mac}"`,
      `NAS-Identifier = "${NAS}"`,
    ]);
    t.is(kept(start).code, 'Accounting-Response');
    // FreeRADIUS posts it to the gateway service before answering (buffered and replayed only if that failed).
    await waitFor(
      () => this.session(),
      (reply) => (reply.body['connection'] as { connected?: boolean } | undefined)?.connected === true,
      { timeoutMs: 15_000 },
    );
    return accept;
  }
}

const kept = (answer: RadiusAnswer): RadiusAnswer => {
  answers.push(JSON.stringify(answer));
  return answer;
};

/** The session service's change feed after `cursor`, every page. */
async function changesAfter(cursor = '0.0'): Promise<{ changes: Change[]; next: string }> {
  const changes: Change[] = [];
  for (let after = cursor; ; ) {
    const response = await fetch(`${URLS.session}/api/v1/sessions/changes?after=${after}&limit=500`, { headers: SESSION_KEY });
    const text = await response.text();
    answers.push(text);
    const page = JSON.parse(text) as { changes: Change[]; next: string };
    changes.push(...page.changes);
    if (page.changes.length === 0) return { changes, next: page.next };
    after = page.next;
  }
}

/** Why the session service ended a session, as its change feed tells it (waits for the feed to show it). */
async function revokeReason(sessionId: string): Promise<string | null> {
  const { changes } = await waitFor(
    () => changesAfter(),
    (read) => read.changes.some((c) => c.sessionId === sessionId && c.state === 'REVOKED'),
    { timeoutMs: 10_000 },
  );
  return changes.find((c) => c.sessionId === sessionId && c.state === 'REVOKED')?.reason ?? null;
}

/** The NAS stand-in received a Disconnect-Request for this accounting session (waits up to 15 s). */
const disconnected = (nas: Awaited<ReturnType<typeof startNas>>, acctSessionId: string) =>
  waitFor(
    () => disconnectsReceived(nas),
    (ids) => ids.includes(acctSessionId),
    { timeoutMs: 15_000 },
  );

const sessionState = async (sessionId: string) => {
  const read = await networkSession(sessionId);
  answers.push(JSON.stringify(read));
  return read['state'];
};

test.serial(
  'a device sent by the gateway signs in, logs in there with its one-time CHAP credential, is connected, and logout disconnects it for good',
  async (t) => {
    const nas = await startNas(t, COA_PORT, [], NAS_SECRET);
    const device = new CaptiveDevice(newMac());
    const login = await device.signIn(t);
    t.like(login.reply.body, {
      gateway: { loginUrl: 'http://10.1.0.1:3990/logon', method: 'GET', fields: { userurl: 'http://example.com/' } },
      connection: { state: 'CONNECTING', connected: false },
    });
    t.regex(login.fields['response'] ?? '', /^[0-9a-f]{32}$/, 'CoovaChilli gets a CHAP response, not the password');
    t.like((await device.call('GET', '/api/captive')).body, { captive: true }, 'captive until the gateway confirms');

    const acctSessionId = `flow-logout-${RUN}`;
    const accept = await device.connect(t, login, acctSessionId);
    t.is(hexText(accept.attributes['Class']), login.sessionId, 'Class is the network session id');
    const secondsLeft = (Date.parse(login.validUntil) - Date.now()) / 1000;
    t.true(
      Math.abs(Number(accept.attributes['Session-Timeout']) - secondsLeft) <= 5,
      `Session-Timeout ${accept.attributes['Session-Timeout']} vs ${secondsLeft} s to validUntil`,
    );
    t.like((await device.session()).body, { authenticated: true, connection: { state: 'CONNECTED', connected: true } });
    t.like((await device.call('GET', '/api/captive')).body, { captive: false });
    t.is((await device.accessRequest(login)).code, 'Access-Reject', 'a one-time credential is used up by its login');

    t.like((await device.logout()).body, { ok: true });
    await disconnected(nas, acctSessionId);
    t.is(await sessionState(login.sessionId), 'REVOKED');
    const replay = await device.accessRequest(login);
    t.is(replay.code, 'Access-Reject', "the ended session's credential opens nothing");
  },
);

test.serial('signing in on a second device evicts the first from its only slot, and the first device is disconnected', async (t) => {
  const nas = await startNas(t, COA_PORT, [], NAS_SECRET);
  const phone = new CaptiveDevice(newMac());
  const onPhone = await phone.signIn(t);
  const phoneAcct = `flow-evicted-${RUN}`;
  await phone.connect(t, onPhone, phoneAcct);

  const laptop = new CaptiveDevice(newMac());
  const onLaptop = await laptop.signIn(t);
  t.is(await sessionState(onPhone.sessionId), 'REVOKED');
  t.is(await revokeReason(onPhone.sessionId), 'DEVICE_SLOTS');
  await disconnected(nas, phoneAcct);
  const laptopAcct = `flow-evicting-${RUN}`;
  await laptop.connect(t, onLaptop, laptopAcct);
  t.is(await sessionState(onLaptop.sessionId), 'GRANTED', 'the device signing in keeps its session');
  t.false(disconnectsReceived(nas).includes(laptopAcct));
  await laptop.logout();
  await disconnected(nas, laptopAcct);
});

test.serial('the same device signing in again replaces its own session (SAME_DEVICE) and revokes nothing else', async (t) => {
  const mac = newMac();
  const first = await new CaptiveDevice(mac).signIn(t);
  const { next: before } = await waitFor(
    () => changesAfter(),
    (read) => read.changes.some((c) => c.sessionId === first.sessionId && c.state === 'GRANTED'),
    { timeoutMs: 10_000 },
  );
  // Another browser on the same device (the captive sheet, then the real browser): another gw context, the same MAC.
  const again = new CaptiveDevice(mac);
  const second = await again.signIn(t);
  t.not(second.sessionId, first.sessionId);
  t.is(await revokeReason(first.sessionId), 'SAME_DEVICE');
  const { changes } = await waitFor(
    () => changesAfter(before),
    (read) => read.changes.some((c) => c.sessionId === second.sessionId && c.state === 'GRANTED'),
    { timeoutMs: 10_000 },
  );
  t.deepEqual(
    changes.filter((c) => c.state === 'REVOKED').map((c) => [c.sessionId, c.reason]),
    [[first.sessionId, 'SAME_DEVICE']],
  );
  t.is((await again.accessRequest(first)).code, 'Access-Reject', "the replaced session's credential opens nothing");
  t.is((await again.accessRequest(second)).code, 'Access-Accept');
});

test.serial('no MAC address of this file, in any spelling, appears in a service log or an answer', async (t) => {
  const nas = await startNas(t, COA_PORT, [], NAS_SECRET);
  const device = new CaptiveDevice(newMac());
  const login = await device.signIn(t);
  const acctSessionId = `flow-privacy-${RUN}`;
  await device.connect(t, login, acctSessionId);
  await device.session();
  await device.logout();
  await disconnected(nas, acctSessionId);
  const logs = [KC_LOG, ...(await readdir('.run/logs')).map((name) => join('.run/logs', name))];
  const read = async () => new Map(await Promise.all(logs.map(async (file) => [file, (await readFile(file, 'utf8')).toLowerCase()] as const)));
  // Positive control: the portal's log already tells this sign-in, the gateway service's its Disconnect.
  // As the log writes it (the kit's redaction; a session id is kept unless its last group is twelve digits).
  const told = (texts: Map<string, string>, service: string) =>
    texts.get(join('.run/logs', `${service}.log`))?.includes(scrubString(login.sessionId).toLowerCase()) === true;
  const texts = await waitFor(read, (all) => told(all, 'portal') && told(all, 'gateway'), { timeoutMs: 10_000 });
  t.true(texts.has(join('.run/logs', 'freeradius.log')));
  const seen = `${[...texts.values()].join('\n')}\n${answers.join('\n').toLowerCase()}`;
  for (const mac of macs) {
    const hex = mac.replace(/-/g, '').toLowerCase();
    const pairs = hex.match(/../g)!;
    for (const spelling of [pairs.join('-'), pairs.join(':'), hex, `${hex.slice(0, 4)}.${hex.slice(4, 8)}.${hex.slice(8)}`])
      t.false(seen.includes(spelling), `${spelling} was found`);
  }
});
