import test from 'ava';
import { waitFor } from '../../helpers/wait-for.js';
import { client, deauthNotice, GATEWAYHASH, ROUTER, setup, signedIn, type Authorise } from './opennds-world.js';
import type { World } from './platform.js';

// openNDS's running counters: revocation-poll.sh, asked by the revocation poll's answer, reports
// `ndsctl json`'s KiB counters of each authenticated client; the gateway writes them to the
// client's connection as an Interim-Update's (greatest totals), the usage feed counts them against
// the person's allowance while the client runs, and a used-up allowance revokes it. Bad reports
// change nothing.

const KIB = 1024;
/** A session with a data allowance of 10 MiB a day, signed in through openNDS and acknowledged by authmon. */
async function onlineWithAllowance(world: World, authmon: (auth_get: string, payload: string) => Promise<{ text: string }>, authorise: Authorise) {
  const c = await signedIn(world, authorise, 1800, { allowance: { dataBytes: 10 * KIB * KIB, timeSeconds: null, period: 'DAY' } });
  await authmon('view', `* ${c.rhid}`);
  return c;
}

test.serial(
  'the revocation poll asks for the running counters once every OPENNDS_USAGE_SECONDS per gateway (the first ask that long after its first poll), never with 0',
  async (t) => {
    let clock = Date.parse('2026-01-01T10:00:00Z');
    const { authmon } = await setup(t, { OPENNDS_USAGE_SECONDS: '30' }, { now: () => new Date(clock) });
    t.is((await authmon('custom', 'revocations')).text, '*', 'the first poll starts the clock');
    clock += 29_000;
    t.is((await authmon('custom', 'revocations')).text, '*');
    clock += 1_000;
    t.is((await authmon('custom', 'revocations')).text, '* usage', 'asked once the interval passed');
    t.is((await authmon('custom', 'revocations')).text, '*', 'and not at the next poll');
    clock += 30_000;
    t.is((await authmon('custom', 'revocations')).text, '* usage');
    const never = await setup(t, { OPENNDS_USAGE_SECONDS: '0' }, { now: () => new Date(clock) });
    clock += 3_600_000;
    t.is((await never.authmon('custom', 'revocations')).text, '*');
    clock += 3_600_000;
    t.is((await never.authmon('custom', 'revocations')).text, '*', '0: never asked');
  },
);

test.serial(
  "openNDS's running counters write the client's connection like an Interim-Update (KiB as bytes, greatest totals) and move the person's counter while the client runs; a replayed or backwards report and BinAuth's end notice count nothing twice",
  async (t) => {
    const { world, gateway, authmon, authorise } = await setup(t, { USAGE_PUSH_MS: '50' });
    const c = await onlineWithAllowance(world, authmon, authorise);
    const left = async () => ((await world.session.read(c.sessionId)).body['remaining'] as { bytesRemaining: number }).bytesRemaining;
    const countedAt = (bytes: number) =>
      waitFor(left, (value) => value === 10 * KIB * KIB - bytes, { timeoutMs: 10_000 }).then(
        () => true,
        () => false,
      );
    t.is((await authmon('custom', `usage ${c.token} 100 20`)).text, 'ack');
    t.like((await gateway.connection(c.sessionId)).body, { state: 'CONNECTED', inputOctets: 100 * KIB, outputOctets: 20 * KIB });
    t.true(await countedAt(120 * KIB), "the person's counter moved while the client runs");
    t.is((await authmon('custom', `usage ${c.token} 100 20`)).text, 'ack', 'a replayed report');
    t.is((await authmon('custom', `usage ${c.token} 50 30`)).text, 'ack', 'download going backwards, upload forwards');
    t.like((await gateway.connection(c.sessionId)).body, { inputOctets: 100 * KIB, outputOctets: 30 * KIB }, 'the greatest of each');
    t.true(await countedAt(130 * KIB), 'counted once: only the 10 KiB more upload added');
    // BinAuth's end notice carries exact bytes (4096 in, 1024 out): fewer than the running totals.
    t.is((await authmon('deauthed', deauthNotice('idle_deauth', c.token))).text, 'ack');
    t.like((await gateway.connection(c.sessionId)).body, { state: 'DISCONNECTED', inputOctets: 100 * KIB, outputOctets: 30 * KIB });
    t.is((await authmon('custom', `usage ${c.token} 900 900`)).text, 'ack', 'a report read before the end, arriving after it');
    t.like((await gateway.connection(c.sessionId)).body, { inputOctets: 100 * KIB, outputOctets: 30 * KIB }, 'an ended client takes no running counters');
    t.true(await countedAt(130 * KIB));
  },
);

test.serial("a person's allowance used up by an openNDS client's own running counters ends it through revocation-poll.sh while it runs", async (t) => {
  const { world, authmon, authorise } = await setup(t, { USAGE_PUSH_MS: '50' });
  const c = await onlineWithAllowance(world, authmon, authorise);
  t.is((await authmon('custom', 'revocations')).text, '*');
  t.is((await authmon('custom', `usage ${c.token} ${10 * KIB} 1`)).text, 'ack');
  const listed = await waitFor(
    async () => (await authmon('custom', 'revocations')).text,
    (list) => list.includes(c.rhid),
    { timeoutMs: 10_000 },
  ).catch(() => '');
  t.is(listed, `* ${c.rhid}`, 'listed for revocation-poll.sh');
});

test.serial(
  'a bad usage report changes nothing: non-numeric, negative or absurd counters, a malformed or repeated token, too many clients (400), an unknown client (ignored), unsigned, signed with another key or from another address (403)',
  async (t) => {
    const { world, gateway, authmon, authorise } = await setup(t, { USAGE_PUSH_MS: '50' });
    const c = await onlineWithAllowance(world, authmon, authorise);
    t.is((await authmon('custom', `usage ${c.token} 10 10`)).text, 'ack');
    const before = { inputOctets: 10 * KIB, outputOctets: 10 * KIB };
    const many = Array.from({ length: 501 }, (_, i) => `${i.toString(16).padStart(8, '0')} 1 1`).join(' ');
    for (const payload of [
      `usage ${c.token} ten 20`,
      `usage ${c.token} -5 20`,
      `usage ${c.token} 20 1.5`,
      `usage ${c.token} ${2 ** 30 + 1} 20`,
      `usage ${c.token} 99999999999 20`,
      `usage ${c.token.toUpperCase()} 20 20`,
      `usage ${c.token} 20`,
      `usage ${c.token} 20 20 ${c.token} 30 30`,
      'usage',
      `usage ${many}`,
    ]) {
      const answer = await authmon('custom', payload);
      t.is(answer.status, 400, payload.slice(0, 60));
    }
    t.like((await gateway.connection(c.sessionId)).body, before, 'nothing written by a refused report');
    t.is((await authmon('custom', `usage ${client().token} 5000 5000`)).text, 'ack', 'an unknown client: answered, so the router does not retry');
    t.like((await gateway.connection(c.sessionId)).body, before);
    for (const signing of [null, { key: 'a-guess-at-the-faskey' }]) {
      t.is((await authmon('custom', `usage ${c.token} 5000 5000`, ROUTER, GATEWAYHASH, signing)).status, 403);
    }
    t.is((await authmon('custom', `usage ${c.token} 5000 5000`, '198.51.100.9')).status, 403);
    t.like((await gateway.connection(c.sessionId)).body, before, 'nothing written by a forged report');
    t.is(((await world.session.read(c.sessionId)).body['remaining'] as { bytesRemaining: number }).bytesRemaining >= 10 * KIB * KIB - 20 * KIB, true);
  },
);
