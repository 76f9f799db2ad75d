import { existsSync, readdirSync, readFileSync, statSync, watch, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { waitFor } from '../../helpers/wait-for.js';
import { join } from 'node:path';
import { BUFFERED_USERNAME_HASH } from '../../../contract/index.js';
import { accountingBuffer, BUFFERED_ATTRIBUTES, writeFreeradiusConfig } from '../../../edge/freeradius-site.js';
import { usernameHash } from '../../../services/gateway/credentials.js';
import {
  bootGateway,
  deviceRef,
  gatewaysFile,
  grantedSession,
  MAC,
  NAS,
  NAS_SECRET,
  openGatewayDb,
  sessionWorld,
  startRadiusServer,
  tempDir,
} from './platform.js';
import { freeUdpPort, radclient } from './radclient.js';

// Accounting survives a gateway service that is down or too slow. FreeRADIUS
// writes each Accounting-Request to its buffer (a detail file) and answers the NAS at once; its
// replay hands the entries to the gateway service one by one, in order, again until answered.
// The gateway service is reached through a switch in front of it that can refuse (503) or hold
// a request until FreeRADIUS gives up on it, and then still hand it on (a slow answer the replay
// did not wait for: the entry comes again and must not count twice).

type Mode = 'pass' | 'refuse' | 'bad-request' | 'hold-first-interim' | 'hold-authorize';

interface Switch {
  url: string;
  mode: Mode;
  refused: number;
  /** Acct-Status-Type and Acct-Session-Time of each accounting request the gateway service got. */
  forwarded: [string, number][];
}

async function gatewaySwitch(t: ExecutionContext, target: string): Promise<Switch> {
  let held = false;
  const state: Switch = { url: '', mode: 'pass', refused: 0, forwarded: [] };
  const forward = async (req: IncomingMessage, body: string, res?: ServerResponse) => {
    const answer = await fetch(`${target}${req.url ?? ''}`, {
      method: req.method,
      headers: { 'content-type': 'application/json', 'x-api-key': String(req.headers['x-api-key']) },
      body,
    });
    const text = await answer.text();
    if (req.url?.startsWith('/radius/accounting') === true) {
      const attributes = JSON.parse(body) as Record<string, { value: (string | number)[] }>;
      state.forwarded.push([String(attributes['Acct-Status-Type']?.value[0]), Number(attributes['Acct-Session-Time']?.value[0] ?? 0)]);
    }
    res?.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(text);
  };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const accounting = req.url?.startsWith('/radius/accounting') === true;
      if (accounting && state.mode === 'refuse') {
        state.refused += 1;
        res.writeHead(503, { 'content-type': 'application/json' }).end('{"code":"UPSTREAM_UNAVAILABLE"}');
        return;
      }
      if (accounting && state.mode === 'bad-request') {
        state.refused += 1;
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"code":"INVALID_REQUEST"}');
        return;
      }
      const interim = body.includes('"Interim-Update"');
      if ((accounting && state.mode === 'hold-first-interim' && interim && !held) || (!accounting && state.mode === 'hold-authorize')) {
        held = true;
        // Answered only after FreeRADIUS hung up (its rest timeout); an accounting entry is then
        // handed on anyway, as a gateway service that was merely slow would have recorded it.
        res.once('close', () => void (accounting ? forward(req, body) : undefined));
        return;
      }
      forward(req, body, res).catch(() => res.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

async function setup(t: ExecutionContext) {
  const world = await sessionWorld(t);
  const db = await openGatewayDb('memory');
  t.teardown(() => db.close());
  const gateway = await bootGateway(t, db, { SESSION_URL: world.session.url, GATEWAYS_FILE: gatewaysFile(t, await freeUdpPort()) });
  const gate = await gatewaySwitch(t, gateway.url);
  const radius = await startRadiusServer(t, gate.url);
  const sessionId = await grantedSession(world);
  const { username, password } = (await gateway.issue({ sessionId, deviceRef: deviceRef(), nasId: NAS })).body as { username: string; password: string };
  return { db, gateway, gate, radius, sessionId, username, password };
}

test.serial(
  'accounting sent while the gateway service refuses or is too slow is answered at once and reaches it later, all of it, in order, nothing counted twice',
  async (t) => {
    const { db, gateway, gate, radius, sessionId, username, password } = await setup(t);
    const accept = await radclient(radius.authPort, 'auth', NAS_SECRET, [
      `User-Name = "${username}"`,
      `User-Password = "${password}"`,
      `Calling-Station-Id = "${MAC}"`,
    ]);
    t.is(accept.code, 'Access-Accept');

    gate.mode = 'refuse';
    // NAS-Identifier names another NAS: the replay must still say which NAS FreeRADIUS knew (the
    // Class is believed only from the NAS the credential was used at).
    const packet = (status: string, seconds: number, extra: string[] = []) =>
      radclient(radius.acctPort, 'acct', NAS_SECRET, [
        `User-Name = "${username}"`,
        `Acct-Status-Type = ${status}`,
        'Acct-Session-Id = "acct-buffered"',
        `Class = ${accept.attributes['Class']}`,
        `Calling-Station-Id = "${MAC}"`,
        'NAS-Identifier = "other-nas"',
        `Acct-Session-Time = ${seconds}`,
        `Acct-Input-Octets = ${seconds * 50}`,
        `Acct-Output-Octets = ${seconds * 200}`,
        ...extra,
      ]);
    for (const [status, seconds, extra] of [
      ['Start', 0, []],
      ['Interim-Update', 60, []],
      ['Interim-Update', 120, []],
      ['Stop', 180, ['Acct-Terminate-Cause = Idle-Timeout']],
    ] as const) {
      t.is((await packet(status, seconds, [...extra])).code, 'Accounting-Response', `${status} answered by FreeRADIUS while the gateway service refuses`);
    }
    // Four refused as they came (so buffered), then the replay's first entry refused twice (4 s apart).
    await waitFor(
      () => gate.refused,
      (refused) => refused >= 6,
      { timeoutMs: 30_000 },
    );
    t.true(radius.buffered().length > 0, 'kept in the buffer');
    t.is((await gateway.connection(sessionId)).body['state'], 'NONE', 'nothing reached the gateway service yet');

    gate.mode = 'hold-first-interim';
    const outageEnded = Date.now();
    await radius.drained(60_000);
    t.deepEqual(
      gate.forwarded,
      [
        ['Start', 0],
        ['Interim-Update', 60],
        ['Interim-Update', 60],
        ['Interim-Update', 120],
        ['Stop', 180],
      ],
      'in order; the Interim answered too late came again',
    );
    const connection = (await gateway.connection(sessionId)).body;
    t.like(connection, { state: 'DISCONNECTED', connected: false, nasId: NAS, inputOctets: 9000, outputOctets: 36000, sessionTime: 180 });
    // The replay adds the time an entry waited to Acct-Delay-Time: the connection's times
    // are when the NAS sent its packets (during the outage, seconds before it ended), not the replay's.
    for (const time of ['startedAt', 'stoppedAt'] as const)
      t.true(
        Date.parse(String(connection[time])) <= outageEnded - 2000,
        `${time} ${String(connection[time])} is during the outage (ended ${new Date(outageEnded).toISOString()})`,
      );
    t.is((await db.query('SELECT 1 FROM connections WHERE session_id = $1', [sessionId])).length, 1);
  },
);

test.serial('an Accounting-Request the gateway service answers slower than FreeRADIUS waits is buffered, replayed and counted once', async (t) => {
  const { gateway, gate, radius, sessionId, username, password } = await setup(t);
  const accept = await radclient(radius.authPort, 'auth', NAS_SECRET, [
    `User-Name = "${username}"`,
    `User-Password = "${password}"`,
    `Calling-Station-Id = "${MAC}"`,
  ]);
  const packet = (status: string, seconds: number) => [
    `User-Name = "${username}"`,
    `Acct-Status-Type = ${status}`,
    'Acct-Session-Id = "acct-slow"',
    `Class = ${accept.attributes['Class']}`,
    `Acct-Session-Time = ${seconds}`,
    `Acct-Input-Octets = ${seconds * 50}`,
  ];
  t.is((await radius.acct(packet('Start', 0))).code, 'Accounting-Response');
  gate.mode = 'hold-first-interim';
  t.is((await radclient(radius.acctPort, 'acct', NAS_SECRET, packet('Interim-Update', 60))).code, 'Accounting-Response', 'answered once buffered');
  await radius.drained(60_000);
  t.deepEqual(
    gate.forwarded,
    [
      ['Start', 0],
      ['Interim-Update', 60],
      ['Interim-Update', 60],
    ],
    'the slow answer recorded it, and the replay brought it again',
  );
  t.like((await gateway.connection(sessionId)).body, { state: 'CONNECTED', inputOctets: 3000, sessionTime: 60 });
});

test.serial('a packet the gateway service refuses for good (4xx) is answered and not buffered', async (t) => {
  const { gate, radius } = await setup(t);
  const appeared: string[] = [];
  const watcher = watch(radius.bufferDir, (_event, name) => appeared.push(String(name)));
  t.teardown(() => watcher.close());
  gate.mode = 'bad-request';
  t.is(
    (await radclient(radius.acctPort, 'acct', NAS_SECRET, ['User-Name = "someone"', 'Acct-Status-Type = Start', 'Acct-Session-Id = "acct-refused"'])).code,
    'Accounting-Response',
  );
  t.is(gate.refused, 1);
  t.deepEqual([...radius.buffered(), ...appeared], [], 'nothing buffered: it will never be taken');
});

/** Every file in the buffer folder, with its content. */
const bufferFiles = (dir: string) =>
  readdirSync(dir).map((name) => ({ name, mode: statSync(join(dir, name)).mode & 0o777, text: readFileSync(join(dir, name), 'utf8') }));
/** The attribute names of the buffer's entries (a detail entry: a timestamp line, then one tab-indented `Name = value` per line). */
const entryAttributes = (text: string) => new Set([...text.matchAll(/^\t([A-Za-z0-9-]+) = /gm)].map((match) => match[1]!));

test.serial(
  'while the gateway service answers, nothing rests on disk; during an outage only the filtered attributes, 0600 in a 0700 folder, removed once replayed',
  async (t) => {
    const { db, gateway, gate, radius, sessionId, username, password } = await setup(t);
    const accept = await radclient(radius.authPort, 'auth', NAS_SECRET, [
      `User-Name = "${username}"`,
      `User-Password = "${password}"`,
      `Calling-Station-Id = "${MAC}"`,
    ]);
    t.is(accept.code, 'Access-Accept');
    const packet = (status: string, acctSessionId: string, withClass = true) => [
      `User-Name = "${username}"`,
      `Acct-Status-Type = ${status}`,
      `Acct-Session-Id = "${acctSessionId}"`,
      ...(withClass ? [`Class = ${accept.attributes['Class']}`] : []),
      `Calling-Station-Id = "${MAC}"`,
      'Framed-IP-Address = 10.1.0.23',
      'NAS-Identifier = "chilli-lobby"',
      'Acct-Session-Time = 60',
      'Acct-Input-Octets = 1000',
    ];
    // Every file that appears in the buffer folder, even one replayed and deleted at once.
    const appeared: string[] = [];
    const watcher = watch(radius.bufferDir, (_event, name) => appeared.push(String(name)));
    t.teardown(() => watcher.close());
    for (const status of ['Start', 'Interim-Update', 'Stop']) t.is((await radius.acct(packet(status, 'acct-direct'))).code, 'Accounting-Response');
    t.like((await gateway.connection(sessionId)).body, { state: 'DISCONNECTED', inputOctets: 1000 });
    t.deepEqual([...radius.buffered(), ...appeared], [], 'normal operation: no buffer file at all, not even for a moment');
    watcher.close();
    t.is(statSync(radius.bufferDir).mode & 0o777, 0o700);

    gate.mode = 'refuse';
    t.is((await radclient(radius.acctPort, 'acct', NAS_SECRET, packet('Start', 'acct-outage'))).code, 'Accounting-Response');
    t.is((await radclient(radius.acctPort, 'acct', NAS_SECRET, packet('Start', 'acct-outage-no-class', false))).code, 'Accounting-Response');
    const files = await waitFor(
      () => bufferFiles(radius.bufferDir),
      (found) => found.some((file) => file.text.includes('acct-outage-no-class')),
    );
    for (const file of files) {
      t.is(file.mode, 0o600, file.name);
      t.false(
        file.text.includes(MAC) || file.text.includes('AA:BB') || file.text.includes('10.1.0.23') || file.text.includes('chilli-lobby'),
        'no MAC, address or NAS-Identifier of the NAS on disk',
      );
      const entries = file.text.split(/\n(?=\S)/).filter((entry) => entry.includes('Acct-Session-Id'));
      for (const entry of entries) {
        // FreeRADIUS's detail writer adds where the packet came from and when (Packet-*, Timestamp).
        const extra = [...entryAttributes(entry)].filter(
          (name) => !(BUFFERED_ATTRIBUTES as readonly string[]).includes(name) && !/^(Packet-|Timestamp$)/.test(name),
        );
        t.deepEqual(extra, [], 'only the filtered attributes');
        t.false(entry.includes(username), 'no User-Name on disk (for a returning device it is the MAC)');
        // An entry without Class is found by its credential: it keeps the user name's SHA-256 only.
        t.is(
          entry.includes(`${BUFFERED_USERNAME_HASH} = "${usernameHash(username)}"`),
          entry.includes('acct-outage-no-class'),
          'the hash only in the entry without Class',
        );
      }
    }
    gate.mode = 'pass';
    await radius.drained(60_000);
    t.deepEqual(radius.buffered(), [], 'replayed entries are removed');
    const replayed = await db.query('SELECT acct_session_id FROM connections WHERE session_id = $1 ORDER BY acct_session_id', [sessionId]);
    t.deepEqual(
      replayed.map((row) => row['acct_session_id']),
      ['acct-direct', 'acct-outage', 'acct-outage-no-class'],
      "both replayed entries reached the session: the one without Class by its user name's hash",
    );
  },
);

test.serial('an Access-Request the gateway service does not answer in time gets no answer (the NAS asks again), never an Access-Reject', async (t) => {
  const { gate, radius, username, password } = await setup(t);
  gate.mode = 'hold-authorize';
  const answer = await radclient(
    radius.authPort,
    'auth',
    NAS_SECRET,
    [`User-Name = "${username}"`, `User-Password = "${password}"`, `Calling-Station-Id = "${MAC}"`],
    6,
  );
  t.is(answer.code, 'none');
});

test('regenerating the configuration (a restart of make up) keeps the accounting not yet replayed, and replaces everything else', (t) => {
  const dir = join(tempDir(t, 'wifi-radius-'), 'freeradius');
  const write = (restKey: string) =>
    writeFreeradiusConfig({
      dir,
      role: 'server',
      authPort: 1812,
      acctPort: 1813,
      restUrl: 'http://127.0.0.1:3004',
      restKey,
      clients: [{ name: NAS, address: '127.0.0.1', secret: NAS_SECRET }],
    });
  write('first-key-0001');
  writeFileSync(join(accountingBuffer(dir), 'detail.work'), 'an entry not yet replayed\n');
  writeFileSync(join(dir, 'run', 'radiusd.pid'), '1');
  write('second-key-0002');
  t.is(readFileSync(join(accountingBuffer(dir), 'detail.work'), 'utf8'), 'an entry not yet replayed\n');
  t.false(existsSync(join(dir, 'run', 'radiusd.pid')));
  t.regex(readFileSync(join(dir, 'sites-enabled', 'wifi'), 'utf8'), /second-key-0002/);
});
