import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { assertError } from '../../helpers/error-shape.js';
import { decisionService, evaluatePath, modelDirectory } from './decision-service.js';

// DMN 1.3 section 6.3.3 imports between models of the same folder. VenueFee
// imports SharedPricing as `shared`: its item definitions (typeRef `shared.tTier`), a BKM that
// calls another of its model (`shared.fee`) and a decision service (`shared.BaseService`).
const MODELS = 'test/dmn/models/imports';
const window = { from: '2024-03-30T22:00:00+01:00', until: '2024-03-31T10:00:00+02:00' };

// [what it checks, inputs, decision, expected]
const cases: Array<[string, Record<string, unknown>, string, unknown]> = [
  ['an imported BKM calling a BKM of its own model', { tier: 'SILVER', devices: 4 }, 'Fee', 6],
  ['an imported decision service', { devices: 4 }, 'SharedBase', 8],
  ['an imported structured item definition with dateTime components, across a DST change', { window }, 'WindowHours', 11],
  ['an imported decision, its input data given under the prefix', { tier: 'GOLD', devices: 4, shared: { devices: 5 } }, 'Total', 10],
];

for (const [what, inputs, decision, expected] of cases) {
  test(`over HTTP, VenueFee ${decision}: ${what}`, async (t) => {
    const service = await decisionService(t, MODELS);
    const answer = await service.request('POST', evaluatePath('VenueFee'), { json: { decision, inputs } });
    t.is(answer.status, 200, answer.text);
    t.deepEqual((answer.body.results as Record<string, unknown>)[decision], expected);
  });
}

test("over HTTP, an imported item definition's allowed values apply: null plus a problem", async (t) => {
  const service = await decisionService(t, MODELS);
  const answer = await service.request('POST', evaluatePath('VenueFee'), { json: { decision: 'Fee', inputs: { tier: 'PLATINUM', devices: 1 } } });
  t.is(answer.status, 200, answer.text);
  t.like((answer.body.problems as unknown[])[0], { decision: 'Fee', cell: "input data 'tier'" });
});

test('over HTTP, the whole importing model needs the imported input data under the prefix, and answers only its own decisions', async (t) => {
  const service = await decisionService(t, MODELS);
  const answer = await service.request('POST', evaluatePath('VenueFee'), { json: { inputs: { tier: 'SILVER', devices: 2, window, shared: { devices: 1 } } } });
  t.is(answer.status, 200, answer.text);
  t.deepEqual(answer.body.results, { Fee: 3, SharedBase: 4, WindowHours: 11, Total: 5 });
});

test('over HTTP, an imported decision whose input data is missing under the prefix is a 422 naming it', async (t) => {
  const service = await decisionService(t, MODELS);
  const answer = await service.request('POST', evaluatePath('VenueFee'), { json: { decision: 'Total', inputs: { tier: 'GOLD', devices: 4, shared: {} } } });
  assertError(t, answer, 422, 'DMN_EVALUATION_ERROR');
  t.regex(String(answer.body.message), /^decision 'shared\.Base', input data 'shared\.devices'/);
});

test('a model importing a namespace no model of the folder has fails the reload, naming file and namespace', async (t) => {
  const dir = await modelDirectory(t);
  const service = await decisionService(t, dir);
  await copyFile(join(MODELS, 'VenueFee.dmn'), join(dir, 'VenueFee.dmn'));
  const answer = await service.request('POST', '/api/v1/decisions/reload');
  assertError(t, answer, 422, 'DMN_EVALUATION_ERROR');
  t.regex(String(answer.body.message), /VenueFee\.dmn: .*imports 'urn:wifi:shared-pricing' as 'shared', but no model of the folder has that namespace/);
});
