import test from 'ava';
import { get, reachesInternet } from '../../opennds/client-http.js';
import { enforcementSkipReason } from '../../opennds/host-support.js';
import { NAS, startPortalFas } from '../../opennds/portal-fas.js';

// The portal serves openNDS only at FAS level 3 (levels 1 and 2 expose the token to the client) (docs/operate/opennds.md). A router
// left at level 2 sends the query encrypted as level 3 does, but runs no authmon, and openNDS's
// library calls to the FAS (BinAuth's deauthed notice, revocation-poll.sh's requests) do nothing
// below level 3: its signed-in devices would wait for an authorisation forever and no end of a
// session would reach it. At level 1 the query is plain base64 and can be forged. Debian's
// openNDS at each level, with the portal (in-process services, fresh stores: the gateway never
// polled) as its FAS: the captive device gets the refusal page before any password and stays
// captive.
const skipReason = await enforcementSkipReason();

for (const [level, status, page] of [
  [2, 403, /not connected to the sign-in service \(openNDS needs FAS level 3 with authmon\)/],
  [1, 403, /openNDS FAS level 1\), which anyone could forge/],
] as const) {
  if (skipReason !== undefined) {
    test.skip(`openNDS at FAS level ${level}: ${skipReason}`, (t) => t.pass());
    continue;
  }
  test.serial(
    `openNDS at FAS level ${level}: the captive device is sent to the portal, which refuses the arrival with a page before any password (${status}); it stays captive`,
    async (t) => {
      const nds = await startPortalFas({ clients: 1, inProcess: true, secureLevel: level, revocationPoll: false });
      t.teardown(() => nds.stop());
      const host = nds.client(0);
      const captive = await get(host, nds.internetUrl);
      t.is(captive.status, 307);
      t.true(captive.location.startsWith(`${nds.fasOrigin}/opennds/${NAS}?fas=`), captive.location.slice(0, 80));
      t.is(new URL(captive.location).searchParams.has('iv'), level === 2, 'level 2 sends an iv (AES), level 1 none');
      const arrival = await nds.browse(host, captive.location);
      t.is(arrival.status, status, arrival.body.slice(0, 300));
      t.regex(arrival.body, page);
      const gateway = (await (
        await fetch(`${nds.platform.gateway}/api/v1/opennds/gateways/${NAS}`, { headers: { 'X-API-Key': 'dev-gateway-tools-key' } })
      ).json()) as Record<string, unknown>;
      t.like(gateway, { polling: false, polledAt: null }, 'nothing polled the platform');
      t.false(reachesInternet(await get(host, nds.internetUrl)), 'still captive');
    },
  );
}
