import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { ExecutionContext } from 'ava';
import type { Express } from 'express';
import { createLogger, listen, type FastPath, type Logger } from '../../services/kit/index.js';
import { responseProblem, type OpenApiDocument } from './openapi-check.js';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON object body; empty when the body is not a JSON object. */
  body: Record<string, unknown>;
}

export interface Booted {
  url: string;
  request(method: string, path: string, options?: { json?: unknown; raw?: string; headers?: Record<string, string> }): Promise<Answer>;
  /** The app's own OpenAPI document (GET /openapi.json), or undefined when it serves none. */
  document(): Promise<OpenApiDocument | undefined>;
}

/**
 * Starts an app on a free port, as the process would, and gives a small client for it; closed
 * when the test ends. Every answer is checked against the app's own OpenAPI document (status
 * declared, body valid against the declared schema): a mismatch fails the test that made it.
 */
export async function boot(t: ExecutionContext, app: Express, fastPath?: FastPath): Promise<Booted> {
  const server: Server = await listen(app, 0, undefined, fastPath);
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let document: Promise<OpenApiDocument | undefined> | undefined;
  const loadDocument = () =>
    (document ??= fetch(`${url}/openapi.json`).then(async (response) => {
      const value = response.ok ? ((await response.json()) as OpenApiDocument) : undefined;
      return value !== undefined && typeof value.openapi === 'string' ? value : undefined;
    }));
  return {
    url,
    document: loadDocument,
    async request(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      let body: string | undefined = options.raw;
      if (options.json !== undefined) {
        body = JSON.stringify(options.json);
        headers['content-type'] ??= 'application/json';
      }
      const response = await fetch(url + path, { method, headers, body, redirect: 'manual' });
      const text = await response.text();
      if (path !== '/openapi.json') {
        const spec = await loadDocument();
        const problem = spec && responseProblem(spec, method, path, response.status, parseJson(text), response.headers.get('allow'));
        if (problem) t.fail(`answer does not match the OpenAPI document: ${problem}`);
      }
      return { status: response.status, headers: response.headers, text, body: parseObject(text) };
    },
  };
}

/** A real pino logger whose lines are kept in memory, to assert on what a service logged. */
export function capturingLogger(service = 'test'): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { logger: createLogger({ service, level: 'trace', destination }), lines };
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function parseObject(text: string): Record<string, unknown> {
  const value = parseJson(text);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
