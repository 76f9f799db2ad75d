import express, { type Express, type RequestHandler, type Router } from 'express';
import { z } from 'zod';
import { ApiError } from './errors.js';
import './locals.js';
import { acceptCorrelationId, CORRELATION_HEADER } from './correlation.js';
import { errorMiddleware, notFound } from './error-middleware.js';
import { metricsHandler, observeRequest, routeTemplateOf } from './metrics.js';
import type { Logger } from './logger.js';
import { openApiDocument } from './openapi.js';
import { route, type Route } from './route.js';

export interface ServiceAppOptions {
  service: string;
  logger: Logger;
  routes: readonly Route[];
  /** Largest accepted JSON body. */
  bodyLimit?: string;
  /** Further routers (static pages), tried after the routes and before the 404. */
  routers?: readonly Router[];
  /** Comma-separated proxies whose X-Forwarded-* headers are believed; empty or unset: none. */
  trustProxy?: string;
  /** Paths polled by machines (a change feed, health probes): their request lines are logged at debug. */
  quietPaths?: readonly string[];
}

/**
 * What a request's handlers read from `res.locals`: its correlation id, and its logger, a child
 * carrying that id, made only when something logs through it (a pino child per
 * request was a good part of the kit's CPU on routes that log nothing else).
 */
class RequestLocals {
  #log: Logger | undefined;
  constructor(
    readonly correlationId: string,
    readonly logger: Logger,
  ) {}
  get log(): Logger {
    this.#log ??= this.logger.child({ correlationId: this.correlationId });
    return this.#log;
  }
}

/**
 * Everything the kit does around every request, as one middleware with one
 * 'finish' listener: the correlation id (spec 2.1: accepted or made, echoed on the response),
 * the request's logger, then the request line and the request metrics. Hand-written rather than
 * pino-http: we log only the correlation id, method, path, status and duration, so no header or
 * body ever needs redacting here in the first place.
 */
function requestStart(service: string, logger: Logger, quietPaths: ReadonlySet<string>): RequestHandler {
  const header = CORRELATION_HEADER.toLowerCase();
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const correlationId = acceptCorrelationId(req.headers[header] as string | undefined);
    res.locals = new RequestLocals(correlationId, logger) as unknown as typeof res.locals;
    res.setHeader(CORRELATION_HEADER, correlationId);
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const line = { correlationId, method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 };
      if (quietPaths.has(req.path) && res.statusCode < 400) logger.debug(line, 'request');
      else logger.info(line, 'request');
      observeRequest(service, routeTemplateOf(req), req.method, res.statusCode, ms / 1000);
    });
    next();
  };
}

const OpenApiBody = z
  .object({ openapi: z.string(), info: z.object({ title: z.string(), version: z.string() }).loose(), paths: z.record(z.string(), z.unknown()) })
  .loose();

/** `GET /openapi.json`: the document built from the service's routes, itself included. */
function documentRoute(document: () => Record<string, unknown>): Route {
  return route({
    method: 'get',
    path: '/openapi.json',
    summary: 'This OpenAPI 3.1 document, generated from the zod schemas that validate the requests.',
    responses: { 200: { description: 'The document.', schema: OpenApiBody } },
    handle: () => ({ status: 200, body: document() }),
  });
}

/** `GET /metrics`, Prometheus text format (kit/metrics.ts); documented, answered as text. */
function metricsRoute(): Route {
  return {
    method: 'get',
    path: '/metrics',
    summary: 'Prometheus metrics (text format 0.0.4): requests, outbound calls, and what this service counts; no personal data in any label.',
    responses: { 200: { description: 'The metrics, as text/plain; version=0.0.4.' } },
    mount: (router) => router.get('/metrics', metricsHandler),
  };
}

/** A known path asked with a method it does not answer: 405 with `Allow` (RFC 9110 15.5.6), not 404. */
function methodNotAllowed(methods: readonly string[]): RequestHandler {
  const allow = [...new Set(methods.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m])))].join(', ');
  return (_req, res) => {
    res.set('Allow', allow);
    throw new ApiError('METHOD_NOT_ALLOWED');
  };
}

/**
 * The Express stack every service shares: correlation id, request log and metrics, the service's
 * routes (each parsing a JSON body only when it declares one), `GET /openapi.json` built from those
 * routes, `GET /metrics`, 405 for other methods on those paths, 404 and the one error middleware, in that order.
 */
export function createServiceApp(options: ServiceAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Forwarded headers are believed only from the proxies configured (Express "trust proxy").
  const proxies = (options.trustProxy ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  app.set('trust proxy', proxies.length === 0 ? false : proxies);
  app.use(requestStart(options.service, options.logger, new Set(['/health', '/metrics', ...(options.quietPaths ?? [])])));
  const readJson = express.json({ limit: options.bodyLimit ?? '16kb' });
  // Flat text fields only (`extended: false`: no nested objects built from `a[b]=c`).
  const readForm = express.urlencoded({ extended: false, limit: options.bodyLimit ?? '16kb', parameterLimit: 32 });
  // Paths match as the document reads them: case and trailing slash count.
  const router = express.Router({ caseSensitive: true, strict: true });
  const routes = [...options.routes, documentRoute(() => document), metricsRoute()];
  const document = openApiDocument(options.service, routes);
  const byPath = new Map<string, Route[]>();
  for (const r of routes) byPath.set(r.path, [...(byPath.get(r.path) ?? []), r]);
  // OpenAPI matches concrete paths before templated ones: `GET /entitlements/evaluate` is a 405
  // of the concrete path, not a read of an entitlement named "evaluate".
  const concreteFirst = [...byPath].sort(([a], [b]) => Number(a.includes(':')) - Number(b.includes(':')));
  for (const [path, group] of concreteFirst) {
    for (const r of group) r.mount(router, readJson, readForm);
    router.all(path, methodNotAllowed(group.map((r) => r.method.toUpperCase())));
  }
  app.use(router);
  for (const extra of options.routers ?? []) app.use(extra);
  app.use(notFound);
  app.use(errorMiddleware);
  return app;
}
