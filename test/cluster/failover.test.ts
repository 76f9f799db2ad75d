// The production cluster loses no granted session and answers no 5xx once the
// dead pieces are out, while one Keycloak node and one instance of every service are killed with
// SIGKILL under sign-ins; the killed pieces rejoin. One shorter run (CLUSTER_TEST_SECONDS, 60),
// its outcome asserted rule by rule. Runs in its own phase of `make test`, after the platform of
// the other phases has stopped (scripts/test-run.ts), in its own run folder. The cluster runs on
// an external PostgreSQL given as DATABASE_URL (a server this test starts, as an operator's would
// be), so that path of `make up-cluster` is the one tested; `npm run bench:failover` and
// `make up-cluster` use the embedded default.
import { join } from 'node:path';
import test from 'ava';
import { clusterOptionsFromEnv, ROOT, startCluster } from '../../scripts/cluster.js';
import { runFailover, type FailoverResult } from '../../bench/lib/failover-run.js';
import { startPostgres } from '../helpers/postgres-server.js';
import { replayAcrossNodes, type ReplayResult } from './webhook-replay.js';
import { profileThroughCluster, type ProfileResult } from './wifi-profile.js';

let result: FailoverResult | undefined;
let replay: ReplayResult | Error | undefined;
let services = 0;
let profile: ProfileResult | Error | undefined;
/** What the cluster's Prometheus saw (read before the cluster stops). */
let scraped: { targets: Record<string, string>; signInsCounted: number; keycloakSeries: number } | undefined;

interface PromVector {
  data: { result: { metric: Record<string, string>; value: [number, string] }[] };
}

/** Every target up (the restarted ones included), then the series an operator's queries use. */
async function readPrometheus(url: string, expectedTargets: number) {
  const query = async (promql: string) => ((await (await fetch(`${url}/api/v1/query?query=${encodeURIComponent(promql)}`)).json()) as PromVector).data.result;
  const targets = async () =>
    Object.fromEntries(
      (await query('up')).map((r) => [`${r.metric['job']}/${r.metric['service'] ?? r.metric['node']}-${r.metric['replica'] ?? ''}`, r.value[1]]),
    );
  let seen = await targets();
  const deadline = Date.now() + 60_000;
  while ((Object.keys(seen).length < expectedTargets || Object.values(seen).some((v) => v !== '1')) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    seen = await targets();
  }
  const signIns = await query('sum(portal_sign_ins_total)');
  const keycloak = await query('count({job="keycloak"})');
  return { targets: seen, signInsCounted: Number(signIns[0]?.value[1] ?? 0), keycloakSeries: Number(keycloak[0]?.value[1] ?? 0) };
}

test.before(async (t) => {
  t.timeout(25 * 60_000);
  // As many connections as the cluster's own embedded server allows (two Keycloak pools, 14 service pools).
  const postgres = await startPostgres({ maxConnections: 300 });
  try {
    const databaseUrl = await postgres.createDatabase();
    const cluster = await startCluster(
      clusterOptionsFromEnv(
        { ...process.env, CLUSTER_DIR: join(ROOT, '.run', 'cluster-test'), DATABASE_URL: databaseUrl, CLUSTER_SCRAPE_SECONDS: '2' },
        (line) => t.log(line),
      ),
    );
    services = cluster.services.length;
    try {
      // Webhook replays across nodes, on the same cluster before the failover run (both nodes fresh, one start for both).
      replay = await replayAcrossNodes(cluster).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
      t.log(`webhook replay across nodes: ${JSON.stringify(replay instanceof Error ? replay.message : replay)}`);
      // A Wi-Fi profile through nginx, on the same cluster (a register, a sign-in and one download).
      profile = await profileThroughCluster(cluster).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
      t.log(`wifi profile: ${JSON.stringify(profile instanceof Error ? profile.message : profile)}`);
      result = await runFailover(cluster, {
        seconds: Number(process.env['CLUSTER_TEST_SECONDS'] ?? 60),
        workers: 8,
        switchSeconds: 10,
        say: (line) => t.log(line),
      });
      t.log(JSON.stringify(result));
      // A failure here fails only the Prometheus test (scraped stays undefined).
      if (cluster.prometheus !== undefined)
        scraped = await readPrometheus(cluster.prometheus.url, cluster.services.length + cluster.keycloak.length).catch(() => undefined);
    } finally {
      await cluster.stop();
    }
  } finally {
    await postgres.stop();
  }
});

const outcome = (): FailoverResult => {
  if (result === undefined) throw new Error('the failover run did not finish');
  return result;
};

test('every sign-in answered 200 has its GRANTED session in the store, none twice', (t) => {
  const { sessions, signIns } = outcome();
  t.true(signIns.answered200 > 0);
  t.is(sessions.lost, 0);
  t.is(sessions.doubled, 0);
});

test('every portal cookie issued before the kill still works through the survivors', (t) => {
  const { cookiesBeforeKill } = outcome();
  t.true(cookiesBeforeKill.checked > 0);
  t.deepEqual(cookiesBeforeKill.failedStatuses, {});
  t.is(cookiesBeforeKill.working, cookiesBeforeKill.checked);
});

test('no sign-in fails with a 5xx or without an answer once the dead pieces are out', (t) => {
  const { signIns } = outcome();
  t.log(`failed sign-ins by phase and status: ${JSON.stringify(signIns.failed)}`);
  t.is(signIns.fiveHundredsAfterSwitch, 0);
});

test('the killed Keycloak node rejoins the cluster and grants tokens', (t) => {
  const { rejoin } = outcome();
  t.deepEqual(Object.values(rejoin.keycloakClusterViews), [2, 2]);
  t.is(rejoin.directKeycloakGrant, 200);
});

test('the killed service instances come back healthy and sign-ins through them succeed', (t) => {
  const { rejoin } = outcome();
  t.is(rejoin.servicesHealthy, services);
  t.is(rejoin.directPortalSignIn, 200);
  t.is(rejoin.unknownEmployeeSignIn, '401 INVALID_CREDENTIALS', 'employee grants reach Keycloak and HR through nginx /employee/');
  t.is(rejoin.signInsAfterRestart.answered200, rejoin.signInsAfterRestart.attempted);
});

test('Prometheus scrapes every service instance and both Keycloak nodes, and counts the sign-ins', (t) => {
  outcome();
  if (scraped === undefined) return t.fail('prometheus did not run (make up-cluster and make test install it)');
  t.is(Object.keys(scraped.targets).length, services + 2, JSON.stringify(scraped.targets));
  t.deepEqual(
    Object.entries(scraped.targets).filter(([, up]) => up !== '1'),
    [],
    'every target is up',
  );
  t.true(scraped.signInsCounted > 0, 'portal_sign_ins_total moved');
  t.true(scraped.keycloakSeries > 0, 'Keycloak metrics are scraped');
});

test('a signed REINSTATED applied on node 1 and replayed to node 2 is DUPLICATE, also under a fresh event id: the terminated employee stays disabled', (t) => {
  if (replay === undefined) throw new Error('the replay check did not run');
  if (replay instanceof Error) throw replay;
  t.is(replay.reinstatedOnNode1, '200 APPLIED');
  t.is(replay.terminatedOnNode1, '200 APPLIED');
  t.is(replay.replayOnNode2, '200 DUPLICATE');
  t.is(replay.replayNewIdOnNode2, '200 DUPLICATE');
  t.false(replay.enabledAfterReplays);
});

test("the cluster's portal serves a signed-in person a Wi-Fi profile trusting the cluster's RADIUS CA", (t) => {
  if (profile === undefined) throw new Error('the profile check did not run');
  if (profile instanceof Error) throw profile;
  t.is(profile.status, 200);
  t.is(profile.contentType.split(';')[0], 'text/plain');
  t.true(profile.carriesClusterCa, 'the CA in the file is the one in the cluster folder');
  t.is(profile.serverName, 'radius.wifi.example.net');
});
