import test, { type ExecutionContext } from 'ava';
import { z } from 'zod';
import { createServiceApp, requireApiKey, route } from '../../../services/kit/index.js';
import { assertError } from '../../helpers/error-shape.js';
import { boot, capturingLogger } from '../../helpers/service.js';

async function guarded(t: ExecutionContext) {
  const guardedRoute = route({
    method: 'get',
    path: '/guarded',
    summary: 'guarded',
    security: 'apiKey',
    steps: [requireApiKey('right-key-123')],
    responses: { 200: { description: 'ok', schema: z.object({ ok: z.literal(true) }) } },
    handle: () => ({ status: 200, body: { ok: true } }),
  });
  return boot(t, createServiceApp({ service: 'x', logger: capturingLogger().logger, routes: [guardedRoute] }));
}

for (const [what, headers] of [
  ['no key', {}],
  ['a wrong key', { 'X-API-Key': 'wrong-key-123' }],
  ['a key that is a prefix of the right one', { 'X-API-Key': 'right-key' }],
  ['an empty key', { 'X-API-Key': '' }],
] as const) {
  test(`${what} gets 401 UNAUTHORIZED`, async (t) => {
    const service = await guarded(t);
    assertError(t, await service.request('GET', '/guarded', { headers }), 401, 'UNAUTHORIZED');
  });
}

test('the right key passes', async (t) => {
  const service = await guarded(t);
  const answer = await service.request('GET', '/guarded', { headers: { 'X-API-Key': 'right-key-123' } });
  t.is(answer.status, 200);
});

async function guardedWithBody(t: ExecutionContext) {
  const guardedRoute = route({
    method: 'post',
    path: '/guarded',
    summary: 'guarded, with a JSON body',
    security: 'apiKey',
    body: z.object({ n: z.number() }),
    steps: [requireApiKey('right-key-123')],
    responses: { 200: { description: 'ok', schema: z.object({ ok: z.literal(true) }) } },
    handle: () => ({ status: 200, body: { ok: true } }),
  });
  return boot(t, createServiceApp({ service: 'x', logger: capturingLogger().logger, routes: [guardedRoute] }));
}

for (const [what, raw] of [
  ['malformed JSON', '{"n": '],
  ['a body over the size limit', JSON.stringify({ n: 1, pad: 'x'.repeat(64 * 1024) })],
] as const) {
  test(`${what} without the key gets 401 UNAUTHORIZED: the body is read only after the key is checked`, async (t) => {
    const service = await guardedWithBody(t);
    assertError(t, await service.request('POST', '/guarded', { raw, headers: { 'Content-Type': 'application/json' } }), 401, 'UNAUTHORIZED');
  });
}

test('with the right key, malformed JSON is 400 INVALID_REQUEST and a good body passes', async (t) => {
  const service = await guardedWithBody(t);
  const headers = { 'content-type': 'application/json', 'X-API-Key': 'right-key-123' };
  assertError(t, await service.request('POST', '/guarded', { raw: '{"n": ', headers }), 400, 'INVALID_REQUEST');
  t.is((await service.request('POST', '/guarded', { json: { n: 1 }, headers })).status, 200);
});
