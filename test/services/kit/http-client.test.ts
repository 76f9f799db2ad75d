import test from 'ava';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { callJson, OutboundError } from '../../../services/kit/index.js';

type Behaviour = (attempt: number) => { reset?: boolean; delayMs?: number; status?: number; text?: string; headers?: Record<string, string> };

async function peer(behaviour: Behaviour) {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    const { reset = false, delayMs = 0, status = 200, text = '{"ok":true}', headers = { 'content-type': 'application/json' } } = behaviour(seen.length);
    if (reset) {
      req.socket.destroy();
      return;
    }
    setTimeout(() => {
      if (res.destroyed) return;
      res.writeHead(status, headers).end(text);
    }, delayMs).unref();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
  return {
    url,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const CORR = 'corr-123e4567-e89b-42d3-a456-426614174000';

test('an answer of any status is returned with its parsed body and the correlation id is carried', async (t) => {
  const server = await peer(() => ({ status: 429, text: '{"code":"RATE_LIMITED"}' }));
  const answer = await callJson({ url: server.url, body: { a: 1 }, correlationId: CORR, timeoutMs: 1000 });
  t.deepEqual(answer, { status: 429, body: { code: 'RATE_LIMITED' } });
  t.is(server.seen[0]?.['x-correlation-id'], CORR);
  await server.close();
});

// A peer that holds an answer far past the budget (HOLD), so no machine load can make it look fast.
const HOLD = 60_000;

test('a peer slower than the budget is a timeout, retried up to the attempt count', async (t) => {
  const server = await peer(() => ({ delayMs: HOLD }));
  // Each attempt has 2 s: long enough for a busy machine to deliver both requests, which the
  // peer counts (a budget of a few hundred ms could expire before the second one arrives).
  const error = await t.throwsAsync(callJson({ url: server.url, body: {}, correlationId: CORR, timeoutMs: 2000, attempts: 2 }), { instanceOf: OutboundError });
  t.is(error?.failure, 'timeout');
  t.is(server.seen.length, 2);
  await server.close();
});

test('a second attempt that answers in time succeeds', async (t) => {
  const server = await peer((n) => (n === 1 ? { delayMs: HOLD } : {}));
  const answer = await callJson({ url: server.url, body: {}, correlationId: CORR, timeoutMs: 2000, attempts: 2 });
  t.is(answer.status, 200);
  t.is(server.seen.length, 2);
  await server.close();
});

test('a closed port is unreachable', async (t) => {
  const server = await peer(() => ({}));
  const url = server.url;
  await server.close();
  const error = await t.throwsAsync(callJson({ url, correlationId: CORR, timeoutMs: 500 }), { instanceOf: OutboundError });
  t.is(error?.failure, 'unreachable');
});

test('a body that is not JSON is a bad response and is not retried', async (t) => {
  const server = await peer(() => ({ text: '<html>' }));
  const error = await t.throwsAsync(callJson({ url: server.url, correlationId: CORR, timeoutMs: 500, attempts: 3 }), { instanceOf: OutboundError });
  t.is(error?.failure, 'bad-response');
  t.is(server.seen.length, 1);
  await server.close();
});

// What a Keycloak node answers while it starts (its bootstrap filter, before any endpoint runs).
const BOOTSTRAPPING = { status: 503, text: 'Bootstrap in progress. Retry in 3 seconds.', headers: { 'content-type': 'text/plain', 'retry-after': '3' } };

test('a 503 refusal before the request was read (Retry-After, no JSON) is sent again, even with one attempt', async (t) => {
  const server = await peer((n) => (n === 1 ? BOOTSTRAPPING : {}));
  const answer = await callJson({ url: server.url, form: { grant_type: 'password' }, correlationId: CORR, timeoutMs: 1000 });
  t.deepEqual(answer, { status: 200, body: { ok: true } });
  t.is(server.seen.length, 2);
  await server.close();
});

test('such refusals are sent again at most twice; a JSON 503 is an answer and is not repeated', async (t) => {
  const refusing = await peer(() => BOOTSTRAPPING);
  const error = await t.throwsAsync(callJson({ url: refusing.url, body: {}, correlationId: CORR, timeoutMs: 1000 }), { instanceOf: OutboundError });
  t.is(error?.failure, 'bad-response');
  t.is(refusing.seen.length, 3);
  await refusing.close();
  const answering = await peer(() => ({
    status: 503,
    text: '{"error":"hr_unavailable"}',
    headers: { 'content-type': 'application/json', 'retry-after': '3' },
  }));
  t.deepEqual(await callJson({ url: answering.url, body: {}, correlationId: CORR, timeoutMs: 1000 }), { status: 503, body: { error: 'hr_unavailable' } });
  t.is(answering.seen.length, 1);
  await answering.close();
});

test('a connection lost under the request is attempted again when the call allows reconnects, and is unreachable without', async (t) => {
  // The first two requests lose their connection, later ones are answered.
  const server = await peer((n) => (n <= 2 ? { reset: true } : {}));
  const error = await t.throwsAsync(callJson({ url: server.url, body: {}, correlationId: CORR, timeoutMs: 2000 }), { instanceOf: OutboundError });
  t.is(error?.failure, 'unreachable');
  t.is(server.seen.length, 1);
  const answer = await callJson({ url: server.url, body: {}, correlationId: CORR, timeoutMs: 2000, reconnects: 1 });
  t.is(answer.status, 200);
  t.is(server.seen.length, 3);
  await server.close();
});

test('reconnects never repeat a timeout: the budget is one attempt', async (t) => {
  const server = await peer(() => ({ delayMs: HOLD }));
  const error = await t.throwsAsync(callJson({ url: server.url, body: {}, correlationId: CORR, timeoutMs: 1000, reconnects: 2 }), {
    instanceOf: OutboundError,
  });
  t.is(error?.failure, 'timeout');
  t.is(server.seen.length, 1);
  await server.close();
});
