import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { assertError } from '../../helpers/error-shape.js';
import { decisionService, evaluatePath, modelDirectory } from './decision-service.js';

// Models with a BKM (a decision table inside it), a context, item definitions, a
// literal expression reading a structured output by path, saved as DMN 1.4 and 1.5 with DMNDI.
const MODELS = 'test/dmn/models/service';

const cases: Array<[model: string, inputs: Record<string, unknown>, results: Record<string, unknown>]> = [
  ['RoamingFee', { devices: 4, tier: 'SILVER' }, { Quote: { perDevice: 1.5, total: 6 }, Summary: 'paid' }],
  ['RoamingFee', { devices: 2, tier: 'GOLD' }, { Quote: { perDevice: 0, total: 0 }, Summary: 'free' }],
  ['RoamingFee15', { devices: 1, tier: 'NONE' }, { Quote: { perDevice: 3, total: 3 }, Summary: 'paid' }],
];

for (const [model, inputs, results] of cases) {
  test(`over HTTP, ${model} (${JSON.stringify(inputs)}) evaluates its BKM, context and path read`, async (t) => {
    const service = await decisionService(t, MODELS);
    const answer = await service.request('POST', evaluatePath(model), { json: { inputs } });
    t.is(answer.status, 200, answer.text);
    t.deepEqual(answer.body.results, results);
    t.false('problems' in answer.body);
  });
}

test("over HTTP, an input outside its item definition's allowed values is null plus a problem, not a crash", async (t) => {
  const service = await decisionService(t, MODELS);
  const answer = await service.request('POST', evaluatePath('RoamingFee'), { json: { inputs: { devices: 40, tier: 'SILVER' } } });
  t.is(answer.status, 200, answer.text);
  t.deepEqual(answer.body.results, { Quote: { perDevice: 1.5, total: null }, Summary: 'paid' });
  t.like((answer.body.problems as unknown[])[0], { decision: 'Quote', cell: "input data 'devices'" });
});

test('over HTTP, an input of the wrong type for the BKM answers 422 DMN_EVALUATION_ERROR naming the decision and the input', async (t) => {
  const service = await decisionService(t, MODELS);
  const answer = await service.request('POST', evaluatePath('RoamingFee'), { json: { inputs: { devices: 2, tier: 7 } } });
  assertError(t, answer, 422, 'DMN_EVALUATION_ERROR');
  t.regex(String(answer.body.message), /^decision 'Quote', input data 'tier'/);
});

test('the list shows the 1.4 and 1.5 models with their decisions', async (t) => {
  const service = await decisionService(t, MODELS);
  const answer = await service.request('GET', '/api/v1/decisions');
  t.is(answer.status, 200);
  t.deepEqual(
    (answer.body.models as Array<{ model: string; decisions: string[] }>).map((m) => [m.model, m.decisions]),
    [
      ['RoamingFee', ['Quote', 'Summary']],
      ['RoamingFee15', ['Quote', 'Summary']],
    ],
  );
});

test('a DMN 1.5 boxed conditional loads on reload and evaluates', async (t) => {
  const dir = await modelDirectory(t);
  const service = await decisionService(t, dir);
  await copyFile('test/dmn/models/newer/Conditional15.dmn', join(dir, 'Conditional15.dmn'));
  const reload = await service.request('POST', '/api/v1/decisions/reload');
  t.is(reload.status, 200, reload.text);
  const answer = await service.request('POST', evaluatePath('Conditional'), { json: { inputs: { a: 2 } } });
  t.is(answer.status, 200, answer.text);
  t.deepEqual(answer.body.results, { D: 'big' });
});
