import type { Request, RequestHandler, Response, Router } from 'express';
import { z } from 'zod';
import type { DocumentedRoute } from './openapi.js';
import { parseBody } from './validate.js';

export interface Reply {
  status: number;
  body: unknown;
}

export interface RouteContext<Body> {
  body: Body;
  /** The query parameters the route declares, parsed by their schemas (empty when it declares none). */
  query: Record<string, unknown>;
  req: Request;
  res: Response;
  correlationId: string;
}

export interface RouteSpec<S extends z.ZodType | undefined> extends Omit<DocumentedRoute, 'body'> {
  body?: S;
  /** Steps run before the body is read (API key, fault harness, rate limits), in order. */
  steps?: RequestHandler[];
  /** Checks of the raw JSON body, run after it is read and before its schema parse. */
  bodySteps?: RequestHandler[];
  handle: (context: RouteContext<S extends z.ZodType ? z.output<S> : undefined>) => Promise<Reply> | Reply;
}

/** A route with its types erased, so a service can keep all of its routes in one table. */
export interface Route extends DocumentedRoute {
  /** Mounts the route; `readJson` parses the body and runs only on routes that declare one. */
  mount(router: Router, readJson?: RequestHandler): void;
}

/**
 * An endpoint as a short pipeline: named steps, then the body parsed against its schema,
 * then the handler, whose `{status, body}` is sent as JSON. The same schema documents it.
 */
export function route<S extends z.ZodType | undefined = undefined>(spec: RouteSpec<S>): Route {
  const { steps = [], bodySteps = [], handle, ...documented } = spec;
  // Built once: zod compiles a schema on its first parse, which per request costs more than the parse.
  const querySchema = spec.query ? z.object(spec.query) : undefined;
  const terminal: RequestHandler = async (req, res) => {
    const body = (spec.body ? parseBody(spec.body, req.body) : undefined) as S extends z.ZodType ? z.output<S> : undefined;
    const query = querySchema ? (parseBody(querySchema, req.query) as Record<string, unknown>) : {};
    const reply = await handle({ body, query, req, res, correlationId: res.locals.correlationId });
    res.status(reply.status).json(reply.body);
  };
  return {
    ...documented,
    mount(router, readJson) {
      // The body is read only after the steps: a caller without the key cannot make us parse it.
      const parse = spec.body && readJson ? [readJson] : [];
      router[spec.method](spec.path, ...steps, ...parse, ...bodySteps, terminal);
    },
  };
}
