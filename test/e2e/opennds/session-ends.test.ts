import test from 'ava';
import { get } from '../../opennds/client-http.js';
import { enforcementSkipReason } from '../../opennds/host-support.js';
import { REVOKE_MS, startPortalFas, type PortalFas } from '../../opennds/portal-fas.js';

// End to end with Debian's openNDS 9.10 and the portal as its FAS (level
// 3, test/opennds/portal-fas.ts): every end of a network session cuts the client off at the
// gateway within 15 s, not only a revoke (portal-fas.test.ts): a sign-in beyond the customer's
// device slots evicts the oldest device, the entitlement's validUntil passing, the subject's
// sessions ended as the HR webhook ends them; and the QoS row's data quota cuts the client off
// once used. The portal, session and gateway services run in this process even when the platform
// is started (make test), with their own in-memory stores: the test sets what the started
// platform cannot give (a QoS table with a quota, a validity of seconds, one device slot) and
// writes nothing into its stores. The identity provider and entitlement service are stood in
// (fas-platform.ts): every sign-in is one customer's, one device slot.
const skipReason = await enforcementSkipReason();

let nds: PortalFas | undefined;
const need = (): PortalFas => {
  if (nds === undefined) throw new Error('not started');
  return nds;
};

if (skipReason !== undefined) {
  test.skip(`openNDS: every end of a network session reaches the gateway: ${skipReason}`, (t) => t.pass());
} else {
  test.before(async () => {
    nds = await startPortalFas({ clients: 2, inProcess: true });
  });

  test.after.always(async () => {
    await nds?.stop();
  });

  test.afterEach.always(async (t) => {
    if (!t.passed && nds !== undefined) t.log(`openNDS output (MACs removed):\n${nds.harness.gateway.output().slice(-4000)}`);
    nds?.platform.setValiditySeconds(3600);
  });

  test.serial(
    "the download quota of the entitlement's QoS row cuts the client off once used; openNDS's end reaches the platform and keeps the entitlement",
    async (t) => {
      const { client, signIn, untilThrough, untilCutOff, untilConnection, atGateway, sessionOf, revoke, platform, harness } = need();
      const host = client(0);
      const { sessionId } = await signIn(host);
      await untilThrough(host);
      const held = await atGateway(host);
      t.log(
        `openNDS holds for the client: ${JSON.stringify(Object.fromEntries(Object.entries(held).filter(([key]) => /quota|rate|session_(start|end)/.test(key))))}`,
      );
      t.is(Number(held['download_quota']), platform.downQuotaKB, 'the quota the QoS row gives, in kB');
      t.is(Number(held['download_rate_limit_threshold']), 5000, 'the rate the QoS row gives (5 Mbit/s), in kbit/s');
      t.is(Number(held['upload_rate_limit_threshold']), 1000);
      const download = await get(host, `http://${harness.topology.internet.ip}/bytes/${platform.downQuotaKB * 1024 * 2}`);
      t.is(download.status, 200);
      const usedAt = Date.now();
      await untilCutOff(host, 20_000);
      t.log(`quota used -> cut off: ${Date.now() - usedAt} ms (checkinterval 2 s)`);
      const connection = await untilConnection(sessionId, 'DISCONNECTED');
      t.is(connection['disconnect'], null, 'openNDS ended it (BinAuth), not the platform');
      t.is((await sessionOf(sessionId))['state'], 'GRANTED', 'a used-up quota keeps the entitlement');
      t.is(await revoke(sessionId), 200);
    },
  );

  test.serial(
    "a sign-in beyond the customer's device slots evicts the oldest device: its client is cut off at the gateway within 15 s, the new one reaches the server",
    async (t) => {
      const { client, signIn, untilThrough, untilCutOff, untilConnection, sessionOf, reaches, revoke } = need();
      const [older, newer] = [client(0), client(1)];
      const first = await signIn(older);
      await untilThrough(older);
      const second = await signIn(newer);
      const signedInAt = Date.now();
      await untilCutOff(older, REVOKE_MS);
      t.log(`second sign-in -> the evicted device cut off: ${Date.now() - signedInAt} ms`);
      t.is((await sessionOf(first.sessionId))['state'], 'REVOKED', 'the session service evicted the older session (one device slot)');
      t.like(await untilConnection(first.sessionId, 'DISCONNECTED'), { disconnect: 'ACKED' });
      await untilThrough(newer);
      t.true(await reaches(newer), 'the newer device stays through');
      t.false(await reaches(older));
      t.is(await revoke(second.sessionId), 200);
      await untilCutOff(newer, REVOKE_MS);
    },
  );

  test.serial(
    "the entitlement's validUntil passing cuts the client off at the gateway within 15 s (the platform's expiry, before openNDS's own one-minute timeout)",
    async (t) => {
      const { client, signIn, untilThrough, untilCutOff, untilConnection, sessionOf, platform } = need();
      const host = client(0);
      // The shortest validity that leaves time to see the client through first: openNDS is told
      // one minute (whole minutes, at least 1), so a cut-off before that is the platform's.
      platform.setValiditySeconds(20);
      const { sessionId } = await signIn(host);
      await untilThrough(host);
      const expiresAt = Date.parse(String((await sessionOf(sessionId))['expiresAt']));
      t.true(expiresAt > Date.now(), 'still valid when it got through');
      await untilCutOff(host, expiresAt - Date.now() + REVOKE_MS);
      t.log(`validUntil -> cut off: ${Date.now() - expiresAt} ms`);
      t.is((await sessionOf(sessionId))['state'], 'EXPIRED');
      t.like(
        await untilConnection(sessionId, 'DISCONNECTED'),
        { disconnect: 'ACKED' },
        "the platform's end, reported by revocation-poll.sh (openNDS's own timeout would come through BinAuth)",
      );
    },
  );

  test.serial(
    "the subject's sessions ended as the HR webhook ends them (EMPLOYEE_TERMINATED: the session service's subject revoke) cut the client off at the gateway within 15 s",
    async (t) => {
      const { client, signIn, untilThrough, untilCutOff, untilConnection, sessionOf, platform } = need();
      const host = client(1);
      const { sessionId } = await signIn(host);
      await untilThrough(host);
      // kc-extension/svc-admin/webhook.ts makes this call for EMPLOYEE_TERMINATED, with Keycloak's key.
      const answer = await fetch(`${platform.session}/api/v1/subjects/${platform.subjectId}/revoke`, {
        method: 'POST',
        headers: { 'X-API-Key': 'dev-session-keycloak-key', 'content-type': 'application/json' },
        body: JSON.stringify({ reason: 'EMPLOYEE_TERMINATED' }),
      });
      const revokedAt = Date.now();
      t.is(answer.status, 200);
      t.deepEqual(((await answer.json()) as { revoked: string[] }).revoked, [sessionId]);
      await untilCutOff(host, REVOKE_MS);
      t.log(`subject revoked -> cut off: ${Date.now() - revokedAt} ms`);
      t.is((await sessionOf(sessionId))['state'], 'REVOKED');
      t.like(await untilConnection(sessionId, 'DISCONNECTED'), { disconnect: 'ACKED' });
    },
  );
}
