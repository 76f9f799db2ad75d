// `make test`: starts the platform once (Keycloak on a fresh database, every service with the
// test harness on), runs the whole ava suite against it, stops what it started. ava reports in
// TAP, passed through as it comes, and the run ends with a plain "N passed, N failed" line.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ROOT, startPlatform } from './platform.js';

function runAva(args: string[]): Promise<{ status: number; passed: number; failed: number; skipped: number }> {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  const ava = spawn(process.execPath, [join(ROOT, 'node_modules', 'ava', 'entrypoints', 'cli.mjs'), '--tap', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, PLATFORM_UP: '1' },
  });
  createInterface({ input: ava.stdout }).on('line', (line) => {
    process.stdout.write(`${line}\n`);
    if (/^ok .*# (SKIP|TODO)/i.test(line)) counts.skipped += 1;
    else if (line.startsWith('ok ')) counts.passed += 1;
    else if (line.startsWith('not ok ')) counts.failed += 1;
  });
  return new Promise((resolve) => ava.on('close', (code) => resolve({ status: code ?? 1, ...counts })));
}

const platform = await startPlatform({ keycloak: true, freshKeycloak: true, env: { TEST_HARNESS: 'true' } });
let result = { status: 1, passed: 0, failed: 0, skipped: 0 };
try {
  result = await runAva(process.argv.slice(2));
} finally {
  await platform.stop();
}
process.stdout.write(`\n${result.passed} passed, ${result.failed} failed, ${result.skipped} skipped\n`);
process.exit(result.passed > 0 && result.failed === 0 ? result.status : 1);
