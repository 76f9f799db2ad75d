// `npm run bench:failover`: the production cluster (scripts/cluster.ts) under customer sign-ins
// through nginx at concurrency 8 for BENCH_SECONDS (60); one Keycloak node and one instance of
// each service killed with SIGKILL a quarter in, started again half-way; the checks of
// bench/lib/failover-run.ts; the result in bench/results/failover.json.
import { clusterOptionsFromEnv, startCluster } from '../scripts/cluster.js';
import { runFailover } from './lib/failover-run.js';
import { machine, writeResult } from './lib/load.js';

const say = (line: string) => process.stdout.write(`${line}\n`);
const seconds = Number(process.env.BENCH_SECONDS ?? 60);
const cluster = await startCluster(clusterOptionsFromEnv(process.env, say));
try {
  const result = await runFailover(cluster, { seconds, workers: 8, switchSeconds: Number(process.env.FAILOVER_SWITCH_SECONDS ?? 10), say });
  const file = writeResult('failover', {
    benchmark: 'failover',
    at: new Date().toISOString(),
    machine: machine(),
    method:
      'closed loop, customer sign-ins (POST /api/v1/auth/login) through nginx https; kill -9 of keycloak-1 and instance 1 of every service at 25% of the run, restart at 50%; other sessions may load the machine at the same time',
    ...result,
  });
  say(`${JSON.stringify(result, null, 2)}\n${file}`);
  if (!result.met) process.exitCode = 1;
} finally {
  await cluster.stop();
}
