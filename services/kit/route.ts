import type { Request, RequestHandler, Response, Router } from 'express';
import { z } from 'zod';
import type { DocumentedRoute } from './openapi.js';
import { parseBody, parseFields } from './validate.js';

export interface Reply {
  status: number;
  body: unknown;
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
  /** Mounts the route; `readJson` parses the body and runs only on routes that declare one. */
  mount(router: Router, readJson?: RequestHandler): void;
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
    res.status(reply.status).json(reply.body);
  };
  return {
    ...documented,
    mount(router, readJson) {
      // The body is read only after the steps: a caller without the key cannot make us parse it.
      const read = spec.body && readJson ? [readJson] : [];
      router[spec.method](spec.path, ...steps, ...checkParams, ...read, ...bodySteps, terminal);
    },
  };
}
