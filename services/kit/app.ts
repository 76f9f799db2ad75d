import express, { type Express, type RequestHandler, type Router } from 'express';
import './locals.js';
import { correlation } from './correlation.js';
import { errorMiddleware, notFound } from './error-middleware.js';
import type { Logger } from './logger.js';
import { openApiDocument } from './openapi.js';
import type { Route } from './route.js';

export interface ServiceAppOptions {
  service: string;
  logger: Logger;
  routes: readonly Route[];
  /** Largest accepted JSON body. */
  bodyLimit?: string;
  /** Further routers (static pages), tried after the routes and before the 404. */
  routers?: readonly Router[];
}

function requestLog(logger: Logger): RequestHandler {
  // Hand-written rather than pino-http: we log only method, path, status and duration, so no
  // header or body ever needs redacting here in the first place.
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.locals.log = logger.child({ correlationId: res.locals.correlationId });
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      res.locals.log.info({ method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
    });
    next();
  };
}

/**
 * The Express stack every service shares: correlation id, request log, JSON body parsing,
 * the service's routes, `GET /openapi.json` built from those routes, 404 and the one error
 * middleware, in that order.
 */
export function createServiceApp(options: ServiceAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(correlation, requestLog(options.logger));
  app.use(express.json({ limit: options.bodyLimit ?? '16kb' }));
  const router = express.Router();
  for (const r of options.routes) r.mount(router);
  const document = openApiDocument(options.service, options.routes);
  router.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  app.use(router);
  for (const extra of options.routers ?? []) app.use(extra);
  app.use(notFound);
  app.use(errorMiddleware);
  return app;
}
