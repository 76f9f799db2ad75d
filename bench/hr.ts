// `npm run bench:hr`: HR verify (success path, limits out of the way) against a bare JSON route
// of the same Express stack, at concurrency 32. Target: verify >= 70% of bare req/s, p99 < 25 ms.
import { compare, machine, startServer, warm, writeResult } from './lib/load.js';

const CONNECTIONS = 32;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const body = { employeeId: 'A-1001', citizenId: '079201001234' };
const headers = { 'X-API-Key': 'dev-hr-tools-key' };

const bare = await startServer('bench/servers/bare.ts', 3991);
const hr = await startServer('services/hr/main.ts', 3992, { HR_GLOBAL_LIMIT: '100000000' });
try {
  await warm({ url: `${bare.url}/bare`, body, connections: CONNECTIONS });
  await warm({ url: `${hr.url}/api/v1/employees/verify`, body, headers, connections: CONNECTIONS });
  const [bareResult, verifyResult] = await compare(
    { url: `${bare.url}/bare`, body, connections: CONNECTIONS, seconds: SECONDS },
    { url: `${hr.url}/api/v1/employees/verify`, body, headers, connections: CONNECTIONS, seconds: SECONDS },
  );
  const ratio = verifyResult.requestsPerSecond / bareResult.requestsPerSecond;
  const result = {
    benchmark: 'hr',
    at: new Date().toISOString(),
    machine: machine(),
    connections: CONNECTIONS,
    seconds: SECONDS,
    method: 'best of 3 alternating rounds each',
    bare: bareResult,
    verify: verifyResult,
    verifyToBareRatio: Math.round(ratio * 1000) / 1000,
    targets: { ratioAtLeast: 0.7, p99BelowMs: 25 },
    met: ratio >= 0.7 && verifyResult.latencyMs.p99 < 25 && verifyResult.non2xx === 0,
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n${writeResult('hr', result)}\n`);
} finally {
  await Promise.all([bare.stop(), hr.stop()]);
}
