import test from 'ava';
import { evaluate } from '../../../dmn/engine/index.js';
import { compiled, decide, type TableSpec } from './dmn-xml.js';

// A table that passes its input through, so both the input and the output typeRef are checked.
// It reads `value` by its bare name, which declares that input with the clause's typeRef.
const echo = (typeRef: string): TableSpec => ({
  inputs: [{ expression: 'value', typeRef }],
  outputs: [{ typeRef }],
  rules: [[['-'], ['value']]],
});

// [typeRef, value sent as JSON, value returned as JSON]
const conforming: Array<[string, unknown, unknown]> = [
  ['string', 'text', 'text'],
  ['number', 2.5, 2.5],
  ['boolean', false, false],
  ['date', '2024-02-29', '2024-02-29'],
  ['date and time', '2024-02-29T10:30:00Z', '2024-02-29T10:30:00Z'],
  ['time', '10:30:00', '10:30:00'],
  ['duration', 'P1DT2H', 'P1DT2H'],
  ['days and time duration', 'PT2H', 'PT2H'],
  ['years and months duration', 'P1Y2M', 'P1Y2M'],
  ['Any', { nested: [1, 'two'] }, { nested: [1, 'two'] }],
  ['string', null, null],
  ['date', null, null],
];

for (const [typeRef, value, expected] of conforming) {
  test(`a ${typeRef} input ${JSON.stringify(value)} conforms and comes back as ${JSON.stringify(expected)}`, async (t) => {
    t.deepEqual(await decide(echo(typeRef), { value }), expected);
  });
}

// [typeRef, value sent, FEEL type named in the error]
const failing: Array<[string, unknown, string]> = [
  ['string', 5, 'number'],
  ['number', '5', 'string'],
  ['boolean', 'true', 'string'],
  ['string', ['a'], 'list'],
  ['number', { amount: 1 }, 'context'],
  ['date', '2024-02-30', 'string'],
  ['date and time', 'yesterday', 'string'],
  ['time', 'noon', 'string'],
  ['duration', 'a while', 'string'],
  ['days and time duration', 'P1Y', 'string'],
  ['years and months duration', 'P1D', 'string'],
];

for (const [typeRef, value, type] of failing) {
  test(`a ${typeRef} input given ${JSON.stringify(value)} is an evaluation error naming the type, not the value`, async (t) => {
    const outcome = (await decide(echo(typeRef), { value })) as { error: { code: string; cell: string; message: string } };
    t.is(outcome.error.code, 'DMN_EVALUATION_ERROR');
    t.is(outcome.error.cell, "input data 'value'");
    t.is(outcome.error.message, `a ${type} does not conform to typeRef '${typeRef}'`);
  });
}

test('an input clause checks its own typeRef when the input data declares none', async (t) => {
  const model = await compiled({ inputData: [{ name: 'value' }], decisions: [{ ...echo('number'), reads: ['value'] }] });
  t.deepEqual(evaluate(model, { value: 'five' }), {
    ok: false,
    error: { code: 'DMN_EVALUATION_ERROR', decision: 'Decision', rule: null, cell: "input 'value'", message: "a string does not conform to typeRef 'number'" },
  });
});

test('a computed output that does not conform to its typeRef is an evaluation error on that output', async (t) => {
  const table: TableSpec = {
    inputs: [{ expression: 'name', typeRef: 'string' }],
    outputs: [
      { name: 'greeting', typeRef: 'string' },
      { name: 'length', typeRef: 'number' },
    ],
    rules: [[['-'], ['"hello " + name', 'upper case(name)']]],
  };
  t.deepEqual(await decide(table, { name: 'x' }), {
    error: { code: 'DMN_EVALUATION_ERROR', decision: 'Decision', rule: 1, cell: "output 'length'", message: "a string does not conform to typeRef 'number'" },
  });
});

test('values outside the input values or output values are evaluation errors on that clause', async (t) => {
  const table: TableSpec = {
    inputs: [{ expression: 'size', typeRef: 'string', values: '"S","M","L"' }],
    outputs: [{ typeRef: 'string', values: '"small","medium","large"' }],
    rules: [
      [['"S"'], ['"small"']],
      [['"M"'], ['"medium"']],
      [['"L"'], ['lower case(size)']],
    ],
  };
  const outsideValues = { code: 'DMN_EVALUATION_ERROR', decision: 'Decision', message: 'the value is not among the allowed values' };
  t.is(await decide(table, { size: 'M' }), 'medium');
  t.deepEqual(await decide(table, { size: 'XL' }), { error: { ...outsideValues, rule: null, cell: "input 'size'" } });
  t.deepEqual(await decide(table, { size: 'L' }), { error: { ...outsideValues, rule: 3, cell: "output '1'" } });
});

test('temporal inputs compute as FEEL values and leave as ISO text', async (t) => {
  const table: TableSpec = {
    inputs: [{ expression: 'start', typeRef: 'date' }],
    outputs: [{ typeRef: 'date' }],
    rules: [
      [['< date("2024-01-01")'], ['start']],
      [['>= date("2024-01-01")'], ['start + duration("P1M")']],
    ],
  };
  t.is(await decide(table, { start: '2023-12-31' }), '2023-12-31');
  t.is(await decide(table, { start: '2024-01-31' }), '2024-02-29');
});
