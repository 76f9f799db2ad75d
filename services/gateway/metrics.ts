import { Counter, Gauge } from 'prom-client';
import { metricsRegistry } from '../kit/index.js';

/**
 * What an operator watches of the RADIUS side. Labels are bounded by the code and the
 * registry: a registered NAS id (`unknown` otherwise), an outcome, a reason from a fixed list.
 */
export const radiusAccess = new Counter({
  name: 'radius_access_total',
  help: "Access-Requests answered, by NAS, outcome (accept, reject) and the reject's reason.",
  labelNames: ['nas', 'outcome', 'reason'],
  registers: [metricsRegistry],
});

export const radiusAccounting = new Counter({
  name: 'radius_accounting_total',
  help: 'Accounting-Requests, by NAS, Acct-Status-Type and what was done (recorded, ignored, nas-restart, logged-off).',
  labelNames: ['nas', 'status', 'outcome'],
  registers: [metricsRegistry],
});

export const radiusDisconnects = new Counter({
  name: 'radius_disconnects_total',
  help: 'Disconnect-Request attempts, by NAS and what came of them (ACKED, NAKED, GONE, NO_ANSWER, retry).',
  labelNames: ['nas', 'answer'],
  registers: [metricsRegistry],
});

export const radiusCoas = new Counter({
  name: 'radius_coa_total',
  help: 'CoA-Request attempts (new limits for a running session), by NAS and what came of them (ACKED, NAKED, NO_ANSWER, retry, dropped; disconnect: a controller without CoA whose caps passed a shrunk allowance).',
  labelNames: ['nas', 'answer'],
  registers: [metricsRegistry],
});

let openCounts: (() => Promise<{ nasId: string; open: number }[]>) | undefined;

/** Open connections per NAS, counted in the store when scraped (the gateway app names the count). */
new Gauge({
  name: 'radius_open_connections',
  help: 'Connections started and not stopped, by NAS (counted on scrape).',
  labelNames: ['nas'],
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    try {
      for (const { nasId, open } of (await openCounts?.()) ?? []) this.set({ nas: nasId }, open);
    } catch {
      // The store is failing or closed: no sample this scrape, and never a failed /metrics (the
      // registry is the process's, which in tests other services share).
    }
  },
});

export function countOpenConnectionsWith(count: (() => Promise<{ nasId: string; open: number }[]>) | undefined): void {
  openCounts = count;
}
