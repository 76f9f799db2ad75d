// `npm run bench:opennds-usage`: what one report of openNDS's running counters costs the gateway
// service per client (decision 0109). revocation-poll.sh sends at most 500 clients a request; the
// gateway parses the report (parseUsageReport), turns each token into its hid (sha256) and writes
// the connections in one statement (opennds-store.ts runningUsage). Here CLIENTS authorised
// clients live in an in-memory PGlite store (no HTTP, no session service, no router: the
// relay's and the signature's cost are those of any router request), and REPORTS reports of all
// of them, in batches of 500 with growing counters, are timed. Wall time and CPU (user+system)
// per report and per client, p50 and p95. No ports, no lock: it runs beside anything.
import { createHash, randomBytes } from 'node:crypto';
import { parseUsageReport, USAGE_REPORT_MAX } from '../edge/controllers/opennds-authmon.js';
import { hidOfToken } from '../edge/opennds-crypto.js';
import { MIGRATIONS } from '../services/gateway/app.js';
import { createOpenndsStore } from '../services/gateway/opennds-store.js';
import { openTestDatabase } from '../test/helpers/databases.js';
import { machine, quantile, writeResult } from './lib/load.js';

const CLIENTS = Number(process.env['BENCH_CLIENTS'] ?? 1000);
const REPORTS = Number(process.env['BENCH_REPORTS'] ?? 30);
const NAS = 'bench-nds';

const db = await openTestDatabase('memory', { service: 'gateway', migrations: MIGRATIONS });
const store = createOpenndsStore(db);
const now = () => new Date();
const tokens = Array.from({ length: CLIENTS }, () => randomBytes(4).toString('hex'));
for (const token of tokens) {
  const hid = hidOfToken(token);
  const rhid = createHash('sha256').update(`${hid}bench-faskey`).digest('hex');
  const sessionId = `sess-${randomBytes(8).toString('hex')}`;
  await store.queue(
    {
      rhid,
      hid,
      nasId: NAS,
      sessionId,
      deviceRef: `dev-${token}`,
      sessionMinutes: 60,
      uploadKbitPerSecond: 0,
      downloadKbitPerSecond: 0,
      uploadQuotaKB: 0,
      downloadQuotaKB: 0,
      custom: randomBytes(12).toString('base64'),
    },
    now(),
  );
  await store.acked(NAS, [rhid], now());
}

const wallPerReport: number[] = [];
const cpuPerReport: number[] = [];
let written = 0;
for (let report = 1; report <= REPORTS; report += 1) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let at = 0; at < tokens.length; at += USAGE_REPORT_MAX) {
    const payload = `usage ${tokens
      .slice(at, at + USAGE_REPORT_MAX)
      .map((token) => `${token} ${report * 100} ${report * 10}`)
      .join(' ')}`;
    const clients = parseUsageReport(payload);
    if (clients === undefined) throw new Error('the bench made a malformed report');
    written += await store.runningUsage(
      NAS,
      clients.map((c) => ({ hid: hidOfToken(c.token), inputOctets: c.downloadKB * 1024, outputOctets: c.uploadKB * 1024 })),
      now(),
    );
  }
  wallPerReport.push(performance.now() - start);
  const used = process.cpuUsage(cpu);
  cpuPerReport.push((used.user + used.system) / 1000);
}
await db.close();
if (written !== CLIENTS * REPORTS) throw new Error(`wrote ${written} connections, expected ${CLIENTS * REPORTS}`);

const perClientUs = (ms: number) => Math.round((ms * 1000) / CLIENTS);
const result = {
  what: "one report of openNDS's running counters for every client of a gateway (batches of 500), the gateway's parse and write on an in-memory PGlite",
  clients: CLIENTS,
  reports: REPORTS,
  wallMs: { p50: quantile(wallPerReport, 0.5), p95: quantile(wallPerReport, 0.95) },
  cpuMs: { p50: quantile(cpuPerReport, 0.5), p95: quantile(cpuPerReport, 0.95) },
  cpuPerClientUs: { p50: perClientUs(quantile(cpuPerReport, 0.5)), p95: perClientUs(quantile(cpuPerReport, 0.95)) },
  machine: machine(),
};
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
process.stdout.write(`written to ${writeResult('opennds-usage', result)}\n`);
