import { createHash } from 'node:crypto';
import { createSocket } from 'node:dgram';
import test from 'ava';
import { chilliBinary, COOVA_TOOLS, RELEASES, startChilli } from '../../scripts/coova/harness.js';
import { CONTROLLER_PROFILES } from '../../edge/controllers/index.js';
import { arrivalIntegrityHolds } from '../../edge/index.js';
import { requireTools } from '../helpers/host-tools.js';
import { uamLogon } from './uam-logon.js';
import { get } from '../opennds/client-http.js';

// A real CoovaChilli whose RADIUS server refuses every login (a stand-in answering
// Access-Reject, as FreeRADIUS does for a spent or unknown one-time credential): what each
// release then tells the browser. 1.8 redirects to the portal with res=failed&reason=reject and a
// new challenge, which the portal reads as "failed, try again"; 1.9 sends no HTTP answer at all
// (its redir.c logs "Unknown res in switch"), so the person sees the browser's own error. No
// platform needed: root and the programs of scripts/ensure-coova.sh.
requireTools(
  [...COOVA_TOOLS, '/dev/net/tun', ...RELEASES.map((release) => chilliBinary(release))],
  'scripts/ensure-coova.sh installs and builds them (as root; make test runs it)',
);
if (process.getuid?.() !== 0) throw new Error("the CoovaChilli tests need root (network namespaces, chilli's tun device)");

const RADIUS_SECRET = 'refusing-radius-secret';
const UAM_SECRET = 'refusing-uam-secret';

/** Answers every Access-Request with an Access-Reject signed for `secret` (RFC 2865 section 3). */
async function rejectingRadius(secret: string): Promise<{ port: number; requests: number[]; close(): void }> {
  const socket = createSocket('udp4');
  const requests: number[] = [];
  socket.on('message', (packet, from) => {
    if (packet.length < 20 || packet[0] !== 1) return;
    requests.push(packet[1]!);
    const header = Buffer.from([3, packet[1]!, 0, 20]);
    const authenticator = createHash('md5').update(header).update(packet.subarray(4, 20)).update(secret).digest();
    socket.send(Buffer.concat([header, authenticator]), from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { port: socket.address().port, requests, close: () => socket.close() };
}

for (const release of RELEASES) {
  test.serial(
    `CoovaChilli ${release}: a /logon its RADIUS server rejects ${release === '1.8' ? 'is sent back to the portal as res=failed, which the portal reads as failed with a new challenge' : "gets no HTTP answer at all (a 1.9 defect: the person sees the browser's error)"}`,
    async (t) => {
      const radius = await rejectingRadius(RADIUS_SECRET);
      t.teardown(() => radius.close());
      const chilli = await startChilli({
        release,
        nasId: 'coova-refusing',
        uamSecret: UAM_SECRET,
        radiusSecret: RADIUS_SECRET,
        nasIp: '127.0.0.30',
        coaPort: 13730,
        subnet: 30,
        portal: 'http://localhost:3999',
        radius: { server: '127.0.0.1', auth: radius.port, acct: radius.port + 1 },
      });
      t.teardown(() => chilli.stop());
      await chilli.lease();
      const { url, challenge } = await uamLogon(chilli, 'wifi-spent', 'spent-password', UAM_SECRET);
      const logon = await get(chilli.client, url);
      t.is(radius.requests.length > 0, true, 'chilli asked RADIUS');
      if (release === '1.9') {
        t.is(logon.status, 0, '1.9 answers a rejected /logon with nothing');
        return;
      }
      t.is(logon.status, 302);
      const query = Object.fromEntries(new URL(logon.location).searchParams);
      t.like(query, { res: 'failed', reason: 'reject' });
      const read = CONTROLLER_PROFILES.coovachilli.arrival.read(query);
      t.like(read, { ok: true, arrival: { state: 'failed' } });
      if (read.ok) t.not(read.arrival.challenge, challenge.toLowerCase(), 'a new challenge to try again with');
      t.true(arrivalIntegrityHolds('coova-md', logon.location, UAM_SECRET), 'signed like every redirect');
    },
  );
}
