// `make test`: starts the platform once (Keycloak on a fresh database, every service with the
// test harness on), runs the whole ava suite against it, stops what it started. Unit tests run
// in parallel; end-to-end files then run one at a time, because they share one platform and
// some flip its fault modes. ava reports in TAP, passed through as it comes, and the run ends
// with a plain "N passed, N failed" line. Arguments (file globs) replace the default selection.
// Last, once that platform has stopped, the production cluster's tests (test/cluster/: its own
// PostgreSQL, two Keycloak nodes, every service twice behind nginx, on ports of its own; the
// failover run is left out with CLUSTER_FAILOVER_TEST=0).
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { changedEntries, operatorDataFingerprint } from './operator-data.js';
import { ROOT, startPlatform } from './platform.js';

interface Outcome {
  status: number;
  passed: number;
  failed: number;
  skipped: number;
}

// Where the suite's time goes: each TAP result line charges the time since the previous one to its
// file (the test title up to its last ` › `). With one file at a time (the end-to-end phases) that is
// the file's own wall time; in the parallel phase it is a share. The slowest are listed as TAP
// comments when the phase ends, so a CI log says which files to make leaner.
function fileOf(tapLine: string): string {
  const title = tapLine.replace(/^(not )?ok \d+ - /, '');
  const cut = title.lastIndexOf(' › ');
  return cut > 0 ? title.slice(0, cut) : title;
}

function reportTimes(args: string[], started: number, perFile: Map<string, number>): void {
  const slowest = [...perFile].sort((a, b) => b[1] - a[1]).slice(0, 25);
  process.stdout.write(`# phase ${args.filter((a) => !a.startsWith('-')).join(' ')}: ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  for (const [file, ms] of slowest) process.stdout.write(`#   ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}\n`);
}

function runAva(args: string[]): Promise<Outcome> {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  const started = Date.now();
  let last = started;
  const perFile = new Map<string, number>();
  const ava = spawn(process.execPath, [join(ROOT, 'node_modules', 'ava', 'entrypoints', 'cli.mjs'), '--tap', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, PLATFORM_UP: '1', PLATFORM_DATA_DIR: dataDir },
  });
  createInterface({ input: ava.stdout }).on('line', (line) => {
    process.stdout.write(`${line}\n`);
    if (/^ok .*# (SKIP|TODO)/i.test(line)) counts.skipped += 1;
    else if (line.startsWith('ok ')) counts.passed += 1;
    else if (line.startsWith('not ok ')) counts.failed += 1;
    if (/^(not )?ok \d+ - /.test(line)) {
      const now = Date.now();
      const file = fileOf(line);
      perFile.set(file, (perFile.get(file) ?? 0) + (now - last));
      last = now;
    }
  });
  return new Promise((resolve) =>
    ava.on('close', (code) => {
      reportTimes(args, started, perFile);
      resolve({ status: code ?? 1, ...counts });
    }),
  );
}

// The decision models are served from a copy: svc-admin's tests replace a model file through the
// module and put it back, and a failing test must not leave a changed model in the checkout.
const dmnDir = mkdtempSync(join(tmpdir(), 'wifi-dmn-'));
cpSync(join(ROOT, 'dmn', 'models'), dmnDir, { recursive: true });
// Keycloak runs from a folder of its own (its H2 database, logs and pid beside what `make up`
// serves in .run/keycloak), and the services keep their databases in a temporary folder: a test
// run starts from empty data and leaves the operator's untouched. kc.sh, the platform's stop and
// the tests reading Keycloak's files all take these from the environment.
process.env['KC_RUN_DIR'] ??= join(ROOT, '.run', 'keycloak-test');
process.env['KC_LOG_FILE'] ??= `${process.env['KC_RUN_DIR']}.log`;
const dataDir = mkdtempSync(join(tmpdir(), 'wifi-data-'));
const operatorData = operatorDataFingerprint(ROOT);
if (spawnSync(join(ROOT, 'scripts', 'kc.sh'), ['build'], { stdio: 'inherit' }).status !== 0)
  throw new Error("scripts/kc.sh build failed for the test run's Keycloak");
// TERMS_CACHE_SECONDS 0: the portal reads the terms in force at every sign-in, so a version an
// end-to-end test publishes and withdraws is in force exactly while it runs.
const platformStarting = Date.now();
const platform = await startPlatform({
  keycloak: true,
  freshKeycloak: true,
  env: {
    TEST_HARNESS: 'true',
    TERMS_CACHE_SECONDS: '0',
    SVC_ADMIN_PROBE_ALLOW: '127.0.0.0/8, ::1/128',
    DMN_DIR: dmnDir,
    DATA_DIR: dataDir,
    RADIUS_RUN_DIR: join(dataDir, 'freeradius'),
  },
});
process.stdout.write(`# platform started in ${((Date.now() - platformStarting) / 1000).toFixed(0)} s\n`);
const selected = process.argv.length > 2;
const phases = selected
  ? [process.argv.slice(2)]
  : [
      ['test/**/*.test.ts', '!test/e2e/**', '!test/cluster/**'],
      ['--concurrency=1', 'test/e2e/**/*.test.ts'],
    ];
const result: Outcome = { status: 0, passed: 0, failed: 0, skipped: 0 };
const add = (phase: Outcome) => {
  result.status ||= phase.status;
  result.passed += phase.passed;
  result.failed += phase.failed;
  result.skipped += phase.skipped;
};
try {
  for (const args of phases) add(await runAva(args));
} finally {
  await platform.stop();
  rmSync(dmnDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
}
// The failover run (test/cluster/failover.test.ts, about 5 minutes: the optimized Keycloak build,
// the cluster's start, 60 s of sign-ins, the restarted node's rejoin) runs last, alone on the
// machine; CLUSTER_FAILOVER_TEST=0 leaves it out (a quick local run). `npm run bench:failover`
// runs the same as a benchmark.
const clusterTests =
  process.env['CLUSTER_FAILOVER_TEST'] === '0' ? ['test/cluster/**/*.test.ts', '!test/cluster/failover.test.ts'] : ['test/cluster/**/*.test.ts'];
if (!selected) add(await runAva(['--concurrency=1', '--timeout=25m', ...clusterTests]));
// The run fails when it changed what `make up` serves.
const touched = changedEntries(operatorData, operatorDataFingerprint(ROOT));
if (touched.length > 0) {
  result.failed += 1;
  process.stdout.write(`\nnot ok - the test run changed make up's data:\n${touched.slice(0, 20).join('\n')}\n`);
}
process.stdout.write(`\n${result.passed} passed, ${result.failed} failed, ${result.skipped} skipped\n`);
process.exit(result.passed > 0 && result.failed === 0 ? result.status : 1);
