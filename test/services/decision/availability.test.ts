import { copyFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { assertError } from '../../helpers/error-shape.js';
import { decisionService, evaluatePath, modelDirectory, MODEL_FILE } from './decision-service.js';

const CUSTOMER = { inputs: { userType: 'CUSTOMER', employeeVerified: false, company: null }, decision: 'WifiEntitlement' };

const unloadable: Array<[string, (dir: string) => Promise<void>, RegExp]> = [
  ['an empty model directory', async () => undefined, /DMN_DIR holds no \.dmn file/],
  ['a directory whose only model does not compile', (dir) => writeFile(join(dir, 'WifiEntitlement.dmn'), '<definitions'), /WifiEntitlement\.dmn: /],
];

for (const [what, prepare, message] of unloadable) {
  test(`with ${what} the service starts but answers 503 DMN_UNAVAILABLE, health included`, async (t) => {
    const dir = await modelDirectory(t, false);
    await prepare(dir);
    const service = await decisionService(t, dir);
    const health = await service.request('GET', '/health');
    assertError(t, health, 503, 'DMN_UNAVAILABLE');
    t.regex(String(health.body.message), message);
    assertError(t, await service.request('POST', evaluatePath(), { json: CUSTOMER }), 503, 'DMN_UNAVAILABLE');
    assertError(t, await service.request('GET', '/api/v1/decisions'), 503, 'DMN_UNAVAILABLE');
    assertError(t, await service.request('POST', '/api/v1/decisions/reload'), 503, 'DMN_UNAVAILABLE');
  });
}

test('a DMN_DIR that does not exist leaves the service unavailable', async (t) => {
  const service = await decisionService(t, join(tmpdir(), 'no-such-dmn-dir-for-tests'));
  const health = await service.request('GET', '/health');
  assertError(t, health, 503, 'DMN_UNAVAILABLE');
  t.regex(String(health.body.message), /DMN_DIR cannot be read \(ENOENT\)/);
});

test('once a model file arrives, a reload makes the service available', async (t) => {
  const dir = await modelDirectory(t, false);
  const service = await decisionService(t, dir);
  await copyFile(MODEL_FILE, join(dir, 'WifiEntitlement.dmn'));
  t.is((await service.request('POST', '/api/v1/decisions/reload')).status, 200);
  t.is((await service.request('GET', '/health')).status, 200);
  t.is((await service.request('POST', evaluatePath(), { json: CUSTOMER })).status, 200);
});
