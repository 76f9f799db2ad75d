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
