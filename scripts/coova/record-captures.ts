// Records what a real CoovaChilli (1.8 and 1.9, scripts/ensure-coova.sh) sends the portal, for
// test/edge/controllers/captures/coovachilli.json:
//   node --import tsx scripts/coova/record-captures.ts > test/edge/controllers/captures/coovachilli.json
// Each release runs in its namespaces (harness.ts) with a RADIUS stand-in on loopback that
// rejects the first login and accepts the next (Session-Timeout 3600), and a client (curl in its
// namespace) that opens a page, chilli's /prelogin, /logon (refused, then accepted), /prelogin
// again and /logoff: each redirect's Location is one capture. Needs root.
import { createHash } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { run } from '../opennds/command.js';
import { RELEASES, startChilli, type ChilliClient } from './harness.js';

const RADIUS_SECRET = 'capture-radius-secret';
export const CAPTURE_UAM_SECRET = 'capture-uam-secret';
const PORTAL = 'http://localhost:3000';

async function standInRadius(): Promise<{ port: number; close(): void }> {
  const socket = createSocket('udp4');
  let logins = 0;
  socket.on('message', (packet, from) => {
    if (packet.length < 20) return;
    const code = packet[0] === 1 ? (logins++ === 0 ? 3 : 2) : packet[0] === 4 ? 5 : 0;
    if (code === 0) return;
    // Session-Timeout (27) = 3600 on an Accept.
    const attributes = code === 2 ? Buffer.from([27, 6, 0, 0, 0x0e, 0x10]) : Buffer.alloc(0);
    const header = Buffer.from([code, packet[1]!, 0, 20 + attributes.length]);
    const authenticator = createHash('md5').update(header).update(packet.subarray(4, 20)).update(attributes).update(RADIUS_SECRET).digest();
    socket.send(Buffer.concat([header, authenticator, attributes]), from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { port: socket.address().port, close: () => socket.close() };
}

async function location(client: ChilliClient, url: string): Promise<string> {
  const answer = await run('ip', ['netns', 'exec', client.ns, 'curl', '-s', '-m', '5', '-o', '/dev/null', '-w', '%{http_code} %{redirect_url}', url]);
  const [status = '0', where = ''] = answer.stdout.split(' ');
  return status === '302' ? where : '';
}

const md5 = (...parts: (Buffer | string)[]) => parts.reduce((hash, part) => hash.update(part), createHash('md5')).digest();
const responseTo = (url: string) =>
  md5(Buffer.from([0]), 'one-time-password', md5(Buffer.from(/challenge=([0-9a-f]{32})/.exec(url)?.[1] ?? '', 'hex'), CAPTURE_UAM_SECRET)).toString('hex');

const captures: { release: string; state: string; what: string; url: string }[] = [];
for (const [index, release] of RELEASES.entries()) {
  const radius = await standInRadius();
  const chilli = await startChilli({
    release,
    nasId: `coova-capture`,
    uamSecret: CAPTURE_UAM_SECRET,
    radiusSecret: RADIUS_SECRET,
    nasIp: '127.0.0.31',
    coaPort: 13731,
    subnet: release === '1.8' ? 18 : 19,
    portal: PORTAL,
    radius: { server: '127.0.0.1', auth: radius.port, acct: radius.port + 1 + index },
  });
  try {
    await chilli.lease();
    const add = (state: string, what: string, url: string) => {
      if (url !== '') captures.push({ release, state, what, url });
    };
    let first = '';
    for (let tries = 0; first === '' && tries < 20; tries++) first = await location(chilli.client, chilli.internetUrl);
    add('login', "res=notyet: a new device's first page", first);
    add('login', "res=notyet: the same device's next page", await location(chilli.client, chilli.internetUrl));
    const prelogin = await location(chilli.client, `${chilli.uamOrigin}/prelogin`);
    add('login', "res=notyet from chilli's own /prelogin page", prelogin);
    add(
      'failed',
      'res=failed after RADIUS rejected the /logon',
      await location(chilli.client, `${chilli.uamOrigin}/logon?username=wifi-capture&response=${responseTo(prelogin)}`),
    );
    const again = await location(chilli.client, `${chilli.uamOrigin}/prelogin`);
    add(
      'success',
      'res=success after RADIUS accepted the /logon (Session-Timeout 3600)',
      await location(chilli.client, `${chilli.uamOrigin}/logon?username=wifi-capture&response=${responseTo(again)}`),
    );
    add('already', 'res=already: /prelogin while logged in', await location(chilli.client, `${chilli.uamOrigin}/prelogin`));
    add('logoff', 'res=logoff after /logoff', await location(chilli.client, `${chilli.uamOrigin}/logoff`));
  } finally {
    await chilli.stop();
    radius.close();
  }
}
const macOf = (release: string) => `02-63-76-00-${(release === '1.8' ? 18 : 19).toString(16).toUpperCase()}-11`;
process.stdout.write(
  `${JSON.stringify(
    {
      controller: 'coovachilli',
      source:
        'recorded from the real CoovaChilli 1.8 and 1.9 (built from their release sources by scripts/ensure-coova.sh) by scripts/coova/record-captures.ts: chilli in network namespaces, a client opening a page, /prelogin, /logon (a RADIUS stand-in rejecting, then accepting) and /logoff; each url is the Location chilli answered',
      uamSecret: CAPTURE_UAM_SECRET,
      portalUrl: `${PORTAL}/gateway`,
      clientMacs: { '1.8': macOf('1.8'), '1.9': macOf('1.9') },
      captures,
    },
    null,
    2,
  )}\n`,
);
