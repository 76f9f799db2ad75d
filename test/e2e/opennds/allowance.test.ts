import test from 'ava';
import { waitFor } from '../../../scripts/opennds/command.js';
import { get } from '../../opennds/client-http.js';
import { enforcementSkipReason } from '../../opennds/host-support.js';
import { startPortalFas, type PortalFas } from '../../opennds/portal-fas.js';
import { QUOTA_KB } from '../../opennds/fas-platform.js';

// A data allowance really stops traffic at Debian's openNDS 9.10 (the portal as its FAS, level 3):
// a customer with 100 kB left of the day signs in, openNDS gets a download quota capped at what
// is left (below the QoS row's own quota), a download past it cuts the client off at openNDS,
// openNDS's end (BinAuth) carries the usage to the person's counter, a second sign-in the same
// day leaves the client cut off, and once the services' clock passes midnight the same customer
// signs in and gets through. openNDS gives the client a new token after its quota ends it, and
// keeps that token while the client is not authorised again: the refused sign-in and the next
// day's present the same link, which the refusal leaves to the device (docs/decisions/0097).
// The portal, session and gateway services run in this process with their own stores, the
// session service and the portal on a clock the test moves (fas-platform.ts); the identity
// provider and the entitlement service are stood in (the entitlement carries the allowance).
const skipReason = await enforcementSkipReason();
const ALLOWANCE_KB = 100;
const DAY_MS = 86_400_000;

let nds: PortalFas | undefined;

if (skipReason !== undefined) {
  test.skip(`openNDS: a data allowance stops traffic: ${skipReason}`, (t) => t.pass());
} else {
  test.before(async () => {
    nds = await startPortalFas({
      clients: 1,
      inProcess: true,
      allowance: { dataBytes: ALLOWANCE_KB * 1024, timeSeconds: null, period: 'DAY' },
    });
    // A day's shift must leave the sessions valid: they are granted for three days.
    nds.platform.setValiditySeconds(3 * 86_400);
  });

  test.after.always(async () => {
    await nds?.stop();
  });

  test.serial(
    'traffic past the data allowance stops at openNDS (its quota capped at the data left), a second sign-in the same day stays cut off, the next day restores it',
    async (t) => {
      if (nds === undefined) throw new Error('not started');
      const { client, signIn, reaches, untilConnection, atGateway, platform, harness } = nds;
      t.teardown(() => {
        if (!t.passed) t.log(`openNDS output (MACs removed):\n${harness.gateway.output().slice(-4000)}`);
      });
      const host = client(0);
      const within = (what: Promise<void>) =>
        what.then(
          () => true,
          () => false,
        );
      const remaining = async (sessionId: string) => {
        const read = (await (
          await fetch(`${platform.session}/api/v1/sessions/${sessionId}`, { headers: { 'X-API-Key': 'dev-session-tools-key' } })
        ).json()) as { remaining?: { bytesRemaining: number | null } | null };
        return read.remaining?.bytesRemaining;
      };

      const { sessionId } = await signIn(host);
      t.true(await within(nds.untilThrough(host)), 'through after the sign-in');
      if (!t.passed) return;
      const held = await atGateway(host);
      t.is(Number(held['download_quota']), ALLOWANCE_KB, `the quota is the data left, below the QoS row's ${QUOTA_KB} kB`);

      const download = await get(host, `http://${harness.topology.internet.ip}/bytes/${ALLOWANCE_KB * 1024 * 3}`);
      t.log(`the download answered ${download.status}`);
      t.true(await within(nds.untilCutOff(host, 20_000)), 'openNDS cuts the client off once the allowance is used');
      if (!t.passed) return;
      t.like(await untilConnection(sessionId, 'DISCONNECTED'), { disconnect: null }, "openNDS's own end (BinAuth)");
      const counted = await waitFor('the usage is counted', async () => ((await remaining(sessionId)) === 0 ? true : undefined), 20_000, 200).catch(
        () => false,
      );
      t.true(counted, "openNDS's report reaches the counter: nothing left today");
      if (!t.passed) return;

      // The same day: the sign-in is refused, and the client stays cut off.
      const again = await signIn(host).then(
        () => 'signed in',
        (error: unknown) => String(error),
      );
      t.log(`a sign-in with nothing left: ${again.slice(0, 200)}`);
      // Five authmon polls (1 s each): a grant would have reached openNDS by then.
      const through = await waitFor('through after a refused sign-in', async () => ((await reaches(host)) ? true : undefined), 5_000, 250).catch(() => false);
      t.false(through, 'still cut off');
      if (!t.passed) return;
      const refusedToken = (await atGateway(host))['token'];

      // The next day (the services' clocks past midnight, the refused attempt's context expired):
      // the same link as the refused attempt's, and through again.
      platform.shift(DAY_MS);
      const nextDay = await signIn(host);
      t.is((await atGateway(host))['token'], refusedToken, "openNDS presented the refused attempt's link (the same token) again");
      t.is(await remaining(nextDay.sessionId), ALLOWANCE_KB * 1024, 'the allowance is whole again');
      t.true(await within(nds.untilThrough(host)), 'through again the next day');
    },
  );
}
