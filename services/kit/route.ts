import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import { z } from 'zod';
import type { DocumentedRoute } from './openapi.js';
import { parseBody, parseFields } from './validate.js';

export interface Reply {
  status: number;
  body: unknown;
  /** A file sent as it is instead of JSON (its Content-Type set by the handler): a downloaded profile. */
  raw?: string;
}

type Fields = Record<string, z.ZodType>;
/** What a record of field schemas parses to (empty when the route declares none). */
type Parsed<F extends Fields | undefined> = F extends Fields ? { [K in keyof F]: z.output<F[K]> } : Record<string, never>;

export interface RouteContext<Body, Params = Record<string, never>, Query = Record<string, never>> {
  body: Body;
  /** The path parameters the route declares, parsed by their schemas. */
  params: Params;
  /** The query parameters the route declares, parsed by their schemas. */
  query: Query;
  req: Request;
  res: Response;
  correlationId: string;
}

export interface RouteSpec<S extends z.ZodType | undefined, P extends Fields | undefined, Q extends Fields | undefined>
  extends Omit<DocumentedRoute, 'body' | 'params' | 'query'> {
  body?: S;
  params?: P;
  query?: Q;
  /** Steps run before anything of the request is read (API key, cross-site guard, rate limits), in order. */
  steps?: RequestHandler[];
  /** Steps that look at the JSON body as sent, after it is read and before its schema parses it. */
  bodySteps?: RequestHandler[];
  handle: (context: RouteContext<S extends z.ZodType ? z.output<S> : undefined, Parsed<P>, Parsed<Q>>) => Promise<Reply> | Reply;
}

/** A route with its types erased, so a service can keep all of its routes in one table. */
export interface Route extends DocumentedRoute {
  /**
   * Mounts the route; `readJson` parses the body and runs only on routes that declare one, and
   * `readForm` a form-encoded one on routes that also take that (`formBody`).
   */
  mount(router: Router, readJson?: RequestHandler, readForm?: RequestHandler): void;
}

/**
 * An endpoint as a short pipeline: named steps (who may ask), the path parameters checked (spec
 * 2.1: before any lookup), the JSON body read, its steps, the body and query parsed against their
 * schemas, then the handler, whose `{status, body}` is sent as JSON. The same schemas document it.
 */
export function route<S extends z.ZodType | undefined = undefined, P extends Fields | undefined = undefined, Q extends Fields | undefined = undefined>(
  spec: RouteSpec<S, P, Q>,
): Route {
  const { steps = [], bodySteps = [], handle, ...documented } = spec;
  // Built once: zod compiles a schema on its first parse, which per request costs more than the parse.
  const paramsSchema = spec.params ? z.object(spec.params) : undefined;
  const querySchema = spec.query ? z.object(spec.query) : undefined;
  const checkParams: RequestHandler[] = paramsSchema
    ? [
        (req, res, next) => {
          res.locals.params = parseFields(paramsSchema, req.params);
          next();
        },
      ]
    : [];
  const terminal: RequestHandler = async (req, res) => {
    const body = (spec.body ? parseBody(spec.body, req.body) : undefined) as S extends z.ZodType ? z.output<S> : undefined;
    const query = (querySchema ? parseFields(querySchema, req.query) : {}) as Parsed<Q>;
    const params = (res.locals.params ?? {}) as Parsed<P>;
    const reply = await handle({ body, params, query, req, res, correlationId: res.locals.correlationId });
    sendJson(res, reply);
  };
  return {
    ...documented,
    mount(router, readJson, readForm) {
      // The body is read only after the steps: a caller without the key cannot make us parse it.
      // Each reader reads only its own content type, so a form route runs both.
      const read = [...(spec.body && readJson ? [readJson] : []), ...(spec.body && spec.formBody && readForm ? [readForm] : [])];
      router[spec.method](spec.path, inOrder([...steps, ...checkParams, ...read, ...bodySteps, terminal]));
    },
  };
}

/**
 * A route's handlers in order as one Express handler, with Express's own rules: a handler goes on
 * by calling `next()`, stops the route with `next(error)`, a throw or a rejected promise (the
 * error middleware answers), or `next('route')`. Measured: the router dispatching each
 * step as a layer of its own cost more per request than most of the steps.
 */
export function inOrder(handlers: readonly RequestHandler[]): RequestHandler {
  return (req, res, done: NextFunction) => {
    let index = 0;
    const next = (error?: unknown) => {
      if (error) return done(error);
      const handler = handlers[index++];
      if (handler === undefined) return done();
      try {
        const returned: unknown = handler(req, res, next);
        if (returned instanceof Promise) returned.catch(done);
      } catch (thrown) {
        done(thrown);
      }
    };
    next();
  };
}

/**
 * The handler's reply as JSON: the bytes Express's `res.status().json()` sends (UTF-8 JSON with
 * its Content-Type, or the one the handler set, and Content-Length; no body for 204 or 304), without its per-response
 * content-type parsing and freshness checks.
 */
export function sendJson(res: Response, reply: Reply): void {
  res.statusCode = reply.status;
  if (reply.status === 204 || reply.status === 304) {
    res.end();
    return;
  }
  if (reply.raw !== undefined) {
    res.setHeader('Content-Length', Buffer.byteLength(reply.raw));
    res.end(reply.raw);
    return;
  }
  const text = JSON.stringify(reply.body) ?? '';
  // A type the handler chose (RFC 8908's application/captive+json) is kept, with charset utf-8.
  const chosen = res.getHeader('Content-Type');
  res.setHeader(
    'Content-Type',
    typeof chosen === 'string' ? `${chosen.replace(/\s*;\s*charset=[^;]*/i, '')}; charset=utf-8` : 'application/json; charset=utf-8',
  );
  res.setHeader('Content-Length', Buffer.byteLength(text));
  // Node itself sends no body to a HEAD request.
  res.end(text);
}
