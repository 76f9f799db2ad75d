import type { Request, RequestHandler } from 'express';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * What an operator scrapes with Prometheus (`GET /metrics`, text format, prom-client).
 * One registry per process (a service is one process in production; in tests several apps in one
 * process share it and tell their series apart by `service`). Labels are bounded sets chosen by
 * the code: a route template, a status, a peer's origin, an error code, a reason, a NAS id.
 * Never a citizen number, a MAC, a user, a session id or anything a caller typed.
 * No default process metrics: prom-client's event-loop monitor runs a timer that would burn CPU
 * at idle; process CPU and memory are read on scrape instead (processMetrics below).
 */
export const metricsRegistry = new Registry();

const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 12];

const requests = new Counter({
  name: 'http_requests_total',
  help: 'Requests answered, by service, route template, method and status.',
  labelNames: ['service', 'route', 'method', 'status'],
  registers: [metricsRegistry],
});
const requestSeconds = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time to answer a request, by service, route template and method.',
  labelNames: ['service', 'route', 'method'],
  buckets: DURATION_BUCKETS,
  registers: [metricsRegistry],
});

/** Outbound calls by peer (its origin) and outcome: `status_2xx`..`status_5xx`, `timeout`, `unreachable`, `bad-response`. */
export const outboundCalls = new Counter({
  name: 'outbound_calls_total',
  help: 'Outbound HTTP calls by peer origin and outcome.',
  labelNames: ['peer', 'outcome'],
  registers: [metricsRegistry],
});
export const outboundSeconds = new Histogram({
  name: 'outbound_call_duration_seconds',
  help: 'Time of an outbound call, its attempts included, by peer origin.',
  labelNames: ['peer'],
  buckets: DURATION_BUCKETS,
  registers: [metricsRegistry],
});

/** An Idempotency-Key seen again: the original answer was replayed. */
export const idempotentReplays = new Counter({
  name: 'idempotent_replays_total',
  help: 'Requests answered by replaying the original (same Idempotency-Key), by service.',
  labelNames: ['service'],
  registers: [metricsRegistry],
});

/** A circuit breaker's state: 0 closed, 1 half-open, 2 open. */
export const breakerState = new Gauge({
  name: 'circuit_breaker_state',
  help: 'Circuit breaker state by breaker: 0 closed, 1 half-open, 2 open.',
  labelNames: ['breaker'],
  registers: [metricsRegistry],
});

new Gauge({
  name: 'process_cpu_seconds_total',
  help: 'User and system CPU time of this process, in seconds.',
  registers: [metricsRegistry],
  collect() {
    const usage = process.cpuUsage();
    this.set((usage.user + usage.system) / 1e6);
  },
});
new Gauge({
  name: 'process_resident_memory_bytes',
  help: 'Resident memory of this process, in bytes.',
  registers: [metricsRegistry],
  collect() {
    this.set(process.memoryUsage.rss());
  },
});
// The V8 heap beside the resident size: what the rest of the resident size is (PGlite's
// WebAssembly memory, compiled code) shows only as the difference (npm run bench:memory).
new Gauge({
  name: 'nodejs_heap_used_bytes',
  help: 'V8 heap in use by this process, in bytes.',
  registers: [metricsRegistry],
  collect() {
    this.set(process.memoryUsage().heapUsed);
  },
});

/** One answered request in the request series (route: the template, never the path as sent). */
export function observeRequest(service: string, route: string, method: string, status: number, seconds: number): void {
  requests.inc({ service, route, method, status: String(status) });
  requestSeconds.observe({ service, route, method }, seconds);
}

/** The template the router matched (`/api/v1/sessions/:sessionId`), never the path as sent; anything unmatched is one series. */
export function routeTemplateOf(req: Request): string {
  const template: unknown = req.route?.path;
  return typeof template === 'string' ? `${req.baseUrl}${template}` : 'unmatched';
}

/** `GET /metrics` handler: the registry in Prometheus text format. */
export const metricsHandler: RequestHandler = async (_req, res, next) => {
  try {
    res.set('Content-Type', metricsRegistry.contentType);
    res.set('Cache-Control', 'no-store');
    res.end(await metricsRegistry.metrics());
  } catch (error) {
    next(error);
  }
};
