import { createHash } from 'node:crypto';
import { createSocket } from 'node:dgram';
import test from 'ava';
import { chilliBinary, COOVA_TOOLS, RELEASES, startChilli } from '../../scripts/coova/harness.js';
import { waitFor } from '../../scripts/opennds/command.js';
import { requireTools } from '../helpers/host-tools.js';
import { get, reachesInternet } from '../opennds/client-http.js';

// A real CoovaChilli whose RADIUS server accepts the login (a stand-in): the client's traffic
// passes chilli to the internet namespace, and chilli's accounting (Start, then Interim-Update
// with the octets) reaches RADIUS. No platform needed: it guards the namespaces and the client
// the venue test (test/e2e/coova/venue.test.ts) builds on, in seconds.
requireTools([...COOVA_TOOLS, '/dev/net/tun', ...RELEASES.flatMap((release) => [chilliBinary(release), chilliBinary(release, 'chilli_query')])], 'scripts/ensure-coova.sh installs and builds them (as root; make test runs it)');
if (process.getuid?.() !== 0) throw new Error('the CoovaChilli tests need root (network namespaces, chilli\'s tun device)');

const RADIUS_SECRET = 'accepting-radius-secret';
const UAM_SECRET = 'accepting-uam-secret';

interface Accounting {
  status: number;
  inputOctets: number;
  outputOctets: number;
}

/** The 32-bit value of attribute `type`, if present (RFC 2865 attribute TLVs after the 20-byte header). */
function integer(packet: Buffer, type: number): number | undefined {
  for (let at = 20; at + 2 <= packet.length && packet[at + 1]! >= 2; at += packet[at + 1]!) {
    if (packet[at] === type && packet[at + 1] === 6) return packet.readUInt32BE(at + 2);
  }
  return undefined;
}

/** Accepts every Access-Request (Session-Timeout 3600) and answers every Accounting-Request, keeping what they counted. */
async function acceptingRadius(secret: string): Promise<{ port: number; accounting: Accounting[]; close(): void }> {
  const socket = createSocket('udp4');
  const accounting: Accounting[] = [];
  socket.on('message', (packet, from) => {
    if (packet.length < 20 || (packet[0] !== 1 && packet[0] !== 4)) return;
    if (packet[0] === 4) accounting.push({ status: integer(packet, 40) ?? 0, inputOctets: integer(packet, 42) ?? 0, outputOctets: integer(packet, 43) ?? 0 });
    const attributes = packet[0] === 1 ? Buffer.from([27, 6, 0, 0, 0x0e, 0x10]) : Buffer.alloc(0);
    const header = Buffer.from([packet[0] === 1 ? 2 : 5, packet[1]!, 0, 20 + attributes.length]);
    const authenticator = createHash('md5').update(header).update(packet.subarray(4, 20)).update(attributes).update(secret).digest();
    socket.send(Buffer.concat([header, authenticator, attributes]), from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { port: socket.address().port, accounting, close: () => socket.close() };
}

const START = 1;
const INTERIM = 3;

for (const release of RELEASES) {
  test.serial(`CoovaChilli ${release}: after an accepted /logon the client's traffic passes chilli; Start, then Interim-Update with the octets, reach RADIUS`, async (t) => {
    const radius = await acceptingRadius(RADIUS_SECRET);
    t.teardown(() => radius.close());
    const chilli = await startChilli({
      release, nasId: 'coova-accepting', uamSecret: UAM_SECRET, radiusSecret: RADIUS_SECRET, nasIp: '127.0.0.32', coaPort: 13732, subnet: 32,
      portal: 'http://localhost:3998', radius: { server: '127.0.0.1', auth: radius.port, acct: radius.port },
    });
    t.teardown(() => chilli.stop());
    await chilli.lease();
    const captive = await waitFor('chilli redirects a captive page', async () => {
      const answer = await get(chilli.client, chilli.internetUrl);
      return answer.status === 302 ? answer : undefined;
    }, 10_000, 200);
    const challenge = /challenge=([0-9a-f]{32})/.exec(captive.location)?.[1] ?? '';
    const md5 = (...parts: (Buffer | string)[]) => parts.reduce((hash, part) => hash.update(part), createHash('md5')).digest();
    const response = md5(Buffer.from([0]), 'one-time-password', md5(Buffer.from(challenge, 'hex'), UAM_SECRET)).toString('hex');
    const logon = await get(chilli.client, `${chilli.uamOrigin}/logon?username=wifi-accepted&response=${response}`);
    t.regex(logon.location, /res=success/);
    const through = await waitFor('the client reaches the internet through chilli', async () => {
      const answer = await get(chilli.client, chilli.internetUrl);
      return reachesInternet(answer) ? answer : undefined;
    }, 10_000, 200).catch(() => undefined);
    t.truthy(through, `no packet of the client's passed chilli\nchilli output:\n${chilli.output().slice(-2000)}`);
    await waitFor('Accounting-Start', async () => (radius.accounting.some((a) => a.status === START) ? true : undefined), 10_000, 100);
    // RADIUS cannot ask for an interval under 60 s; chilli_query can (as the venue test does).
    await chilli.query('update', 'ip', chilli.client.ip, 'interiminterval', '1', 'sessiontimeout', '3600');
    const interim = await waitFor('an Interim-Update with octets', async () => radius.accounting.find((a) => a.status === INTERIM && a.inputOctets > 0 && a.outputOctets > 0), 10_000, 100);
    t.log(`chilli ${release}: Interim-Update in ${interim.inputOctets} / out ${interim.outputOctets} octets`);
  });
}
