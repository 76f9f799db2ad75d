import test from 'ava';
import { get, reachesInternet } from '../../opennds/client-http.js';
import { enforcementSkipReason } from '../../opennds/host-support.js';
import { POLL_S, startPortalFas, type PortalFas } from '../../opennds/portal-fas.js';

// End to end: Debian's openNDS 9.10 in network namespaces with the platform's
// own portal as its FAS at level 3 (the registry's demo-opennds), the real Keycloak sign-in
// behind it, the gateway service answering authmon, and router/revocation-poll.sh running on the
// gateway (test/opennds/portal-fas.ts). Needs root; signs in through Keycloak when the platform
// is started (scripts/test-run.ts, under the machine-wide lock), else through the services
// in-process with the identity provider and the entitlement stood in (fas-platform.ts): the
// test's title says which. The other ends of a session and the quota: session-ends.test.ts.
const skipReason = await enforcementSkipReason();
const through = process.env['PLATFORM_UP'] === '1' ? 'Keycloak on the started platform' : 'the services in-process, identity provider stood in';

let nds: PortalFas | undefined;
const need = (): PortalFas => {
  if (nds === undefined) throw new Error('not started');
  return nds;
};

if (skipReason !== undefined) {
  test.skip(`openNDS with the portal as its FAS, end to end: ${skipReason}`, (t) => t.pass());
} else {
  test.before(async () => {
    nds = await startPortalFas({ clients: 2 });
  });

  test.after.always(async () => {
    await nds?.stop();
  });

  test.afterEach.always((t) => {
    if (!t.passed && nds !== undefined) t.log(`openNDS output (MACs removed):\n${nds.harness.gateway.output().slice(-4000)}`);
  });

  test.serial(
    `a captive client is sent to the portal, signs in there (${through}), is authorised by authmon, reaches the server; the other client stays captive; a revoke cuts it off within 15 s`,
    async (t) => {
      const { client, signIn, untilThrough, untilCutOff, untilConnection, browse, fasOrigin, internetUrl, atGateway, revoke } = need();
      const [first, second] = [client(0), client(1)];
      t.false(reachesInternet(await get(first, internetUrl)), 'captive before sign-in');
      const { sessionId, fasUrl } = await signIn(first);
      const signedInAt = Date.now();
      await untilThrough(first);
      t.log(`sign-in answered -> first byte through the gateway: ${Date.now() - signedInAt} ms (authmon poll ${POLL_S} s)`);
      const other = await get(second, internetUrl);
      t.is(other.status, 307, 'the second client on the same gateway stays captive');
      t.false(reachesInternet(other));
      await untilConnection(sessionId, 'CONNECTED');
      const page = JSON.parse((await browse(first, `${fasOrigin}/api/v1/auth/session`)).body) as { connection?: { state?: string } };
      t.is(page.connection?.state, 'CONNECTED', 'the page shows the device connected once authmon acknowledged it');
      const limits = await atGateway(first);
      t.true(Number(limits['session_end']) - Number(limits['session_start']) > 0, "openNDS holds the session's own end");

      const replay = await browse(first, fasUrl);
      t.is(replay.status, 409, 'the FAS query of that sign-in cannot be used again');

      const revokedAt = Date.now();
      t.is(await revoke(sessionId), 200);
      await untilCutOff(first);
      t.log(`revoke -> cut off at the gateway: ${Date.now() - revokedAt} ms (feed poll, revocation-poll ${POLL_S} s)`);
      // openNDS answers a just-deauthenticated client 307 (to the portal) or 511 (Network Authentication
      // Required); right after the cut-off a request may also go unanswered (status 0), or get
      // openNDS's own 503, which its web server sends a client it cannot yet look up by address
      // (src/http_microhttpd.c; seen once in a full run). Any of them is the gateway's answer, never
      // the server's: what counts is that the server is not reached.
      const again = await get(first, internetUrl);
      t.false(reachesInternet(again), 'captive again');
      t.true([0, 307, 503, 511].includes(again.status), `captive again (${again.status})`);
      t.like(await untilConnection(sessionId, 'DISCONNECTED'), { disconnect: 'ACKED' }, "the platform's end, acknowledged by the gateway");
    },
  );

  test.serial("the gateway's own end (deauthenticated at the router) reaches the platform through BinAuth; bad input at the FAS grants nothing", async (t) => {
    const { client, signIn, untilThrough, untilConnection, browse, fasOrigin, internetUrl, deauthAtGateway, revoke } = need();
    const host = client(1);
    const { sessionId, fasUrl } = await signIn(host);
    await untilThrough(host);
    await untilConnection(sessionId, 'CONNECTED');
    await deauthAtGateway(host);
    await untilConnection(sessionId, 'DISCONNECTED');
    // What the page shows: the person's own portal session (from the captive client, which may still reach the portal).
    const page = await browse(host, `${fasOrigin}/api/v1/auth/session`);
    t.is(page.status, 200);
    const shown = JSON.parse(page.body) as { authenticated?: boolean; connection?: { state?: string } };
    t.true(shown.authenticated, 'the sign-in stands: an end at the router keeps the entitlement');
    t.is(shown.connection?.state, 'DISCONNECTED', 'the page shows the gateway ended the connection');
    // An end at the router keeps the entitlement; the test leaves no session of the demo customer granted.
    t.is(await revoke(sessionId), 200);

    const url = new URL(fasUrl);
    const tampered = new URL(fasUrl);
    tampered.searchParams.set('fas', `${(url.searchParams.get('fas') ?? '').slice(0, 40)}AAAA${(url.searchParams.get('fas') ?? '').slice(44)}`);
    const refused = await browse(host, tampered.href);
    t.is(refused.status, 403, 'a tampered query');
    t.regex(refused.body, /not signed by the venue/);
    const unknown = await browse(host, `${fasOrigin}/opennds/nds-not-registered${url.search}`);
    t.is(unknown.status, 403, 'an unregistered gateway');
    t.regex(unknown.body, /not registered/);
    t.false(reachesInternet(await get(host, internetUrl)), 'still captive');
  });
}
