import { createHash } from 'node:crypto';
import { createSocket } from 'node:dgram';
import test from 'ava';
import { chilliBinary, COOVA_TOOLS, RELEASES, startChilli } from '../../scripts/coova/harness.js';
import { waitFor } from '../../scripts/opennds/command.js';
import { requireTools } from '../helpers/host-tools.js';
import { uamLogon } from './uam-logon.js';
import { get, reachesInternet } from '../opennds/client-http.js';

// A real CoovaChilli with macauth whose RADIUS server (a stand-in) refuses the device's MAC and
// accepts the login: the client's traffic passes chilli to the internet namespace, chilli's
// accounting (Start, then Interim-Update with the octets) reaches RADIUS, and a Disconnect-Request
// sent where the platform sends it (the registry's address and coaPort, the relay) is ACKed and
// leaves the device captive. No platform needed: it guards the namespaces, the relay and the
// client the venue test (test/e2e/coova/venue.test.ts) builds on, in seconds.
requireTools(
  [...COOVA_TOOLS, '/dev/net/tun', ...RELEASES.flatMap((release) => [chilliBinary(release), chilliBinary(release, 'chilli_query')])],
  'scripts/ensure-coova.sh installs and builds them (as root; make test runs it)',
);
if (process.getuid?.() !== 0) throw new Error("the CoovaChilli tests need root (network namespaces, chilli's tun device)");

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

/** The text of attribute `type`, if present. */
function text(packet: Buffer, type: number): string | undefined {
  for (let at = 20; at + 2 <= packet.length && packet[at + 1]! >= 2; at += packet[at + 1]!) {
    if (packet[at] === type) return packet.subarray(at + 2, at + packet[at + 1]!).toString('utf8');
  }
  return undefined;
}

/** Refuses an Access-Request for a MAC (macauth), accepts the rest (Session-Timeout 3600), answers every Accounting-Request, keeping what they counted. */
async function standInRadius(secret: string): Promise<{ port: number; macRequests: string[]; accounting: Accounting[]; close(): void }> {
  const socket = createSocket('udp4');
  const accounting: Accounting[] = [];
  const macRequests: string[] = [];
  socket.on('message', (packet, from) => {
    if (packet.length < 20 || (packet[0] !== 1 && packet[0] !== 4)) return;
    if (packet[0] === 4) accounting.push({ status: integer(packet, 40) ?? 0, inputOctets: integer(packet, 42) ?? 0, outputOctets: integer(packet, 43) ?? 0 });
    const byMac = packet[0] === 1 && /^([0-9A-F]{2}-){5}[0-9A-F]{2}$/i.test(text(packet, 1) ?? '');
    if (byMac) macRequests.push(text(packet, 1)!);
    const code = packet[0] === 4 ? 5 : byMac ? 3 : 2;
    const attributes = code === 2 ? Buffer.from([27, 6, 0, 0, 0x0e, 0x10]) : Buffer.alloc(0);
    const header = Buffer.from([code, packet[1]!, 0, 20 + attributes.length]);
    const authenticator = createHash('md5').update(header).update(packet.subarray(4, 20)).update(attributes).update(secret).digest();
    socket.send(Buffer.concat([header, authenticator, attributes]), from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { port: socket.address().port, macRequests, accounting, close: () => socket.close() };
}

/** A Disconnect-Request (RFC 5176) naming the user, sent as the gateway service sends it; resolves with the answer's code. */
async function disconnect(address: string, port: number, secret: string, userName: string): Promise<number> {
  const socket = createSocket('udp4');
  try {
    const attributes = Buffer.concat([Buffer.from([1, 2 + Buffer.byteLength(userName)]), Buffer.from(userName)]);
    const header = Buffer.from([40, 7, 0, 20 + attributes.length]);
    const authenticator = createHash('md5').update(header).update(Buffer.alloc(16)).update(attributes).update(secret).digest();
    const answer = new Promise<number>((resolve) => socket.once('message', (packet) => resolve(packet[0] ?? 0)));
    socket.send(Buffer.concat([header, authenticator, attributes]), port, address);
    return await Promise.race([answer, new Promise<number>((resolve) => setTimeout(() => resolve(0), 5000))]);
  } finally {
    socket.close();
  }
}

const START = 1;
const INTERIM = 3;
const NAS = { nasIp: '127.0.0.32', coaPort: 13732 };
const USER = 'wifi-accepted';

for (const release of RELEASES) {
  test.serial(
    `CoovaChilli ${release}: macauth asks RADIUS first; after an accepted /logon the client's traffic passes chilli; Start, then Interim-Update with the octets, reach RADIUS; a Disconnect-Request through the relay is ACKed and the device is captive again`,
    async (t) => {
      const radius = await standInRadius(RADIUS_SECRET);
      t.teardown(() => radius.close());
      const chilli = await startChilli({
        release,
        nasId: 'coova-accepting',
        uamSecret: UAM_SECRET,
        radiusSecret: RADIUS_SECRET,
        ...NAS,
        subnet: 32,
        macAuth: true,
        portal: 'http://localhost:3998',
        radius: { server: '127.0.0.1', auth: radius.port, acct: radius.port },
      });
      t.teardown(() => chilli.stop());
      await chilli.lease();
      await waitFor("macauth: chilli asks RADIUS for the device's MAC first", async () => (radius.macRequests.length > 0 ? true : undefined), 5_000, 100);
      const logon = await get(chilli.client, (await uamLogon(chilli, USER, 'one-time-password', UAM_SECRET)).url);
      t.regex(logon.location, /res=success/);
      const through = await waitFor(
        'the client reaches the internet through chilli',
        async () => {
          const answer = await get(chilli.client, chilli.internetUrl);
          return reachesInternet(answer) ? answer : undefined;
        },
        10_000,
        200,
      ).catch(() => undefined);
      t.truthy(through, `no packet of the client's passed chilli\nchilli output:\n${chilli.output().slice(-2000)}`);
      await waitFor('Accounting-Start', async () => (radius.accounting.some((a) => a.status === START) ? true : undefined), 10_000, 100);
      // RADIUS cannot ask for an interval under 60 s; chilli_query can (as the venue test does).
      await chilli.query('update', 'ip', chilli.client.ip, 'interiminterval', '1', 'sessiontimeout', '3600');
      const interim = await waitFor(
        'an Interim-Update with octets',
        async () => radius.accounting.find((a) => a.status === INTERIM && a.inputOctets > 0 && a.outputOctets > 0),
        10_000,
        100,
      );
      t.log(`chilli ${release}: Interim-Update in ${interim.inputOctets} / out ${interim.outputOctets} octets`);
      t.is(await disconnect(NAS.nasIp, NAS.coaPort, RADIUS_SECRET, USER), 41, 'Disconnect-ACK');
      await waitFor('captive again', async () => ((await get(chilli.client, chilli.internetUrl)).status === 302 ? true : undefined), 10_000, 100);
    },
  );
}
