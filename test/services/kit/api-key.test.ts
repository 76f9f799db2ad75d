import test, { type ExecutionContext } from 'ava';
import { z } from 'zod';
import { apiKeyList, createServiceApp, requireApiKey, route } from '../../../services/kit/index.js';
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

// One key per caller, each with its scopes; several keys during a rotation.
const KEYS = apiKeyList(['read', 'write'], 'reader:reader-key-old:read;reader:reader-key-new:read;writer:writer-key-123:read,write');

async function scoped(t: ExecutionContext, list = KEYS.parse(undefined)) {
  const scopedRoute = (path: string, scope: 'read' | 'write') =>
    route({
      method: 'get',
      path,
      summary: path,
      security: 'apiKey',
      steps: [requireApiKey(list, scope)],
      responses: { 200: { description: 'ok', schema: z.object({ ok: z.literal(true) }) }, 403: { description: 'FORBIDDEN' } },
      handle: () => ({ status: 200, body: { ok: true } }),
    });
  return boot(t, createServiceApp({ service: 'x', logger: capturingLogger().logger, routes: [scopedRoute('/read', 'read'), scopedRoute('/write', 'write')] }));
}

test("a known key without the route's scope gets 403 FORBIDDEN, one with it passes", async (t) => {
  const service = await scoped(t);
  assertError(t, await service.request('GET', '/write', { headers: { 'X-API-Key': 'reader-key-new' } }), 403, 'FORBIDDEN');
  t.is((await service.request('GET', '/read', { headers: { 'X-API-Key': 'reader-key-new' } })).status, 200);
  t.is((await service.request('GET', '/write', { headers: { 'X-API-Key': 'writer-key-123' } })).status, 200);
});

test("a key that is in no entry gets 401 UNAUTHORIZED, whatever the route's scope", async (t) => {
  const service = await scoped(t);
  for (const path of ['/read', '/write']) {
    assertError(t, await service.request('GET', path, { headers: { 'X-API-Key': 'stranger-key-1' } }), 401, 'UNAUTHORIZED');
    assertError(t, await service.request('GET', path), 401, 'UNAUTHORIZED');
  }
});

test('two keys of one caller both work (a rotation), and the 403 body names no key', async (t) => {
  const service = await scoped(t);
  for (const key of ['reader-key-old', 'reader-key-new']) t.is((await service.request('GET', '/read', { headers: { 'X-API-Key': key } })).status, 200);
  const refused = await service.request('GET', '/write', { headers: { 'X-API-Key': 'reader-key-old' } });
  t.false(refused.text.includes('reader-key-old'));
});

for (const [what, text, problem] of [
  ['an unknown scope', 'reader:reader-key-1:read,delete', /entry 1: unknown scope delete/],
  ['a key shorter than 8 characters', 'reader:short:read', /entry 1: must be name:key:scope/],
  ['an entry without scopes', 'reader:reader-key-1', /entry 1: must be name:key:scope/],
  ['the same key twice', 'a:same-key-123:read b:same-key-123:write', /entry 2: the same key twice/],
  ['no entry at all', ' ; ', /at least one key/],
] as const) {
  test(`a key list with ${what} is refused, naming the entry but not the key`, (t) => {
    const result = KEYS.safeParse(text);
    t.false(result.success);
    const messages = result.error?.issues.map((issue) => issue.message).join('; ') ?? '';
    t.regex(messages, problem);
    t.false(messages.includes('key-1') || messages.includes('same-key'));
  });
}

test('entries may be separated by ; or whitespace', (t) => {
  t.deepEqual(
    KEYS.parse('a:key-one-111:read;  b:key-two-222:read,write\nc:key-three-333:write').map((entry) => entry.name),
    ['a', 'b', 'c'],
  );
});
