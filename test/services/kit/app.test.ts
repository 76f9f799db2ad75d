import test, { type ExecutionContext } from 'ava';
import { z } from 'zod';
import type { RequestHandler } from 'express';
import { ApiError, createServiceApp, healthRoute, listen, route, type Readiness } from '../../../services/kit/index.js';
import { assertError } from '../../helpers/error-shape.js';
import { boot, capturingLogger } from '../../helpers/service.js';

const Echo = z.object({ name: z.string().min(1), count: z.number().int().max(10) });

async function kitApp(t: ExecutionContext, readiness?: () => Readiness) {
  const { logger, lines } = capturingLogger();
  const app = createServiceApp({
    service: 'kit-test',
    logger,
    routes: [
      healthRoute('kit-test', readiness),
      route({
        method: 'post',
        path: '/echo',
        summary: 'echo',
        body: Echo,
        responses: { 200: { description: 'ok', schema: Echo } },
        handle: ({ body }) => ({ status: 200, body }),
      }),
      route({
        method: 'get',
        path: '/boom',
        summary: 'fails',
        responses: {},
        handle: () => {
          throw new Error('database password=hunter2 at /secret/path');
        },
      }),
    ],
  });
  return { service: await boot(t, app), lines };
}

test('a valid body reaches the handler', async (t) => {
  const { service } = await kitApp(t);
  const answer = await service.request('POST', '/echo', { json: { name: 'a', count: 2 } });
  t.is(answer.status, 200);
  t.deepEqual(answer.body, { name: 'a', count: 2 });
});

const BAD_BODIES: Array<[string, { raw?: string; json?: unknown; headers?: Record<string, string> }]> = [
  ['non-JSON text', { raw: '{"name":', headers: { 'content-type': 'application/json' } }],
  ['a wrong content type', { raw: 'name=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } }],
  ['no body at all', {}],
  ['a missing field', { json: { count: 1 } }],
  ['a wrong type', { json: { name: 'a', count: '1' } }],
  ['a value just outside its limit', { json: { name: 'a', count: 11 } }],
  ['a JSON array', { json: [1, 2] }],
  ['a JSON string primitive', { raw: '"text"', headers: { 'content-type': 'application/json' } }],
  ['an oversized body', { json: { name: 'x'.repeat(40_000), count: 1 } }],
];

for (const [what, options] of BAD_BODIES) {
  test(`${what} gets 400 INVALID_REQUEST in the error shape`, async (t) => {
    const { service } = await kitApp(t);
    assertError(t, await service.request('POST', '/echo', options), 400, 'INVALID_REQUEST');
  });
}

test('an unknown route gets 404 in the error shape', async (t) => {
  const { service } = await kitApp(t);
  assertError(t, await service.request('GET', '/nowhere'), 404, 'NOT_FOUND');
});

test('an unexpected exception is a generic 500 that leaks nothing, and is logged without its secret', async (t) => {
  const { service, lines } = await kitApp(t);
  const answer = await service.request('GET', '/boom');
  assertError(t, answer, 500, 'INTERNAL_ERROR');
  t.false(answer.text.includes('hunter2'));
  t.false(answer.text.includes('/secret/path'));
  t.true(lines.some((line) => line.includes('unexpected error')));
});

test('health answers UP with the service name', async (t) => {
  const { service } = await kitApp(t);
  const answer = await service.request('GET', '/health');
  t.is(answer.status, 200);
  t.like(answer.body, { status: 'UP', service: 'kit-test' });
});

test('health answers 503 with an error object when not ready', async (t) => {
  const { service } = await kitApp(t, () => ({ ready: false, code: 'DMN_UNAVAILABLE', message: 'no model' }));
  assertError(t, await service.request('GET', '/health'), 503, 'DMN_UNAVAILABLE');
});

test('the OpenAPI document is built from the same schema that validates the body', async (t) => {
  const { service } = await kitApp(t);
  const answer = await service.request('GET', '/openapi.json');
  t.is(answer.status, 200);
  const paths = answer.body.paths as Record<
    string,
    Record<string, { requestBody?: { content: Record<string, { schema: { properties: Record<string, { maximum?: number }> } }> } }>
  >;
  const schema = paths['/echo']?.post?.requestBody?.content['application/json']?.schema;
  t.is(schema?.properties.count?.maximum, 10);
  t.truthy(paths['/health']?.get);
});

test('an unsupported method on a known path answers 405 with Allow, not 404', async (t) => {
  const { service } = await kitApp(t);
  const answer = await service.request('DELETE', '/echo');
  assertError(t, answer, 405, 'METHOD_NOT_ALLOWED');
  t.is(answer.headers.get('allow'), 'POST');
  const health = await service.request('PUT', '/health');
  assertError(t, health, 405, 'METHOD_NOT_ALLOWED');
  t.is(health.headers.get('allow'), 'GET, HEAD');
  t.is((await service.request('POST', '/openapi.json')).headers.get('allow'), 'GET, HEAD');
});

test('a body is read only by routes that declare one: broken JSON to an unknown path is still 404', async (t) => {
  const { service } = await kitApp(t);
  assertError(t, await service.request('POST', '/nowhere', { raw: '{"broken":', headers: { 'content-type': 'application/json' } }), 404, 'NOT_FOUND');
});

test('the document declares what the kit answers on every route: 400 with a body, 500 always, errors as the 2.2 object', async (t) => {
  const { service } = await kitApp(t);
  const document = (await service.document()) as {
    paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: { required?: string[] } }> }> }>>;
  };
  const echo = document.paths['/echo']!.post!.responses;
  t.deepEqual(Object.keys(echo).sort(), ['200', '400', '500']);
  t.deepEqual(echo['400']!.content!['application/json']!.schema.required, ['code', 'message', 'correlationId', 'timestamp']);
  t.truthy(document.paths['/openapi.json']!.get);
});

test('an idle kept-alive connection outlives any client idle timeout, so the client is the one that closes it', async (t) => {
  const app = createServiceApp({ service: 'probe', logger: capturingLogger('probe').logger, routes: [] });
  const server = await listen(app, 0);
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  // undici keeps an idle socket 4 s; Node's default server timeout (5 s) races it.
  t.true(server.keepAliveTimeout > 4_000 * 10, `keepAliveTimeout ${server.keepAliveTimeout} ms`);
  t.true(server.headersTimeout > server.keepAliveTimeout);
});

test('requests machines poll (health, quiet paths) are logged at debug; others at info', async (t) => {
  const { service, lines } = await kitApp(t);
  await service.request('GET', '/health');
  await service.request('POST', '/echo', { json: { name: 'a', count: 1 } });
  const requests = lines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line['msg'] === 'request' && line['path'] !== '/openapi.json');
  t.deepEqual(
    requests.map((line) => [line['path'], line['level']]),
    [
      ['/health', 20],
      ['/echo', 30],
    ],
  );
});

// The kit's per-request work was cut (one middleware, a lazy request logger,
// a route's handlers as one, replies written directly); what it does must not change.
async function stepsApp(t: ExecutionContext) {
  const { logger, lines } = capturingLogger();
  const refuse: RequestHandler = (req, _res, next) => (req.get('x-step') === 'next-error' ? next(new ApiError('FORBIDDEN')) : next());
  const throws: RequestHandler = (req, _res, next) => {
    if (req.get('x-step') === 'throw') throw new ApiError('UNAUTHORIZED');
    next();
  };
  const rejects: RequestHandler = async (req, _res, next) => {
    if (req.get('x-step') === 'reject') throw new ApiError('RATE_LIMITED');
    next();
  };
  const app = createServiceApp({
    service: 'kit-steps',
    logger,
    routes: [
      route({
        method: 'post',
        path: '/steps',
        summary: 'steps',
        body: Echo,
        steps: [refuse, throws, rejects],
        responses: {
          200: { description: 'ok', schema: Echo },
          401: { description: 'UNAUTHORIZED' },
          403: { description: 'FORBIDDEN' },
          429: { description: 'RATE_LIMITED' },
        },
        handle: ({ body, res }) => {
          res.locals.log.info({ step: 'handler' }, 'handled');
          return { status: 200, body };
        },
      }),
      route({
        method: 'get',
        path: '/captive',
        summary: 'a type of its own',
        responses: { 200: { description: 'ok', schema: z.object({ captive: z.boolean() }) } },
        handle: ({ res }) => {
          res.set('Content-Type', 'application/captive+json');
          return { status: 200, body: { captive: true } };
        },
      }),
    ],
  });
  return { service: await boot(t, app), lines };
}

test('a step refusing by next(error), by a throw or by a rejected promise stops the route with its error; otherwise the handler answers', async (t) => {
  const { service } = await stepsApp(t);
  const json = { name: 'a', count: 1 };
  assertError(t, await service.request('POST', '/steps', { json, headers: { 'x-step': 'next-error' } }), 403, 'FORBIDDEN');
  assertError(t, await service.request('POST', '/steps', { json, headers: { 'x-step': 'throw' } }), 401, 'UNAUTHORIZED');
  assertError(t, await service.request('POST', '/steps', { json, headers: { 'x-step': 'reject' } }), 429, 'RATE_LIMITED');
  t.is((await service.request('POST', '/steps', { json })).status, 200);
});

test('a reply is JSON with its byte length; a type the handler chose is kept, with charset utf-8', async (t) => {
  const { service } = await stepsApp(t);
  const json = { name: 'Tiếng Việt', count: 1 };
  const answer = await service.request('POST', '/steps', { json });
  t.is(answer.headers.get('content-type'), 'application/json; charset=utf-8');
  t.is(Number(answer.headers.get('content-length')), Buffer.byteLength(JSON.stringify(json)));
  t.deepEqual(answer.body, json);
  const captive = await service.request('GET', '/captive');
  t.is(captive.headers.get('content-type'), 'application/captive+json; charset=utf-8');
  t.deepEqual(captive.body, { captive: true });
});

test("the request line and the lines a handler logs carry the request's correlation id", async (t) => {
  const { service, lines } = await stepsApp(t);
  const answer = await service.request('POST', '/steps', { json: { name: 'a', count: 1 } });
  const correlationId = answer.headers.get('x-correlation-id');
  t.regex(correlationId ?? '', /^corr-/);
  const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  t.is(logged.find((line) => line['msg'] === 'handled')?.['correlationId'], correlationId);
  t.is(logged.find((line) => line['msg'] === 'request' && line['path'] === '/steps')?.['correlationId'], correlationId);
});
