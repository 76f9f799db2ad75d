// `make test`: starts the platform once (Keycloak on a fresh database, every service with the
// test harness on), runs the whole ava suite against it, stops what it started.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, startPlatform } from './platform.js';

const platform = await startPlatform({ keycloak: true, freshKeycloak: true, env: { TEST_HARNESS: 'true', LOG_LEVEL: 'info' } });
let status = 1;
try {
  const ava = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'ava', 'entrypoints', 'cli.mjs'), ...process.argv.slice(2)], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, PLATFORM_UP: '1' },
  });
  status = ava.status ?? 1;
} finally {
  await platform.stop();
}
process.exit(status);
