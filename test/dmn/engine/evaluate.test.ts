import test from 'ava';
import { evaluate } from '../../../dmn/engine/index.js';
import { compiled, type ModelSpec, type TableSpec } from './dmn-xml.js';

// Three decisions declared out of order: Offer requires Band, Band requires Score.
const score: TableSpec = {
  name: 'Score',
  reads: ['income'],
  hitPolicy: 'FIRST',
  inputs: [{ expression: 'income', typeRef: 'number' }],
  outputs: [{ typeRef: 'number' }],
  rules: [
    [['>= 5000'], ['income / 100']],
    [['-'], ['10']],
  ],
};
const band: TableSpec = {
  name: 'Band',
  requires: ['Score'],
  hitPolicy: 'UNIQUE',
  inputs: [{ expression: 'Score', typeRef: 'number' }],
  outputs: [
    { name: 'band', typeRef: 'string' },
    { name: 'limit', typeRef: 'number' },
  ],
  rules: [
    [['< 50'], ['"LOW"', 'Score * 10']],
    [['>= 50'], ['"HIGH"', 'Score * 20']],
  ],
};
const offer: TableSpec = {
  name: 'Offer',
  requires: ['Band'],
  reads: ['member'],
  hitPolicy: 'FIRST',
  inputs: [
    { expression: 'Band.band', typeRef: 'string' },
    { expression: 'member', typeRef: 'boolean' },
  ],
  outputs: [{ typeRef: 'string' }],
  rules: [
    [['"HIGH"', 'true'], ['"GOLD CARD"']],
    [['-', '-'], ['"STANDARD CARD"']],
  ],
};
const loans: ModelSpec = {
  name: 'Loans',
  inputData: [
    { name: 'income', typeRef: 'number' },
    { name: 'member', typeRef: 'boolean' },
    { name: 'channel', typeRef: 'string' },
  ],
  decisions: [offer, band, score],
};

test('required decisions are evaluated first and their results feed the decisions that need them', async (t) => {
  const model = await compiled(loans);
  t.deepEqual(model.decisions, ['Score', 'Band', 'Offer']);
  t.deepEqual(evaluate(model, { income: 8000, member: true, channel: 'web' }), {
    ok: true,
    results: { Score: 80, Band: { band: 'HIGH', limit: 1600 }, Offer: 'GOLD CARD' },
  });
});

test('asking for one decision evaluates what it requires and returns only that decision', async (t) => {
  const model = await compiled(loans);
  t.deepEqual(evaluate(model, { income: 1000 }, 'Band'), { ok: true, results: { Band: { band: 'LOW', limit: 100 } } });
});

test('an input the model declares but no decision reads must still be supplied for the whole model', async (t) => {
  const model = await compiled(loans);
  t.deepEqual(model.inputs, ['income', 'member', 'channel']);
  const result = evaluate(model, { income: 8000, member: true });
  t.deepEqual(result, {
    ok: false,
    error: { code: 'DMN_EVALUATION_ERROR', decision: null, rule: null, cell: "input data 'channel'", message: 'the input is missing' },
  });
});

const missing: Array<[string, Record<string, unknown>, string | undefined, string, string]> = [
  ['the whole model', { member: true, channel: 'web' }, undefined, 'Score', 'income'],
  ['one decision', { income: 1 }, 'Offer', 'Offer', 'member'],
  ['a decision whose input is explicitly undefined', { income: undefined }, 'Score', 'Score', 'income'],
];

for (const [what, inputs, decision, reader, input] of missing) {
  test(`a missing input is an evaluation error naming the decision that reads it, for ${what}`, async (t) => {
    const result = evaluate(await compiled(loans), inputs, decision);
    t.deepEqual(result, {
      ok: false,
      error: { code: 'DMN_EVALUATION_ERROR', decision: reader, rule: null, cell: `input data '${input}'`, message: 'the input is missing' },
    });
  });
}

test('null is a value, not a missing input', async (t) => {
  const result = evaluate(await compiled(loans), { income: null, member: null, channel: null });
  t.deepEqual(result, { ok: true, results: { Score: 10, Band: { band: 'LOW', limit: 100 }, Offer: 'STANDARD CARD' } });
});

test('inputs the model does not declare are ignored', async (t) => {
  const result = evaluate(await compiled(loans), { income: 8000, member: false, channel: 'web', extra: 'ignored' }, 'Offer');
  t.deepEqual(result, { ok: true, results: { Offer: 'STANDARD CARD' } });
});

test('an unknown decision is reported as such, not as an evaluation error', async (t) => {
  const result = evaluate(await compiled(loans), { income: 1 }, 'Pricing');
  t.deepEqual(result, {
    ok: false,
    error: { code: 'DMN_UNKNOWN_DECISION', decision: null, rule: null, cell: null, message: "model 'Loans' has no decision 'Pricing'" },
  });
});

test('an output entry naming something not in scope is an evaluation error at that rule and output', async (t) => {
  const model = await compiled({
    decisions: [{ inputs: [{ expression: 'x', typeRef: 'number' }], outputs: [{ name: 'y' }, { name: 'z' }], rules: [[['-'], ['1', 'x + bonus']]] }],
  });
  t.deepEqual(evaluate(model, { x: 1 }), {
    ok: false,
    error: { code: 'DMN_EVALUATION_ERROR', decision: 'Decision', rule: 1, cell: "output 'z'", message: "Variable 'bonus' not found" },
  });
});

test('a decision cannot see an input it does not require, even when it is supplied', async (t) => {
  const model = await compiled({
    inputData: [
      { name: 'a', typeRef: 'number' },
      { name: 'b', typeRef: 'number' },
    ],
    decisions: [{ reads: ['a'], inputs: [{ expression: 'a + b' }], outputs: [{}], rules: [[['-'], ['1']]] }],
  });
  const result = evaluate(model, { a: 1, b: 2 });
  t.like(result, { ok: false, error: { decision: 'Decision', cell: "input 'a + b'", message: "Variable 'b' not found" } });
});

test('results are plain JSON data', async (t) => {
  const result = evaluate(await compiled(loans), { income: 8000, member: true, channel: 'web' });
  t.deepEqual(JSON.parse(JSON.stringify(result)), result);
});
