// `make up`: the whole platform on embedded defaults, until Ctrl-C.
import { startPlatform } from './platform.js';

const platform = await startPlatform({ keycloak: true, env: { TEST_HARNESS: process.env.TEST_HARNESS ?? 'true' } });
for (const { name, url, log } of platform.started) process.stdout.write(`${name.padEnd(12)} ${url.padEnd(24)} log: ${log}\n`);
process.stdout.write('Platform is up. Ctrl-C stops it.\n');
const stop = async () => {
  await platform.stop();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
setInterval(() => undefined, 1 << 30);
