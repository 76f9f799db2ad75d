import { randomUUID } from 'node:crypto';
import test from 'ava';
import { deviceRefFor } from '../../../edge/index.js';
import { GatewayConfig } from '../../../services/gateway/config.js';
import { waitFor } from '../../../scripts/opennds/command.js';
import { get, post } from '../../opennds/client-http.js';
import { enforcementSkipReason } from '../../opennds/host-support.js';
import { startPortalFas, type PortalFas } from '../../opennds/portal-fas.js';

// openNDS's running counters count against the allowance while the client runs (decision 0109):
// router/revocation-poll.sh, asked every second here (OPENNDS_USAGE_SECONDS=1), reads `ndsctl json`
// of Debian's openNDS 9.10 and reports each client's KiB counters; the gateway writes them to the
// connection, and the usage feed moves the person's counter. The customer's laptop (a second
// session of the same person, its usage reported to the session service as the gateway would)
// uses 600 KiB of a 1 MiB day just after the phone signed in behind openNDS with no quota in the
// QoS table, so openNDS's own download quota is the whole 1 MiB left at that sign-in. A download is measured
// against openNDS's counters (kB rounding and headers), the person's counter moves without the
// phone's session ending, and once the phone's own use plus the laptop's passes the allowance
// the platform cuts it off (its own quota still far off: the platform's counter acted), and a
// new sign-in is refused with the renewal. The portal, session and gateway services run in this
// process (fas-platform.ts).
const skipReason = await enforcementSkipReason();
const KIB = 1024;
const ALLOWANCE = { dataBytes: 1024 * KIB, timeSeconds: null, period: 'DAY' as const };
const LAPTOP_BYTES = 600 * KIB;
/** Measured, and the first part of the phone's use. */
const FIRST_BYTES = 200_000;
/** Takes the person past the allowance with the phone's own download still below its openNDS quota. */
const SECOND_BYTES = 300_000;
const UPLOAD_BYTES = 100_000;

let nds: PortalFas | undefined;

if (skipReason !== undefined) {
  test.skip(`openNDS: running counters count against the allowance: ${skipReason}`, (t) => t.pass());
} else {
  test.before(async () => {
    nds = await startPortalFas({ clients: 1, inProcess: true, allowance: ALLOWANCE, gateway: { usageSeconds: 1, noQuota: true } });
  });

  test.after.always(async () => {
    await nds?.stop();
  });

  /** The laptop: a second GRANTED session of the same customer whose connection used `octets`, reported as the gateway's usage feed does. */
  async function laptopUsed(platform: PortalFas['platform'], octets: number): Promise<void> {
    const deviceRef = deviceRefFor(GatewayConfig.parse({}).DEVICE_REF_KEY, 'demo-nas', '02-00-00-00-4c-02');
    const portalKey = { 'X-API-Key': 'dev-session-portal-key', 'content-type': 'application/json' };
    const created = (await (
      await fetch(`${platform.session}/api/v1/sessions`, {
        method: 'POST',
        headers: portalKey,
        body: JSON.stringify({ subjectId: platform.subjectId, deviceRef }),
      })
    ).json()) as { sessionId: string };
    const grant = await fetch(`${platform.session}/api/v1/sessions/${created.sessionId}/grant`, {
      method: 'POST',
      headers: portalKey,
      body: JSON.stringify({
        entitlementId: `ent-${randomUUID()}`,
        entitlementType: 'WIFI_CUSTOMER_BASIC',
        tier: 'BASIC',
        qosClass: 'STANDARD',
        validUntil: new Date(Date.now() + 3_600_000).toISOString(),
        deviceSlots: 4,
        allowance: ALLOWANCE,
      }),
    });
    if (grant.status !== 200) throw new Error(`laptop grant: ${grant.status} ${await grant.text()}`);
    const usage = await fetch(`${platform.session}/api/v1/usage`, {
      method: 'POST',
      headers: { 'X-API-Key': 'dev-session-gateway-key', 'content-type': 'application/json' },
      body: JSON.stringify({
        reports: [{ connectionKey: randomUUID(), sessionId: created.sessionId, at: new Date().toISOString(), octets, sessionTime: 60 }],
      }),
    });
    if (usage.status !== 200) throw new Error(`laptop usage: ${usage.status} ${await usage.text()}`);
  }

  test.serial(
    "an openNDS client's running counters (measured against real traffic) move the person's counter while it runs; its own use plus another device's past the allowance cuts it off before its quota, and a new sign-in is refused with the renewal",
    async (t) => {
      if (nds === undefined) throw new Error('not started');
      const { client, signIn, untilConnection, connectionOf, atGateway, platform, harness } = nds;
      t.teardown(() => {
        if (!t.passed) t.log(`openNDS output (MACs removed):\n${harness.gateway.output().slice(-4000)}`);
      });
      const host = client(0);
      const internet = `http://${harness.topology.internet.ip}`;
      const bytesRemaining = async (sessionId: string) => {
        const read = (await (
          await fetch(`${platform.session}/api/v1/sessions/${sessionId}`, { headers: { 'X-API-Key': 'dev-session-tools-key' } })
        ).json()) as { remaining?: { bytesRemaining: number | null } | null };
        return read.remaining?.bytesRemaining ?? null;
      };
      const kib = async (field: 'download_this_session' | 'upload_this_session') => Number((await atGateway(host))[field]);

      const { sessionId } = await signIn(host);
      await nds.untilThrough(host);
      t.is(Number((await atGateway(host))['download_quota']), ALLOWANCE.dataBytes / KIB, "openNDS's own quota: the whole day's data, left at the sign-in");
      // The laptop's use after the phone's sign-in: openNDS's quota for the phone stays as it was.
      await laptopUsed(platform, LAPTOP_BYTES);

      // openNDS's counters against real traffic: a known download and upload through the client.
      const [down0, up0] = [await kib('download_this_session'), await kib('upload_this_session')];
      t.is((await get(host, `${internet}/bytes/${FIRST_BYTES}`)).status, 200);
      const uploaded = await post(host, `${internet}/upload`, UPLOAD_BYTES);
      t.regex(uploaded.body, new RegExp(`received ${UPLOAD_BYTES}`), 'the upload reached the server whole');
      const [down1, up1] = [await kib('download_this_session'), await kib('upload_this_session')];
      const counted = { down: (down1 - down0) * KIB, up: (up1 - up0) * KIB };
      t.log(
        `openNDS counted ${counted.down} bytes for a ${FIRST_BYTES}-byte download (x${(counted.down / FIRST_BYTES).toFixed(3)}) and ${counted.up} bytes for a ${UPLOAD_BYTES}-byte upload`,
      );
      // The counter takes whole packets (IP and TCP headers, the HTTP answer's head, the other
      // request's acknowledgements) and is printed in whole KiB: at least the payload less one
      // KiB, at most 6% and 8 KiB more.
      t.true(counted.down >= FIRST_BYTES - KIB && counted.down <= FIRST_BYTES * 1.06 + 8 * KIB, `download counted within tolerance: ${counted.down}`);

      // Without the phone's session ending, its counters reach the connection and the person's counter.
      const running = await waitFor(
        "the phone's running counters reach the platform",
        async () => {
          const connection = await connectionOf(sessionId);
          return Number(connection['inputOctets']) >= down1 * KIB ? connection : undefined;
        },
        15_000,
        200,
      );
      t.is(running['state'], 'CONNECTED', 'the phone is still online');
      const left = await waitFor(
        "the person's counter moves",
        async () => {
          const value = await bytesRemaining(sessionId);
          return value !== null && value <= ALLOWANCE.dataBytes - LAPTOP_BYTES - down1 * KIB ? value : undefined;
        },
        15_000,
        200,
      );
      t.true(left > 0, `some left: ${left} bytes`);

      // The phone's own use takes the person past the allowance; its openNDS quota is still far off.
      await get(host, `${internet}/bytes/${SECOND_BYTES}`);
      await nds.untilCutOff(host, 20_000);
      const ended = await untilConnection(sessionId, 'DISCONNECTED');
      t.like(ended, { disconnect: 'ACKED' }, "the platform's revocation (openNDS's own quota end leaves no disconnect)");
      const phoneDown = Number(ended['inputOctets']);
      t.log(`the phone's connection after the cut-off: ${ended['inputOctets']} in, ${ended['outputOctets']} out`);
      // What BinAuth's end notice carried (decision 0106 once read 0 octets after a revocation).
      t.log(`BinAuth's log at the gateway:\n${(await nds.binauthLog()).join('\n')}`);
      t.true(phoneDown >= Number(running['inputOctets']), 'the end keeps the greatest totals: the running counters are not lost');
      t.true(phoneDown < ALLOWANCE.dataBytes, "the phone's own download stayed below its openNDS quota: the platform's counter acted");
      t.is(await bytesRemaining(sessionId), 0, 'nothing left today');

      const again = await signIn(host).then(
        () => 'signed in',
        (error: unknown) => String(error),
      );
      t.regex(again, /403.*ALLOWANCE_USED_UP.*renewsAt/s, 'refused, naming when the allowance renews');
    },
  );
}
