import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { apiKeyCheck, API_KEY_HEADER } from './api-key.js';
import { acceptCorrelationId, CORRELATION_HEADER } from './correlation.js';
import { ApiError, errorBody } from './errors.js';
import type { Logger } from './logger.js';
import { observeRequest } from './metrics.js';
import { parseBody, parseFields } from './validate.js';

/** A handler the server tries before the Express stack: true when it took the request. */
export type FastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

export interface FastPathSpec<B extends z.ZodType, Q extends z.ZodType> {
  service: string;
  /** The route as the Express stack also mounts it (documented there; reached there without a query). */
  path: string;
  apiKey: string;
  query: Q;
  body: B;
  bodyLimitBytes: number;
  logger: Logger;
  /** The route's work; its answer is 204. */
  handle: (context: { body: z.output<B>; query: z.output<Q>; correlationId: string }) => Promise<void>;
}

/**
 * Issue 27: one machine-called `POST <path>?query` answered 204 without Express (FreeRADIUS's
 * accounting, every Interim-Update of every connection): the same steps in the same order as
 * the kit's route() (key before the body is read, query and body parsed by their schemas), the
 * same error object, the same request metrics and correlation header, the request line at debug
 * (at info for a refusal), and nothing else per request.
 */
export function jsonFastPath<B extends z.ZodType, Q extends z.ZodType>(spec: FastPathSpec<B, Q>): FastPath {
  const keyMatches = apiKeyCheck(spec.apiKey);
  const prefix = `${spec.path}?`;
  return (req, res) => {
    if (req.method !== 'POST' || req.url?.startsWith(prefix) !== true) return false;
    const started = process.hrtime.bigint();
    const correlationId = acceptCorrelationId(req.headers[CORRELATION_HEADER.toLowerCase()] as string | undefined);
    res.setHeader(CORRELATION_HEADER, correlationId);
    const finish = (status: number, error?: ApiError) => {
      if (error === undefined) res.writeHead(status).end();
      else res.writeHead(error.status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(errorBody(error, correlationId)));
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      observeRequest(spec.service, spec.path, 'POST', res.statusCode, ms / 1000);
      const line = { correlationId, method: 'POST', path: spec.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 };
      if (res.statusCode < 400) spec.logger.debug(line, 'request');
      else spec.logger.info(line, 'request');
    };
    const fail = (error: unknown) => {
      if (error instanceof ApiError) return finish(error.status, error);
      spec.logger.error({ err: error, correlationId, path: spec.path }, 'unexpected error');
      finish(500, new ApiError('INTERNAL_ERROR'));
    };
    if (!keyMatches(req.headers[API_KEY_HEADER.toLowerCase()] as string | undefined)) {
      req.resume();
      fail(new ApiError('UNAUTHORIZED', { message: 'A valid X-API-Key header is required.' }));
      return true;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= spec.bodyLimitBytes) chunks.push(chunk);
    });
    req.on('end', () => {
      void (async () => {
        if (size > spec.bodyLimitBytes) throw new ApiError('INVALID_REQUEST', { message: 'The request body is too large.' });
        let json: unknown;
        if (/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
          try {
            json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            throw new ApiError('INVALID_REQUEST', { message: 'The request body is not valid JSON.' });
          }
        }
        const query = parseFields(spec.query, Object.fromEntries(new URLSearchParams((req.url ?? '').slice(prefix.length))));
        const body = parseBody(spec.body, json);
        await spec.handle({ body, query, correlationId });
        finish(204);
      })().catch(fail);
    });
    req.on('error', () => fail(new ApiError('INVALID_REQUEST', { message: 'The request body was not received whole.' })));
    return true;
  };
}
